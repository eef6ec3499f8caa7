"""Check-ins: every gate (disabled, /quiet, quiet hours, silence, cooldown, unread, budget,
battery) with a fake clock, a real scheduler and real stores; the offline brain's check-in text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.contracts import wire
from shelldon.contracts.config import ProactiveConfig, SchedulerConfig
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import checkins
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive.checkins import end_of_next_quiet, in_quiet_hours, run_checkin
from shelldon.core.proactive.scheduler import Scheduler
from shelldon.core.runner import TurnGate
from shelldon.worker.prompt import MemoryItem, MemorySelection, PromptContext, assemble_prompt
from support.proactive import ZONE, FakeClock, open_store

# Thursday 7 May 2026, 11:00 in Lisbon; the owner last spoke on Monday at 10:00.
NOW = datetime(2026, 5, 7, 10, 0, tzinfo=UTC)
LAST_OWNER = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@dataclass
class Brain:
    """What the check-in's worker would return; records what it was asked."""

    reply: str = "Hi! How is Ana?"
    asked: list[tuple[str, str]] = field(default_factory=list)

    def __call__(self, turn_id: str, note: str) -> wire.TurnResult | wire.TurnFailed:
        self.asked.append((turn_id, note))
        return wire.TurnResult(turn_id=turn_id, reply=self.reply, provider="test")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    s = open_store(tmp_path)
    s.record_turn("t0", "my sister is called Ana", "Nice!", LAST_OWNER)
    yield s
    s.close()


@pytest.fixture
def power(tmp_path: Path) -> Path:
    root = tmp_path / "power_supply"
    root.mkdir()
    return root


def scheduler(
    store: HistoryStore, tmp_path: Path, fake: FakeClock, power: Path, **overrides: int
) -> Scheduler:
    config = SchedulerConfig(power_supply_root=str(power), **overrides)  # type: ignore[arg-type]
    return Scheduler(tmp_path / "state", config, turns=store, clock=lambda: fake.wall)


def attempt(
    store: HistoryStore,
    sched: Scheduler | None,
    fake: FakeClock,
    brain: Brain,
    config: ProactiveConfig | None = None,
) -> checkins.CheckinOutcome:
    return run_checkin(
        history=store,
        config=config or ProactiveConfig(),
        scheduler=sched,
        gate=TurnGate(),
        spawn=brain,
        now=lambda: fake.wall,
    )


def test_after_two_days_of_silence_the_pet_checks_in(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake, brain = FakeClock(NOW), Brain()
    sched = scheduler(store, tmp_path, fake, power)
    outcome = attempt(store, sched, fake, brain)
    assert outcome.outcome == "queued"
    [item] = proactive_queue.pending(store)
    assert (item.kind, item.text) == ("checkin", "Hi! How is Ana?")
    assert brain.asked == [("checkin-20260507T100000", "The owner last wrote 3 days ago.")]
    assert sched.budget_left() == 60 - 1  # charged to the day's budget


def test_not_before_the_silence_is_long_enough(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake, brain = FakeClock(LAST_OWNER + timedelta(hours=47)), Brain()
    outcome = attempt(store, scheduler(store, tmp_path, fake, power), fake, brain)
    assert outcome.outcome == "skipped" and "owner active 47h ago" in outcome.detail
    assert brain.asked == []


def test_never_during_quiet_hours_in_the_owners_zone(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake, brain = FakeClock(datetime(2026, 5, 7, 21, 30, tzinfo=UTC)), Brain()  # 22:30 Lisbon
    sched = scheduler(store, tmp_path, fake, power)
    assert attempt(store, sched, fake, brain).detail == f"quiet hours in {ZONE}"
    fake.wall = datetime(2026, 5, 8, 6, 59, tzinfo=UTC)  # 07:59 Lisbon: still quiet
    assert attempt(store, sched, fake, brain).outcome == "skipped"
    fake.wall = datetime(2026, 5, 8, 7, 0, tzinfo=UTC)  # 08:00 Lisbon
    assert attempt(store, sched, fake, brain).outcome == "queued"


def test_the_cooldown_and_an_unread_check_in_hold_the_next_one(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake, brain = FakeClock(NOW), Brain()
    sched = scheduler(store, tmp_path, fake, power)
    assert attempt(store, sched, fake, brain).outcome == "queued"
    fake.advance(hours=47)
    assert "last check-in 47h ago" in attempt(store, sched, fake, brain).detail
    fake.advance(hours=2)
    assert attempt(store, sched, fake, brain).detail == "the last check-in has not been read yet"
    [item] = proactive_queue.pending(store)
    proactive_queue.delivered(store, (item.id,), "terminal", fake.wall)
    assert attempt(store, sched, fake, brain).outcome == "queued"
    assert len(brain.asked) == 2


def test_quiet_command_pauses_check_ins(store: HistoryStore, tmp_path: Path, power: Path) -> None:
    fake, brain = FakeClock(NOW), Brain()
    until = end_of_next_quiet(NOW, ZONE, time(22, 0), time(8, 0))
    assert until == datetime(2026, 5, 8, 7, 0, tzinfo=UTC)  # tomorrow 08:00 in Lisbon
    checkins.set_quiet(store, until, NOW)
    sched = scheduler(store, tmp_path, fake, power)
    assert attempt(store, sched, fake, brain).detail.startswith("paused by /quiet until")
    fake.wall = until
    assert attempt(store, sched, fake, brain).outcome == "queued"


def test_disabled_means_never(store: HistoryStore, tmp_path: Path, power: Path) -> None:
    fake, brain = FakeClock(NOW), Brain()
    off = ProactiveConfig(enabled=False)
    outcome = attempt(store, scheduler(store, tmp_path, fake, power), fake, brain, off)
    assert outcome.outcome == "skipped" and "enabled = false" in outcome.detail
    assert brain.asked == []


def test_the_budget_shared_with_the_dream_is_respected(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake, brain = FakeClock(NOW), Brain()
    sched = scheduler(store, tmp_path, fake, power, daily_budget=3)
    sched.charge(3)  # a dream and a check-in earlier today spent the day's budget
    outcome = attempt(store, sched, fake, brain)
    assert outcome.outcome == "skipped" and outcome.detail.startswith("daily budget spent")
    assert brain.asked == []


def test_a_low_discharging_battery_holds_it(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    bat = power / "BAT0"
    bat.mkdir()
    for name, value in (("type", "Battery"), ("capacity", "9"), ("status", "Discharging")):
        (bat / name).write_text(value + "\n")
    fake, brain = FakeClock(NOW), Brain()
    outcome = attempt(store, scheduler(store, tmp_path, fake, power), fake, brain)
    assert outcome.outcome == "skipped" and "battery 9%" in outcome.detail


def test_without_a_scheduler_nothing_spends(store: HistoryStore) -> None:
    fake, brain = FakeClock(NOW), Brain()
    assert attempt(store, None, fake, brain).outcome == "skipped"
    assert brain.asked == []


def test_a_failed_or_empty_check_in_queues_nothing(
    store: HistoryStore, tmp_path: Path, power: Path
) -> None:
    fake = FakeClock(NOW)
    empty = attempt(store, scheduler(store, tmp_path, fake, power), fake, Brain(reply="   "))
    assert empty.outcome == "empty" and proactive_queue.pending(store) == []


@pytest.mark.parametrize(
    ("stage", "reason"),
    [
        ("spawn", "fork-server unreachable"),
        # the broker not up yet at the pet's start: the worker ran, no brain did
        ("unreached", "broker: FileNotFoundError: [Errno 2] No such file or directory"),
    ],
)
def test_a_worker_that_never_started_costs_nothing_and_keeps_no_cooldown(
    store: HistoryStore, tmp_path: Path, power: Path, stage: wire.TurnFailStage, reason: str
) -> None:
    fake = FakeClock(NOW)
    sched = scheduler(store, tmp_path, fake, power)

    def no_forkserver(turn_id: str, note: str) -> wire.TurnFailed:
        return wire.TurnFailed(turn_id=turn_id, stage=stage, reason=reason)

    outcome = run_checkin(
        history=store,
        config=ProactiveConfig(),
        scheduler=sched,
        gate=TurnGate(),
        spawn=no_forkserver,
        now=lambda: fake.wall,
    )
    assert outcome.outcome == "not_started"
    assert sched.budget_left() == 60 and store.setting(checkins.LAST_CHECKIN_SETTING) is None
    assert attempt(store, sched, fake, Brain()).outcome == "queued"  # asked again: no cooldown


@pytest.mark.parametrize(
    ("hour", "minute", "quiet"),
    [(21, 59, False), (22, 0, True), (23, 59, True), (0, 0, True), (7, 59, True), (8, 0, False)],
)
def test_quiet_hours_cross_midnight(hour: int, minute: int, quiet: bool) -> None:
    moment = datetime(2026, 5, 7, hour, minute)
    assert in_quiet_hours(moment, time(22, 0), time(8, 0)) is quiet
    assert in_quiet_hours(moment, time(13, 0), time(14, 0)) is (hour == 13)
    assert not in_quiet_hours(moment, time(8, 0), time(8, 0))  # equal ends: no quiet hours


def test_quiet_inside_the_quiet_hours_pauses_until_this_morning() -> None:
    at_night = datetime(2026, 5, 7, 23, 30, tzinfo=UTC)  # 00:30 Friday in Lisbon
    assert end_of_next_quiet(at_night, ZONE, time(22, 0), time(8, 0)) == datetime(
        2026, 5, 8, 7, 0, tzinfo=UTC
    )


# --- the offline brain's check-in ---------------------------------------------------------------


def checkin_prompt(*items: MemoryItem) -> str:
    ctx = PromptContext(memory=MemorySelection(full=items), now=NOW, zone=ZONE)
    request = assemble_prompt(ctx, "", purpose="checkin", dream_directive="quiet for 3 days")
    # The check-in's instruction comes last, after the clock (the model answers what it read last).
    kinds = ["system", "memory", "time", "checkin"] if items else ["system", "time", "checkin"]
    assert [s.kind for s in request.sections] == kinds
    raw = OfflineBrain().complete(request).text
    import json

    reply = json.loads(raw)
    assert reply["ops"] == []
    return str(reply["reply"])


def test_the_offline_check_in_asks_after_a_person_first() -> None:
    ana = MemoryItem("sister", "people", "The owner's sister is called Ana.")
    tea = MemoryItem("green tea", "preferences", "The owner likes green tea.")
    text = checkin_prompt(tea, ana)
    assert text == "Hi! It's been a little while. How is Ana, your sister?"
    assert checkin_prompt(tea, ana) == text  # deterministic


def test_the_offline_check_in_falls_back_to_a_liking_a_fact_and_a_hello() -> None:
    tea = MemoryItem("green tea", "preferences", "The owner likes green tea.")
    assert "time for green tea lately?" in checkin_prompt(tea)
    home = MemoryItem("home", "facts", "The owner lives in Porto.")
    assert checkin_prompt(home) == (
        "Hi! It's been a little while. I was thinking of what you told me: you live in Porto. "
        "How are things?"
    )
    assert checkin_prompt() == "Hi! It's been a little while. How are you doing?"
