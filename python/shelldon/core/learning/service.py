"""The pet's reflection: after a turn of real work, a bounded look back that may keep a few facts.

A turn did real work when it was a long exchange, when the owner corrected the pet, or when an
action ran (a reminder set, an entry written or forgotten; a reminder that fired since the last
reflection counts too). For such a turn `after_turn` queues a digest (core builds it: the
request, the actions as commands with how they ended, the reply as the report, the entries memory
holds); a thread reflects on each, through the broker like the dream (a worker with purpose
"reflect"; the offline brain answers by rules, contracts.digest carries the format):

- only when the owner is idle: the owner has said nothing for `idle_after_s` (120 s by default;
  SHELLDON_REFLECT_IDLE for tests), so a reflection does not hold the slot while the owner is
  typing the next message; then it takes the one worker slot as the pet's own turn (core.runner's
  TurnGate: behind every owner turn in flight or queued), and releases it between attempts, so an
  owner message that arrives meanwhile goes first;
- it costs the scheduler's budget (`reflect_cost`, charged before the worker is asked, given back
  when no worker started) and waits for a battery that is not low;
- each attempt is bounded: 30 s and 1,500 output tokens; at most three attempts; at most five
  facts, each through the gate (core.learning.reflection: `observed` when it cites an action the pet
  saw run, marked unverified when an action the turn ran was refused), one audit unit
  (`reflect-<turn>`) for all of it; a procedure key proven in two verified turns becomes a
  gated `capabilities/` entry (core.learning.skills).

A digest waits in memory only: a reflection lost to a restart is a fact not learnt, never a
wrong one.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import msgspec

from shelldon.clock import Clock, utc_now
from shelldon.contracts import wire
from shelldon.contracts.digest import (
    REFLECT_DEADLINE_S,
    REFLECT_MAX_ATTEMPTS,
    CommandRun,
    Digest,
    facts_from_ops,
    render_digest,
)
from shelldon.core.gate import records
from shelldon.core.history.store import HistoryStore
from shelldon.core.learning.corrections import detect_correction
from shelldon.core.learning.reflection import Reflection, apply_reflection, existing_titles
from shelldon.core.learning.skills import SkillBook
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.outcome import OpVerdict, TurnOutcome
from shelldon.core.proactive import reminders
from shelldon.core.proactive.scheduler import Scheduler
from shelldon.core.runner import TurnGate
from shelldon.paths import PROCEDURES_LEDGER

log = logging.getLogger(__name__)

IDLE_ENV = "SHELLDON_REFLECT_IDLE"
DEFAULT_IDLE_AFTER_S = 120.0  # the owner's silence before a reflection may take the slot
LONG_EXCHANGE_CHARS = 600  # the owner's message and the reply together
MAX_QUEUED = 4  # digests waiting; older ones give way (a fact not learnt, never a wrong one)
NOT_STARTED_STAGES = wire.NOT_STARTED_STAGES  # no brain ran
_ACTIONS = ("remember", "remind", "forget")
_DONE = ("create", "update", "created", "captured", "delete", "deleted")

SpawnReflect = Callable[[str, str, float], wire.TurnResult | wire.TurnFailed]
"""(turn_id, rendered digest, deadline_s) -> one worker's outcome, purpose "reflect"."""


def _command(verdict: OpVerdict) -> CommandRun:
    target = f" {verdict.target}" if verdict.target else ""
    ok = verdict.action in _DONE
    return CommandRun(
        command=f"{verdict.op}{target}",
        exit_code=0 if ok else 1,
        output_tail="" if ok else f"{verdict.reason_code}: {verdict.reason}"[:200],
    )


def turn_digest(
    message: str,
    outcome: TurnOutcome,
    *,
    fired: list[reminders.Reminder] | None = None,
) -> Digest | None:
    """The digest of an owner turn that did real work; None for one that did not."""
    actions = [v for v in outcome.verdicts if v.op in _ACTIONS]
    ran = [_command(v) for v in actions if v.action not in ("skip",)]
    ran += [CommandRun(command=f"reminder fired: {r.text}", exit_code=0) for r in (fired or [])]
    long_exchange = len(message) + len(outcome.reply) >= LONG_EXCHANGE_CHARS
    corrected = detect_correction(message)
    if not (ran or long_exchange or corrected) or not outcome.recorded or outcome.degraded:
        return None
    refused = any(c.exit_code for c in ran)
    return Digest(
        request=records.blank_record(message)[:2000],
        commands=tuple(ran[-20:]),
        report=records.blank_record(outcome.reply)[:2000],
        # An action refused: unverified. Every action done: verified. No action: not said.
        verified=(not refused) if ran else None,
    )


@dataclass(frozen=True)
class ReflectRecord:
    turn_id: str
    outcome: str  # done | failed | refused | not_started
    detail: str = ""
    reflection: Reflection | None = None


class ReflectService:
    """Queues digests after owner turns and reflects on them one by one, on its own thread."""

    def __init__(
        self,
        *,
        memory: CuratedMemory,
        history: HistoryStore,
        gate: TurnGate,
        spawn: SpawnReflect,
        scheduler: Scheduler | None,
        skills: SkillBook,
        cost: int = 1,
        clock: Clock = utc_now,
        idle_after_s: float | None = None,
    ) -> None:
        self.memory = memory
        self.history = history
        self.gate = gate
        self.spawn = spawn
        self.scheduler = scheduler
        self.skills = skills
        self.cost = cost
        self.clock = clock
        self._queue: collections.deque[tuple[str, Digest]] = collections.deque(maxlen=MAX_QUEUED)
        self._cond = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._since: datetime = clock()  # reminders fired after this are in the next digest
        self.idle_after_s = idle_after_s if idle_after_s is not None else idle_after()
        self._owner_at = time.monotonic()  # the owner's last turn (monotonic: idleness only)
        self.last: ReflectRecord | None = None

    def after_turn(self, turn_id: str, message: str, outcome: TurnOutcome) -> bool:
        """Queue a reflection when the turn did real work. Never raises; True when queued."""
        with self._cond:
            self._owner_at = time.monotonic()  # every owner turn restarts the idle wait
        try:
            now = self.clock()
            fired = reminders.fired_since(self.history, self._since)
            digest = turn_digest(message, outcome, fired=fired)
            if digest is None:
                return False
            self._since = now
        except Exception:
            log.exception("turn %s: no reflection (the digest failed)", turn_id)
            return False
        with self._cond:
            self._queue.append((turn_id, digest))
            self._cond.notify_all()
        return True

    def run_one(self) -> ReflectRecord | None:
        """Reflect on the oldest queued digest (None: the queue is empty)."""
        with self._cond:
            if not self._queue:
                return None
            turn_id, digest = self._queue.popleft()
        record = self.reflect(turn_id, digest)
        self.last = record
        log.info("reflection for %s: %s (%s)", turn_id, record.outcome, record.detail)
        return record

    def reflect(self, turn_id: str, digest: Digest) -> ReflectRecord:
        if self.scheduler is not None:
            verdict = self.scheduler.proactive_verdict(self.cost)
            if not verdict.due:
                return ReflectRecord(turn_id, "refused", verdict.reason)
            self.scheduler.charge(self.cost)
        shown = msgspec.structs.replace(digest, existing=existing_titles(self.memory))
        text = render_digest(shown)
        detail = ""
        for attempt in range(1, REFLECT_MAX_ATTEMPTS + 1):
            self.gate.acquire("reflect")  # behind every owner turn, in flight or queued
            try:
                outcome = self.spawn(f"reflect-{turn_id}-{attempt}", text, REFLECT_DEADLINE_S)
            finally:
                self.gate.release()  # an owner message goes before the next attempt
            if isinstance(outcome, wire.TurnFailed):
                detail = f"{outcome.stage}: {outcome.reason}"[:200]
                if outcome.stage in NOT_STARTED_STAGES:
                    if self.scheduler is not None:
                        self.scheduler.charge(-self.cost)  # nothing ran: nothing spent
                    return ReflectRecord(turn_id, "not_started", detail)
                continue
            facts, dropped = facts_from_ops(outcome.ops)
            if dropped:
                log.info("reflection %s dropped: %s", turn_id, "; ".join(dropped))
            if not facts and outcome.ops:
                detail = "no usable fact in the answer"
                continue
            reflection = apply_reflection(
                self.memory, digest, facts, unit=f"reflect-{turn_id}", skills=self.skills
            )
            return ReflectRecord(
                turn_id, "done", f"{reflection.kept} of {len(facts)} kept", reflection
            )
        return ReflectRecord(turn_id, "failed", detail or "no answer")

    # -- the thread

    def idle_left(self) -> float:
        """Seconds of the owner's silence still to wait before a reflection may start."""
        return max(0.0, self.idle_after_s - (time.monotonic() - self._owner_at))

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="reflect", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stop or bool(self._queue))
                while not self._stop:  # the owner's silence first (after_turn restarts it)
                    left = self.idle_left()
                    if left <= 0:
                        break
                    self._cond.wait(timeout=left)
                if self._stop:
                    return
            try:
                self.run_one()
            except Exception:
                log.exception("reflection failed; the next one tries again")


def idle_after() -> float:
    """SHELLDON_REFLECT_IDLE (seconds; tests), else DEFAULT_IDLE_AFTER_S."""
    raw = os.environ.get(IDLE_ENV, "")
    try:
        value = float(raw) if raw else DEFAULT_IDLE_AFTER_S
    except ValueError:
        log.error("%s=%r is not a number; using %.0f s", IDLE_ENV, raw, DEFAULT_IDLE_AFTER_S)
        return DEFAULT_IDLE_AFTER_S
    return max(0.0, value)


def pet_skills(memory: CuratedMemory, state_dir: Path) -> SkillBook:
    """The pet's skills ledger (state/procedures.jsonl), promoting into capabilities/."""
    return SkillBook(state_dir / PROCEDURES_LEDGER, memory)
