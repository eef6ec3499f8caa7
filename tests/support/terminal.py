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

WAIT_S = 60.0


def _take_the_terminal() -> None:
    """In the child: the pty becomes its controlling terminal, so Ctrl-C there is a SIGINT."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A real pseudo-terminal running `shelldon run`, read until an expected text shows up."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        try:
            self.master, slave = pty.openpty()
        except OSError as exc:  # a CI container without /dev/ptmx
            pytest.skip(f"no pseudo-terminal here: {exc}")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shelldon", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm", **(env or {})},
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
        paste would otherwise fill the echo's buffer and both sides would wait."""
        while data:
            _, writable, _ = select.select([], [self.master], [], WAIT_S)
            if not writable:
                raise AssertionError(f"the terminal takes no input; it shows:\n{self.seen}")
            sent = os.write(self.master, data[:1024])
            data = data[sent:]
            while select.select([self.master], [], [], 0)[0]:
                self._read()

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
        stops would otherwise block on a full pty (after a long paste's echo) and never exit."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            readable, _, _ = select.select([self.master], [], [], 0.2)
            if readable and not self._read():
                break  # EOF: the terminal's other side is closed; wait() below reaps it
        code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        os.close(self.master)
        return code
