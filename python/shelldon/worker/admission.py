"""The fork-server's half of the broker's admission (broker.admission): tell the broker which
worker a live turn has, and when the turn ends.

Per turn: a fresh token (`new_token`), kept in the fork-server's memory and so in the child's copy
of it after the fork, never in argv, the environment or a file; after the fork, `admit` sends the
broker the child's pid, its uid and the token (`AdmitWorker`) and the child, once it has read its
prompt, waits on its `go` pipe (`await_admission`) until that is done, so its first `Complete` can
never beat its admission while its read never waits for it.
`retire` (`RetireWorker`) is sent when the turn ends, before the child is reaped.

Both go over one connection the fork-server keeps open to the broker (not two new connections a
turn, each a new thread in the broker: docs/performance.md, "CPU per turn"). The broker checks the
connection's SO_PEERCRED pid (the kernel's, taken at connect) against forkserver.pid for each
message. That pid is the fork-server's for as long as the connection lives, so a child must never
hold it: a worker closes every inherited fd before anything else (`drop.close_inherited_fds`, the
first thing `ForkServer._child` does), and this socket is among them. A connection that fails (the
broker restarted, or closed it after its idle timeout) is closed and one fresh one is tried; a
connection is never used again after any error, so a half-read answer can never be taken for the
next one's.

The fork-server's loop is single-threaded: each request is bounded (ADMIT_TIMEOUT_S). A broker
that does not answer costs this turn its completion (the worker is refused, the owner gets the
degrade reply), never the loop.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time

from shelldon import digests, ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot

log = logging.getLogger("shelldon.worker.admission")

ADMIT_TIMEOUT_S = 2.0
GO = b"g"
NOT_ADMITTED = b"n"  # the broker did not admit it (not up yet, or refused): no brain to ask


def new_token() -> str:
    return digests.token_hex(16)


class BrokerAdmission:
    """The fork-server's client for AdmitWorker / RetireWorker on broker.sock."""

    def __init__(self, root: DataRoot, *, timeout: float = ADMIT_TIMEOUT_S) -> None:
        self.root = root
        self.timeout = timeout
        self._sock: socket.socket | None = None  # the kept connection, None until the first ask
        self.connections = 0  # connections opened (one a broker's life, unless it closes them)

    def admit(self, turn_id: str, pid: int, uid: int, token: str, deadline_s: float) -> bool:
        """True when the broker took the admission."""
        message = wire.AdmitWorker(
            turn_id=turn_id, pid=pid, uid=uid, token=token, deadline_s=deadline_s
        )
        return self._ask(message, turn_id)

    def retire(self, turn_id: str, pid: int) -> bool:
        return self._ask(wire.RetireWorker(turn_id=turn_id, pid=pid), turn_id)

    def close(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None

    def _exchange(self, message: wire.AdmitWorker | wire.RetireWorker) -> wire.Message:
        """One round trip on the kept connection; on a failure of a kept one, one fresh try (both
        messages may be sent twice: an admission replaces its pid's, a second retirement is
        answered "not admitted"). Any failure closes the connection it happened on."""
        deadline = time.monotonic() + self.timeout
        for _ in range(2):
            reused = self._sock is not None
            try:
                if self._sock is None:
                    left = max(0.01, deadline - time.monotonic())
                    self._sock = ipc.connect(self.root.socket("broker"), timeout=left)
                    self.connections += 1
                return ipc.exchange(self._sock, message, deadline=deadline)
            except (OSError, ipc.IpcError):
                self.close()
                if not reused or time.monotonic() >= deadline:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _ask(self, message: wire.AdmitWorker | wire.RetireWorker, turn_id: str) -> bool:
        name = type(message).__name__
        try:
            answer = self._exchange(message)
        except (OSError, ipc.IpcError) as exc:
            log.warning("fork-server: turn %s: %s to the broker failed: %s", turn_id, name, exc)
            return False
        if not isinstance(answer, wire.Ack):
            self.close()  # a refusal may come with a closed connection: start afresh next time
            reason = getattr(answer, "reason", type(answer).__name__)
            log.warning("fork-server: turn %s: the broker refused %s: %s", turn_id, name, reason)
            return False
        return True


def release(go: int, admitted: bool = True) -> None:
    """The fork-server's side of the go pipe: the admission is settled; the child may go on, and
    reads whether it was admitted (GO) or not (NOT_ADMITTED). Closing is the signal, so a
    fork-server that dies releases it too (read as not admitted)."""
    with contextlib.suppress(OSError):
        os.write(go, GO if admitted else NOT_ADMITTED)
    with contextlib.suppress(OSError):
        os.close(go)


def await_admission(go: int) -> bool:
    """In the worker, before it may ask the broker: wait until the fork-server has settled its
    admission; whether the broker admitted it (one it did not would only be refused)."""
    try:
        return os.read(go, 1) == GO
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.close(go)
