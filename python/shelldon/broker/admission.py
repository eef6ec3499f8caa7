"""Which workers the broker serves: the one the fork-server spawned for a live turn, for that turn.

The worker uid alone proves nothing (any process of that user has it, and on a box where the
account is shared, many do). So the fork-server, after each fork, tells the broker the child's pid,
the uid it drops to and a one-time token it generated for the turn (`AdmitWorker`); the child holds
the token only in the memory it got from the fork (never argv, environment or a file) and sends it
with its `Complete`. The broker serves a `Complete` only when the kernel's view of the connection
(SO_PEERCRED pid and uid) matches an admission and the token is that admission's. The admission ends
with the turn (`RetireWorker`, sent before the fork-server reaps the child, so the pid cannot have
been reused yet), or at its deadline if the fork-server never said so (it was killed).

`AdmitWorker`/`RetireWorker` are taken only from the fork-server's pid (its pid file; the run dir is
not writable by the worker).

An admission serves `COMPLETES_PER_TURN` completions (a worker asks once a turn, worker.turn): a
hostile worker with its turn's token asked at full rate, each a provider call on the owner's key
(tests/test_ipc_storm_shapes.py: 406 calls in the drill's few seconds before; 1 now).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from shelldon import digests, ipc
from shelldon.contracts import wire

log = logging.getLogger("shelldon.broker.admission")

# Beyond the turn's own deadline: the fork-server kills the worker at the deadline and retires it
# right after; this only bounds an admission the fork-server (killed) never retired.
RETIRE_GRACE_S = 5.0
MAX_ADMISSIONS = 8  # one turn is in flight; a few more only while retirements race
COMPLETES_PER_TURN = 1  # worker.turn asks once; the broker's chain does the retries itself


@dataclass(frozen=True)
class Admission:
    turn_id: str
    pid: int
    uid: int
    token: str
    expires: float  # time.monotonic()
    asked: int = 0  # completions served to it so far (`take`)


class WorkerAdmissions:
    """The broker's table of live turns' workers. Thread-safe (one broker thread per connection)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._by_pid: dict[int, Admission] = {}

    def admit(self, message: wire.AdmitWorker) -> None:
        now = self._clock()
        admission = Admission(
            turn_id=message.turn_id,
            pid=message.pid,
            uid=message.uid,
            token=message.token,
            expires=now + max(0.0, message.deadline_s) + RETIRE_GRACE_S,
        )
        with self._lock:
            self._expire(now)
            if len(self._by_pid) >= MAX_ADMISSIONS and message.pid not in self._by_pid:
                oldest = min(self._by_pid.values(), key=lambda a: a.expires)
                del self._by_pid[oldest.pid]
            self._by_pid[message.pid] = admission

    def retire(self, message: wire.RetireWorker) -> bool:
        with self._lock:
            admission = self._by_pid.get(message.pid)
            if admission is None or admission.turn_id != message.turn_id:
                return False
            del self._by_pid[message.pid]
            return True

    def admitted_uids(self) -> frozenset[int]:
        """The uids of live admissions (a connection of another uid is not a worker)."""
        with self._lock:
            self._expire(self._clock())
            return frozenset(a.uid for a in self._by_pid.values())

    def is_admitted(self, peer: ipc.Peer) -> bool:
        """The peer is a live turn's worker (pid and uid), before it has said anything."""
        with self._lock:
            self._expire(self._clock())
            admission = self._by_pid.get(peer.pid)
            return admission is not None and admission.uid == peer.uid

    def check(self, peer: ipc.Peer, message: wire.Complete) -> str | None:
        """Why this Complete is refused, or None: the peer is the live turn's worker."""
        with self._lock:
            self._expire(self._clock())
            return self._why(peer, message)

    def take(self, peer: ipc.Peer, message: wire.Complete) -> str | None:
        """`check`, and one of the admission's COMPLETES_PER_TURN spent when it passes (under
        the one lock: two connections asking at once cannot both pass)."""
        with self._lock:
            self._expire(self._clock())
            refusal = self._why(peer, message)
            if refusal is not None:
                return refusal
            admission = self._by_pid[peer.pid]
            if admission.asked >= COMPLETES_PER_TURN:
                return f"turn {admission.turn_id} has had its completion (one a turn)"
            self._by_pid[peer.pid] = replace(admission, asked=admission.asked + 1)
            return None

    def _why(self, peer: ipc.Peer, message: wire.Complete) -> str | None:
        admission = self._by_pid.get(peer.pid)
        if admission is None:
            return "no live turn's worker has this pid"
        if admission.uid != peer.uid:
            return f"pid {peer.pid} was admitted as uid {admission.uid}, not {peer.uid}"
        if not digests.equal_in_constant_time(admission.token.encode(), message.token.encode()):
            return "wrong turn token"
        if admission.turn_id != message.turn_id:
            return f"admitted for turn {admission.turn_id}, not {message.turn_id}"
        return None

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_pid)

    def _expire(self, now: float) -> None:
        for pid in [pid for pid, a in self._by_pid.items() if a.expires <= now]:
            gone = self._by_pid.pop(pid)
            log.info("broker: turn %s's worker %d expired unretired", gone.turn_id, pid)
