"""Connect storms against the real pet's sockets, from real processes of real uids.

A storm is a forked child (dropped to a throwaway user, or left root) that loops as fast as it can:
connect, Ping, read the answer, close, until the parent releases it. It says once it has made its
first attempt (so the owner talks while it really storms) and, at the end, how its attempts went.
Other shapes of storm (tests/support/storm_shapes.py) are other loops run the same way.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shelldon import ipc
from shelldon.contracts import wire
from support import users
from support.users import TestUser

# A storm's loop: (the socket, the stop pipe's read end, the `started` pipe's write end) -> its
# outcome, JSON-able. It writes one byte to `started` (and closes it) once it really storms.
Loop = Callable[[Path, int, int], dict[str, Any]]


def said_started(started: int) -> None:
    os.write(started, b"s")
    os.close(started)


def stopped(stop: int, timeout: float = 0.0) -> bool:
    """Whether the parent has released the storm (its stop pipe reads EOF)."""
    return bool(select.select([stop], [], [], timeout)[0])


def _storm_loop(path: Path, stop: int, started: int) -> dict[str, Any]:
    outcome: dict[str, Any] = {"tried": 0, "eacces": 0, "refused": 0, "answered": 0, "other": 0}
    reasons: set[str] = set()
    told = False
    while not stopped(stop):
        outcome["tried"] += 1
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(10)
            sock.connect(os.fspath(path))
            with contextlib.suppress(ipc.PeerClosed):
                ipc.send(sock, wire.Ping())
            answer = ipc.recv(sock, deadline=time.monotonic() + 10)
        except PermissionError as exc:
            outcome["eacces" if exc.errno == errno.EACCES else "other"] += 1
        except (ipc.IpcError, OSError):
            outcome["other"] += 1  # closed unanswered, a full backlog (EAGAIN), a reset
        else:
            if isinstance(answer, wire.Refused):
                outcome["refused"] += 1
                reasons.add(answer.reason)
            else:
                outcome["answered"] += 1
        finally:
            sock.close()
        if not told:
            said_started(started)
            told = True
    outcome["reasons"] = sorted(reasons)
    return outcome


def _close_all_but(*keep: int) -> None:
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))


@dataclass
class Storm:
    """One storming child: `user` None stays root; `loop` what it does (a connect storm)."""

    path: Path
    user: TestUser | None
    loop: Loop = _storm_loop
    pid: int = 0
    _stop_w: int = -1
    _result_r: int = -1
    _started_r: int = -1
    outcome: dict[str, Any] = field(default_factory=dict)

    @property
    def who(self) -> str:
        return "root" if self.user is None else self.user.name.split("-")[1]

    def start(self) -> None:
        stop_r, self._stop_w = os.pipe()
        self._result_r, result_w = os.pipe()
        self._started_r, started_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - reports through its pipe
            # Only its own three ends: another storm's stop pipe held open here would never EOF.
            _close_all_but(stop_r, result_w, started_w)
            try:
                if self.user is not None:
                    users.become(self.user)
                result: dict[str, Any] = self.loop(self.path, stop_r, started_w)
            except BaseException as exc:
                result = {"error": f"{type(exc).__name__}: {exc}"}
            os.write(result_w, json.dumps(result).encode())
            os._exit(0)
        os.close(stop_r)
        os.close(result_w)
        os.close(started_w)
        self.pid = pid

    def wait_started(self, timeout: float = 60.0) -> bool:
        """True once the child has made its first attempt (its `started` byte, or its end)."""
        readable, _, _ = select.select([self._started_r], [], [], timeout)
        os.close(self._started_r)
        return bool(readable)

    def finish(self) -> dict[str, Any]:
        os.close(self._stop_w)  # the child's stop pipe reads EOF: it ends its loop
        chunks = []
        while chunk := os.read(self._result_r, 65536):
            chunks.append(chunk)
        os.close(self._result_r)
        os.waitpid(self.pid, 0)
        self.outcome = json.loads(b"".join(chunks))
        return self.outcome


def refusal_lines(lines: list[str]) -> list[str]:
    """The log lines that refused a peer (each socket's refusal log, and the cap's)."""
    return [line for line in lines if " refused " in line or "too many connections" in line]
