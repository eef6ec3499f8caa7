"""One dream, start to finish: scheduler verdict → cross-process lock → the worker slot →
directive → budget → worker → application → the record `shelldon status` shows."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from shelldon.clock import iso
from shelldon.contracts.provenance import Provenance
from shelldon.core.dream.apply import DreamApplication, OpOutcome, RawOp, apply_dream
from shelldon.core.dream.directive import StoreSources, build_dream_directive, one_line
from shelldon.core.dream.model import DEFAULT_LIMITS, AuditFn, DreamLimits, dream_unit
from shelldon.core.history.store import HistoryStore
from shelldon.core.learning.corrections import CorrectionLedger, rule_contradicts
from shelldon.core.learning.pending import PendingLearning
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.proactive.scheduler import DreamRecord, Scheduler
from shelldon.core.runner import TurnGate
from shelldon.core.storage import layout
from shelldon.paths import DREAM_LOCK

log = logging.getLogger(__name__)


@contextlib.contextmanager
def dream_lock(state_dir: Path) -> Iterator[bool]:
    """An exclusive, non-blocking flock on state/dream.lock: two dreams never overlap, also across
    processes. Yields False when another dream holds it. The kernel drops it if the holder dies."""
    layout.ensure_dir(state_dir, layout.DIR_MODE)
    fd = os.open(
        state_dir / DREAM_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, layout.PRIVATE_FILE_MODE
    )
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                yield False
                return
            raise
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class DreamTurn:
    """What the worker returned for a dream (or why it returned nothing)."""

    reply: str = ""
    ops: tuple[RawOp, ...] = ()
    failed: str = ""  # non-empty: no reply (spawn failure, timeout, brain failure)
    completion_tokens: int | None = None


SpawnDream = Callable[[str, str, float], DreamTurn]
"""(turn_id, directive, deadline_s) -> DreamTurn: runs one worker with purpose "dream"."""


class GateArbiter:
    """The dream's slot in core's TurnGate: it waits behind every owner turn in flight or queued,
    and an owner arriving later goes before it."""

    def __init__(self, gate: TurnGate) -> None:
        self.gate = gate

    @contextlib.contextmanager
    def dream_turn(self, *, wait_s: float = 0.0) -> Iterator[bool]:
        self.gate.acquire("dream")  # waits behind every owner turn, in flight or queued
        try:
            yield True
        finally:
            self.gate.release()


def _nothing_detail(held_back: int) -> str:
    detail = "nothing to consolidate"
    if held_back:
        detail += f" ({held_back} corrected learning(s) held back)"
    return detail


class Dreamer:
    """One dream at a time: verdict → lock → arbiter slot → directive → budget → worker → apply."""

    def __init__(
        self,
        *,
        state_dir: Path,
        scheduler: Scheduler,
        arbiter: GateArbiter,
        sources: StoreSources,
        memory: CuratedMemory,
        history: HistoryStore,
        audit: AuditFn,
        spawn: SpawnDream,
        corrections: CorrectionLedger | None = None,
        limits: DreamLimits = DEFAULT_LIMITS,
        provenance: Provenance = "inferred",
    ) -> None:
        self.state_dir = Path(state_dir)
        self.scheduler = scheduler
        self.arbiter = arbiter
        self.sources = sources
        self.memory = memory
        self.history = history
        self.audit = audit
        self.spawn = spawn
        self.corrections = corrections or CorrectionLedger(self.state_dir)
        self.limits = limits
        self.provenance: Provenance = provenance

    def tick(self) -> DreamRecord | None:
        """The idle cadence: dream if due, else nothing (not recorded: most ticks are not due)."""
        if not self.scheduler.verdict().due:
            return None
        # Nothing pending: nothing to do, and nothing written (the tick runs every minute on an
        # SD card; a skip is only recorded when the owner asked for the dream).
        if not self.sources.pending(1):
            return None
        return self._run(on_request=False, force=False, wait_s=0.0)

    def dream_now(self, *, force: bool = False, wait_s: float = 30.0) -> DreamRecord:
        """`shelldon dream --now`: skips the idle wait and the cooldown, not the budget or battery
        (unless forced). Waits up to `wait_s` for an owner's turn in flight to finish."""
        verdict = self.scheduler.verdict(on_request=True, force=force)
        if not verdict.due:
            return DreamRecord(
                at=iso(self.scheduler.now()), outcome="refused", detail=verdict.reason
            )
        return self._run(on_request=True, force=force, wait_s=wait_s)

    def _finish(self, record: DreamRecord) -> DreamRecord:
        self.scheduler.finish_dream(record)
        return record

    def _run(self, *, on_request: bool, force: bool, wait_s: float) -> DreamRecord:
        at = iso(self.scheduler.now())
        with dream_lock(self.state_dir) as locked:
            if not locked:
                return DreamRecord(at=at, outcome="busy", detail="another dream is running")
            with self.arbiter.dream_turn(wait_s=wait_s) as slot:
                if not slot:
                    return DreamRecord(at=at, outcome="busy", detail="the owner's turn goes first")
                # Re-check under the lock: the budget may have moved while we waited.
                verdict = self.scheduler.verdict(on_request=on_request, force=force)
                if not verdict.due:
                    return DreamRecord(at=at, outcome="refused", detail=verdict.reason)
                return self._dream(at, record_skip=on_request)

    def _held_back(self, pending: list[PendingLearning]) -> set[int]:
        """The learnings the owner corrected, by word or by rule: never offered, never promoted."""
        rules = list(self.sources.owner_rules()) if pending else []
        return {
            p.id
            for p in pending
            if self.corrections.is_corrected(p)
            or any(rule_contradicts(rule, p.observation) for rule in rules)
        }

    def _dream(self, at: str, *, record_skip: bool = True) -> DreamRecord:
        pending = list(self.sources.pending(self.limits.max_learnings))
        corrected = self._held_back(pending)
        offered_list = [p for p in pending if p.id not in corrected]
        if not offered_list:  # skip before reading the tree or the window: no fork, no spend
            skipped = DreamRecord(at=at, outcome="skipped", detail=_nothing_detail(len(corrected)))
            return self._finish(skipped) if record_skip else skipped
        directive = build_dream_directive(
            offered_list,
            full=self.sources.full_collections(),
            recent=self.sources.recent(self.limits.recent_messages),
            withheld=[p.observation for p in pending if p.id in corrected],
            limits=self.limits,
        )
        if not directive:
            return self._finish(
                DreamRecord(at=at, outcome="skipped", detail=_nothing_detail(len(corrected)))
            )
        n = self.scheduler.begin_dream()
        unit = dream_unit(n)
        log.info(
            "%s: %d learning(s) offered, %d held back", unit, len(offered_list), len(corrected)
        )
        turn = self.spawn(unit, directive, self.limits.deadline_s)
        if turn.failed:
            self.audit(
                {
                    "unit": unit,
                    "op": "dream",
                    "action": "refused",
                    "reason_code": "worker_failed",
                    "reason": turn.failed[:200],
                    "target": "",
                }
            )
            return self._finish(DreamRecord(at=at, outcome="failed", detail=turn.failed[:200], n=n))
        application = apply_dream(
            turn.ops,
            unit=unit,
            offered={p.id: p for p in pending},  # corrected ones are known, never promotable
            corrected=corrected,
            memory=self.memory,
            history=self.history,
            audit=self.audit,
            provenance=self.provenance,
            limits=self.limits,
        )
        self._prune_corrected(unit, corrected, application)
        return self._finish(
            DreamRecord(
                at=at,
                outcome="stopped" if application.stopped else "done",
                detail=application.stopped or f"{len(turn.ops)} op(s) proposed",
                n=n,
                written=application.written,
                promoted=application.promoted,
                pruned=application.pruned,
                refused=application.refused,
                note=one_line(turn.reply, self.limits.max_note_chars),
            )
        )

    def _prune_corrected(
        self, unit: str, corrected: set[int], application: DreamApplication
    ) -> None:
        """Corrected learnings are pruned by core itself, inside the same unit (undo reverts it)."""
        for learning_id in sorted(corrected):
            if not self.history.resolve_learning(learning_id, "pruned"):
                continue
            outcome = OpOutcome(
                -1,
                "resolve_learning",
                "resolved",
                "pruned",
                f"learning {learning_id} pruned: the owner corrected it",
                f"learning:{learning_id}:pruned",
            )
            application.outcomes.append(outcome)
            self.audit(
                {
                    "unit": unit,
                    "op": "resolve_learning",
                    "action": "resolved",
                    "reason_code": "owner_corrected",
                    "reason": outcome.reason,
                    "target": outcome.target,
                }
            )
