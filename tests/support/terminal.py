"""A real pseudo-terminal running a shelldon command, for the chat's tests."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from shelldon.paths import DataRoot

WAIT_S = 60.0


def _take_the_terminal() -> None:
    """In the child: the pty becomes its controlling terminal, so Ctrl-C there is a SIGINT."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A real pseudo-terminal running `shelldon ARGS` (or `argv`), read until an expected text
    shows up."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, argv: list[str] | None = None
    ) -> None:
        try:
            self.master, slave = pty.openpty()
        except OSError as exc:  # a CI container without /dev/ptmx
            pytest.skip(f"no pseudo-terminal here: {exc}")
        self.env = {**os.environ, "TERM": "xterm", **(env or {})}
        self.proc = subprocess.Popen(
            argv or [sys.executable, "-m", "shelldon", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=self.env,
            close_fds=True,
            start_new_session=True,
            preexec_fn=_take_the_terminal,
        )
        os.close(slave)
        self.seen = ""  # not yet matched
        self.transcript = ""  # everything the terminal showed

    def expect(self, pattern: str, timeout: float = WAIT_S) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.seen)
            if found:
                self.seen = self.seen[found.end() :]
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} not seen; the terminal shows:\n{self.seen}")
            readable, _, _ = select.select([self.master], [], [], left)
            if readable and not self._read():
                raise AssertionError(f"{pattern!r} not seen before EOF:\n{self.seen}")

    def type(self, line: str) -> None:
        self.send(line.encode() + b"\n")

    def send(self, data: bytes) -> None:
        """Write `data` as typed (or pasted), reading what the terminal echoes meanwhile: a long
        paste would otherwise fill the echo's buffer and both sides would wait. While the input
        is full, the wait is for either side: a pet blocked writing its echo (or anything else) is
        read, which lets it go back to reading what was pasted."""
        deadline = time.monotonic() + WAIT_S
        while data:
            left = deadline - time.monotonic()
            readable, writable, _ = select.select([self.master], [self.master], [], max(0, left))
            if readable and not self._read():
                raise AssertionError(f"the terminal closed while typing; it shows:\n{self.seen}")
            if writable:
                sent = os.write(self.master, data[:1024])
                data = data[sent:]
                deadline = time.monotonic() + WAIT_S  # the wait is for progress, not the whole
            elif not readable:
                raise AssertionError(f"the terminal takes no input; it shows:\n{self.seen}")

    def read_to_the_end(self) -> str:
        """Everything the terminal shows until its other side closes (the process has exited)."""
        while self._read():
            pass
        return self.transcript

    def _logs(self) -> str:
        """The tails of the chat mode's log files (<home>/logs/), for a failure's message."""
        logs = DataRoot.resolve(self.env.get("SHELLDON_HOME")).home / "logs"
        return "\n".join(
            f"--- {path.name}:\n{path.read_text(errors='replace')[-2000:]}"
            for path in sorted(logs.glob("*.log"))
        )

    def _read(self) -> bytes:
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the other side closed
            data = b""
        self.seen += data.decode(errors="replace")
        self.transcript += data.decode(errors="replace")
        return data

    def close(self, timeout: float = 60.0) -> int:
        """SIGTERM, then wait for the exit while reading the terminal: a pet that prints while it
        stops would otherwise block on a full pty (after a long paste's echo) and never exit. The
        exit is seen on a pidfd, not polled for; a pet still running at the deadline is named with
        what its terminal showed last, then killed, so the next test does not inherit it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        try:
            exited = os.pidfd_open(self.proc.pid)
        except ProcessLookupError:  # already reaped
            exited = -1
        try:
            watched = [self.master] + ([exited] if exited >= 0 else [])
            while self.proc.poll() is None and (left := deadline - time.monotonic()) > 0:
                readable, _, _ = select.select(watched, [], [], left)
                if exited in readable:
                    break
                if self.master in readable and not self._read():
                    watched.remove(self.master)  # EOF: the pty's other side is closed
        finally:
            if exited >= 0:
                os.close(exited)
        try:
            code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(
                f"the pet did not exit within {timeout:.0f} s of SIGTERM; its terminal showed:\n"
                f"{self.transcript[-3000:]}\n{self._logs()}"
            ) from None
        finally:
            os.close(self.master)
        return code
