"""Types into the README's first command as a person would, inside the newcomer's box: runs it on a
terminal (a pty: `shelldon run` chats only on a terminal), waits for the chat's prompt, says hello,
waits for the reply and the next prompt, leaves with /quit. Prints all the terminal showed and exits
with the command's status (124 if the bound passed first). Standard library only: it runs on the
box's own python3.

    python3 readme_chat.py SECONDS COMMAND [ARGS...]
"""

import os
import pty
import select
import sys
import time


class Ended(Exception):
    pass


def main(argv: list[str]) -> int:
    deadline = time.monotonic() + float(argv[1])
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[2], argv[2:])
    seen = bytearray()

    def read_more() -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: the command closed the terminal
                data = b""
            if not data:
                raise Ended
            seen.extend(data)

    def read_until(marker: bytes, start: int) -> int:
        while (at := seen.find(marker, start)) < 0:
            read_more()
        return at + len(marker)

    code = 0
    try:
        at = read_until(b"you> ", 0)
        os.write(fd, b"hello\r")
        at = read_until(b"shelldon> ", at)
        read_until(b"you> ", at)
        os.write(fd, b"/quit\r")
        while True:
            read_more()
    except Ended:
        pass
    except TimeoutError:
        os.kill(pid, 9)
        code = 124
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(seen.decode(errors="replace"))
    return code or os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
