"""A tiny sd_notify: READY, STOPPING, WATCHDOG and EXTEND_TIMEOUT_USEC datagrams to $NOTIFY_SOCKET.

Outside systemd (no NOTIFY_SOCKET) every call is a no-op, so the same code runs in a terminal.
The watchdog pinger is a daemon thread that pings at half of $WATCHDOG_USEC while `healthy()`
holds; a wedged process stops pinging and systemd restarts it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable

log = logging.getLogger("shelldon.sdnotify")


def _address() -> str | None:
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return None
    if addr.startswith("@"):  # abstract namespace
        return "\0" + addr[1:]
    return addr


def notify(state: str) -> bool:
    """Send one state string. True if sent; False without a notify socket or on failure."""
    addr = _address()
    if addr is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(state.encode())
    except OSError as exc:
        log.warning("sd_notify %r failed: %s", state, exc)
        return False
    return True


def ready(status: str = "") -> bool:
    """READY=1, with a status that ends in the CPU time this process spent to get here: a start's
    cost that waiting on other units does not inflate (the card's self-test gates on it against a
    bare interpreter's; `systemctl status` shows it)."""
    cost = f"started on {time.process_time():.3f} s of CPU"
    return notify(f"READY=1\nSTATUS={status + ', ' if status else ''}{cost}")


def stopping() -> bool:
    return notify("STOPPING=1")


def extend_timeout(seconds: float) -> bool:
    """EXTEND_TIMEOUT_USEC: the current state's timeout (at start, TimeoutStartSec) is extended so
    that the service has `seconds` from now to send its next message (e.g. READY=1)."""
    return notify(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}")


def watchdog_interval() -> float | None:
    """Half of WATCHDOG_USEC in seconds, if the watchdog is on for this process."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None


class Watchdog:
    """Pings WATCHDOG=1 every half period while `healthy()` is true. A no-op without a watchdog."""

    def __init__(self, healthy: Callable[[], bool] = lambda: True) -> None:
        self._healthy = healthy
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        interval = watchdog_interval()
        if interval is None or _address() is None:
            return
        self._thread = threading.Thread(
            target=self._run, args=(interval,), daemon=True, name="watchdog"
        )
        self._thread.start()

    def _run(self, interval: float) -> None:
        while not self._stop.wait(interval):
            if self._healthy():
                notify("WATCHDOG=1")
            else:
                log.error("unhealthy: not pinging the watchdog")

    def stop(self) -> None:
        self._stop.set()


class WatchdogClock:
    """For a single-threaded loop (the fork-server must not have a second thread when it forks):
    `timeout()` says how long the loop may sleep, `tick()` pings when due."""

    def __init__(self) -> None:
        self._monotonic = time.monotonic
        self.interval = watchdog_interval() if _address() is not None else None
        self._due = self._monotonic() + self.interval if self.interval else None

    def timeout(self) -> float | None:
        if self._due is None:
            return None
        return max(0.0, self._due - self._monotonic())

    def tick(self) -> None:
        if self._due is None or self.interval is None:
            return
        if self._monotonic() >= self._due:
            notify("WATCHDOG=1")
            self._due = self._monotonic() + self.interval
