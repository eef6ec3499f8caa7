"""How long the terminal waits for a turn, and what it shows meanwhile.

`say_timeout`: a turn may take `[worker] turn_timeout` (SHELLDON_TURN_DEADLINE in tests), and a
message may wait behind one other turn already running (a Telegram message, a check-in), so the
client waits for two turns plus a margin for the relay, never less than the old fixed 120 s. A
local model allowed 10 minutes a turn is waited for; the client never gives up ("lost core") on a
turn that core will still answer and store.

`ThinkingLine`: after a few seconds without an answer, one line on stderr says the pet is
thinking; on a terminal it counts the seconds in place and is wiped when the answer comes, so
stdout holds only the reply.
"""

from __future__ import annotations

import os
import select
import sys
import time

# Not `typing.TYPE_CHECKING`: `shelldon say` imports this module and neither typing nor the config
# loader until a turn is slow enough to need the configured timeout (transport.quick_say).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from _socket import socket
    from typing import TextIO

    from shelldon.paths import DataRoot

MIN_WAIT_S = 120.0
RELAY_MARGIN_S = 30.0  # the fork-server's kill and relay, core's reply, the socket
TURN_DEADLINE_ENV = "SHELLDON_TURN_DEADLINE"  # core.runner reads the same variable
THINKING_AFTER_S = 3.0
THINKING_TEXT = "shelldon is thinking…"


def turn_timeout(root: DataRoot) -> float:
    raw = os.environ.get(TURN_DEADLINE_ENV)
    if raw:
        try:
            return float(raw)
        except ValueError:
            pass
    from shelldon.config import ConfigError, load_config

    try:
        return float(load_config(root).worker.turn_timeout)
    except ConfigError:
        return 60.0  # core refuses to start with it anyway; the default is what it would use


def say_timeout(root: DataRoot) -> float:
    return max(MIN_WAIT_S, 2 * turn_timeout(root) + RELAY_MARGIN_S)


class ThinkingLine:
    """Shows the wait on `stream`: once when it is not a terminal, live when it is."""

    def __init__(self, stream: TextIO | None = None, *, after_s: float = THINKING_AFTER_S) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.after_s = after_s
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def wait_readable(self, sock: socket, deadline: float, *, started: float | None = None) -> None:
        """Block until `sock` has an answer or the deadline passes, showing the wait (counted
        from `started`, else from now)."""
        started = time.monotonic() if started is None else started
        first = min(deadline, started + self.after_s)
        if self._readable(sock, first):
            return
        try:
            while True:
                self._show(time.monotonic() - started)
                if time.monotonic() >= deadline or self._readable(
                    sock, min(deadline, time.monotonic() + 1.0)
                ):
                    return
        finally:
            self._clear()

    @staticmethod
    def _readable(sock: socket, until: float) -> bool:
        remaining = max(0.0, until - time.monotonic())
        readable, _, _ = select.select([sock], [], [], remaining)
        return bool(readable)

    def _show(self, elapsed: float) -> None:
        if self.live:
            self.stream.write(f"\r{THINKING_TEXT} {elapsed:.0f} s")
            self.stream.flush()
        elif not self.shown:
            print(THINKING_TEXT, file=self.stream, flush=True)
        self.shown = True

    def _clear(self) -> None:
        if self.live and self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
