"""The pet's reflection (core.learning.service) on real stores: which turns did real work, the
digest core builds (a fired reminder is an action it saw run), the offline brain's answer through
the same parse the broker applies, the budget, the three attempts, and the one worker slot."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.protocol import parse_reply
from shelldon.contracts import wire
from shelldon.contracts.config import SchedulerConfig
from shelldon.contracts.digest import (
    REFLECT_DEADLINE_S,
    CommandRun,
    Digest,
    ProposedFact,
    digest_of_section,
    reflect_request,
)
from shelldon.contracts.ops import Remind
from shelldon.core.history.store import HistoryStore
from shelldon.core.learning.reflection import apply_reflection
from shelldon.core.learning.service import ReflectService, pet_skills, turn_digest
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.outcome import OpVerdict, TurnOutcome
from shelldon.core.proactive import reminders
from shelldon.core.proactive.scheduler import Scheduler
from shelldon.core.runner import TurnGate
from support.proactive import T0, FakeClock, open_store


def outcome(reply: str = "Done.", *verdicts: OpVerdict) -> TurnOutcome:
    return TurnOutcome("t1", reply, False, "ok", True, tuple(verdicts))


REMIND = OpVerdict(0, "remind", "created", "reminder", "reminder set", "reminders/1")


def test_small_talk_is_not_real_work_and_actions_corrections_long_talks_are() -> None:
    assert turn_digest("hi", outcome("Hello!")) is None
    acted = turn_digest("remind me to water the plants at 6", outcome("Will do.", REMIND))
    assert acted is not None and acted.verified is True
    assert [(c.command, c.exit_code) for c in acted.commands] == [("remind reminders/1", 0)]
    corrected = turn_digest("no, that's wrong: my sister is Ana", outcome("Sorry!"))
    assert corrected is not None and corrected.verified is None and corrected.commands == ()
    long = turn_digest("tell me about the trip " * 30, outcome("It went well."))
    assert long is not None
    refused = OpVerdict(1, "remember", "reject", "secret", "looks like a credential")
    mixed = turn_digest("remember my key and remind me", outcome("Ok.", REMIND, refused))
    assert mixed is not None and mixed.verified is False  # an action refused: unverified
    degraded = TurnOutcome("t1", "sorry", True, "degraded", True, (REMIND,))
    assert turn_digest("remind me", degraded) is None


def offline_spawn(calls: list[str]) -> object:
    brain = OfflineBrain()

    def spawn(turn_id: str, text: str, deadline_s: float) -> wire.TurnResult | wire.TurnFailed:
        assert deadline_s == REFLECT_DEADLINE_S
        calls.append(turn_id)
        raw = brain.complete(reflect_request(text))
        reply = parse_reply(raw.text, provider="offline")
        return wire.TurnResult(turn_id=turn_id, reply=reply.text, ops=reply.ops)

    return spawn


@dataclass
class Pet:
    memory: CuratedMemory
    history: HistoryStore
    scheduler: Scheduler
    fake: FakeClock
    state: Path
    gate: TurnGate = field(default_factory=TurnGate)

    def service(self, spawn: object, idle_after_s: float = 0.0) -> ReflectService:
        return ReflectService(
            memory=self.memory,
            history=self.history,
            gate=self.gate,
            spawn=spawn,  # type: ignore[arg-type]
            scheduler=self.scheduler,
            skills=pet_skills(self.memory, self.state),
            clock=lambda: self.fake.wall,
            idle_after_s=idle_after_s,
        )


@pytest.fixture
def pet(tmp_path: Path) -> Iterator[Pet]:
    fake = FakeClock()
    history = open_store(tmp_path)
    power = tmp_path / "power_supply"
    power.mkdir()
    config = SchedulerConfig(power_supply_root=str(power), daily_budget=10)
    state = tmp_path / "state"
    scheduler = Scheduler(state, config, turns=history, clock=lambda: fake.wall)
    yield Pet(CuratedMemory(tmp_path / "memory"), history, scheduler, fake, state)
    history.close()


def test_a_fired_reminder_is_reflected_on_and_the_offline_brain_keeps_nothing(pet: Pet) -> None:
    service = pet.service(offline_spawn(calls := []))
    reminders.Book(pet.history, pet.fake.clocks).add_op(
        Remind(text="take the blue pills", in_seconds=60), now=T0
    )
    pet.fake.advance(minutes=2)
    assert len(reminders.fire_due(pet.history, pet.fake.clocks)) == 1
    pet.fake.advance(minutes=1)
    spent = pet.scheduler.state.spent
    assert service.after_turn("t9", "did you remind me? " * 40, outcome("I did, at 14:01."))
    record = service.run_one()
    assert record is not None and record.outcome == "done", record
    assert calls == ["reflect-t9-1"]
    assert pet.scheduler.state.spent == spent + 1  # the budget pays for it
    # The offline reflection keeps nothing from the pet's own actions (broker.offline_reflect):
    # the reminder book already holds it.
    assert record.reflection is not None and record.reflection.verdicts == ()
    assert pet.memory.entries() == []
    # Fired once, shown once: the next digest starts after it.
    assert not service.after_turn("t10", "thanks", outcome("Any time."))


def test_the_digest_carries_what_memory_holds(pet: Pet) -> None:
    seen: list[str] = []

    def spawn(turn_id: str, text: str, deadline_s: float) -> wire.TurnResult:
        seen.append(text)
        return wire.TurnResult(turn_id=turn_id, reply="nothing", ops=())

    service = pet.service(spawn)
    service.after_turn("t1", "remind me at 6", outcome("Ok.", REMIND))
    assert service.run_one() is not None
    digest = digest_of_section(seen[0])
    assert digest is not None and digest.request == "remind me at 6"
    assert digest.report == "Ok." and digest.commands[0].command == "remind reminders/1"


def test_three_attempts_at_most_and_a_worker_that_never_started_costs_nothing(pet: Pet) -> None:
    asked: list[str] = []

    def failing(turn_id: str, text: str, deadline_s: float) -> wire.TurnFailed:
        asked.append(turn_id)
        return wire.TurnFailed(turn_id=turn_id, stage="timeout", reason="30 s passed")

    service = pet.service(failing)
    service.after_turn("t1", "remind me", outcome("Ok.", REMIND))
    spent = pet.scheduler.state.spent
    record = service.run_one()
    assert record is not None and record.outcome == "failed"
    assert asked == ["reflect-t1-1", "reflect-t1-2", "reflect-t1-3"]
    assert pet.scheduler.state.spent == spent + 1

    def busy(turn_id: str, text: str, deadline_s: float) -> wire.TurnFailed:
        return wire.TurnFailed(turn_id=turn_id, stage="spawn", reason="no fork-server")

    service = pet.service(busy)
    service.after_turn("t2", "remind me", outcome("Ok.", REMIND))
    record = service.run_one()
    assert record is not None and record.outcome == "not_started"
    assert pet.scheduler.state.spent == spent + 1  # charged, then given back


def test_no_budget_no_reflection(pet: Pet) -> None:
    pet.scheduler.charge(10)
    service = pet.service(offline_spawn(calls := []))
    service.after_turn("t1", "remind me", outcome("Ok.", REMIND))
    record = service.run_one()
    assert record is not None and record.outcome == "refused" and calls == []


def test_the_reflection_waits_behind_an_owner_turn(pet: Pet) -> None:
    order: list[str] = []
    spawned = threading.Event()

    def spawn(turn_id: str, text: str, deadline_s: float) -> wire.TurnResult:
        order.append("reflect")
        spawned.set()
        return wire.TurnResult(turn_id=turn_id, reply="nothing", ops=())

    service = pet.service(spawn)
    service.after_turn("t1", "remind me", outcome("Ok.", REMIND))
    pet.gate.acquire("turn")  # the owner's turn is in flight
    worker = threading.Thread(target=service.run_one)
    worker.start()
    order.append("owner")  # still the owner's: the reflection cannot have the slot
    pet.gate.release()
    assert spawned.wait(timeout=30)
    worker.join(timeout=30)
    assert order == ["owner", "reflect"]


def test_a_procedure_proven_in_two_verified_turns_becomes_a_capability(pet: Pet) -> None:
    # The facts come as a digest carries them; the skills ledger is the pet's (state/).
    service = pet.service(offline_spawn([]))
    content = "To water the plants, remind the owner at 18:00 and ask about the ferns."
    for n in (1, 2):
        digest = Digest(
            request=f"water the plants, day {n}",
            commands=(CommandRun(command="remind reminders/7", exit_code=0),),
            verified=True,
        )
        fact = ProposedFact(
            name="plant watering",
            content=content,
            observed_from="remind reminders/7",
            procedure="plant watering",
        )
        reflection = apply_reflection(
            pet.memory, digest, [fact], unit=f"reflect-t{n}", skills=service.skills
        )
    assert reflection.promoted == ("plant-watering -> capabilities/plant-watering",)
    cap = pet.memory.root / "capabilities" / "plant-watering.md"
    text = cap.read_text()
    assert '"skill"' in text and "provenance: observed" in text and content in text
    assert (pet.state / "procedures.jsonl").exists()


def test_the_thread_waits_for_the_owners_silence_then_reflects(pet: Pet) -> None:
    waiting = pet.service(offline_spawn([]), idle_after_s=3600)
    waiting.after_turn("t0", "hi", outcome("Hello!"))  # no real work, but the owner spoke
    assert 3500 < waiting.idle_left() <= 3600
    assert pet.service(offline_spawn([]), idle_after_s=0).idle_left() == 0.0

    done = threading.Event()
    calls: list[str] = []
    spawn = offline_spawn(calls)

    def spawn_and_tell(turn_id: str, text: str, deadline_s: float) -> object:
        try:
            return spawn(turn_id, text, deadline_s)  # type: ignore[operator]
        finally:
            done.set()

    service = pet.service(spawn_and_tell, idle_after_s=0)
    service.start()
    try:
        assert service.after_turn("t1", "remind me to stretch", outcome("Ok.", REMIND))
        assert done.wait(timeout=30)
    finally:
        service.stop()
    assert calls == ["reflect-t1-1"]
    assert service.last is not None and service.last.outcome == "done"
