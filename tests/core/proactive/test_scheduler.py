"""The scheduler: budget, idle cadence, cooldown, battery, persistence, owner-first arbitration."""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.contracts.config import SchedulerConfig
from shelldon.core.history.store import HistoryStore, TurnUsage
from shelldon.core.proactive.scheduler import DreamRecord, Scheduler, read_power

T0 = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def supply(root: Path, name: str, **files: str) -> None:
    d = root / name
    d.mkdir(parents=True)
    for key, value in files.items():
        (d / key).write_text(value + "\n")


@pytest.fixture
def mains(tmp_path: Path) -> Path:
    root = tmp_path / "power_supply"
    root.mkdir()
    return root


@pytest.fixture
def history(tmp_path: Path) -> Iterator[HistoryStore]:
    store = HistoryStore.open(tmp_path / "history.db")
    yield store
    store.close()


_TURN_IDS = itertools.count(1)


def owner_turn(history: HistoryStore, clock: Clock, provider: str | None = None) -> None:
    """One owner turn, stored the way core stores it: the budget reads it from there. With a
    provider, its usage row too (core.turn.apply records the one that answered)."""
    usage = TurnUsage(provider, 10, 5) if provider is not None else None
    history.journal_turn(f"t{next(_TURN_IDS)}", "hello", "hi", clock(), usage=usage)


def test_offline_turns_spend_no_model_budget(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    """A chatty day on the offline brain leaves that night's dream its room (it spent 78/60)."""
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=10)
    for _ in range(30):
        owner_turn(history, clock, provider="offline")
    assert sched.budget_left() == 10
    owner_turn(history, clock, provider="openai")
    owner_turn(history, clock)  # a failed turn, no usage: counted (it may have cost a call)
    assert sched.budget_left() == 8


def make(
    tmp_path: Path, clock: Clock, power: Path, history: HistoryStore, **overrides: object
) -> Scheduler:
    config = SchedulerConfig(power_supply_root=str(power), **overrides)  # type: ignore[arg-type]
    return Scheduler(tmp_path / "state", config, turns=history, clock=clock)


# --- power


def test_no_power_supply_directory_means_mains(tmp_path: Path) -> None:
    status = read_power(tmp_path / "absent")
    assert not status.has_battery and not status.too_low(20)


def test_low_discharging_battery_is_too_low(mains: Path) -> None:
    supply(mains, "BAT0", type="Battery", capacity="12", status="Discharging")
    status = read_power(mains)
    assert status.has_battery and status.discharging and status.percent == 12
    assert status.too_low(20)
    assert not status.too_low(10)


@pytest.mark.parametrize(
    ("files", "extra"),
    [
        ({"capacity": "12", "status": "Charging"}, None),
        ({"capacity": "80", "status": "Discharging"}, None),
        ({"capacity": "12", "status": "Discharging"}, ("AC", {"type": "Mains", "online": "1"})),
        ({"capacity": "garbage", "status": "Discharging"}, None),
        ({"capacity": "5", "status": "Discharging", "present": "0"}, None),
    ],
)
def test_battery_states_that_allow_a_dream(
    mains: Path, files: dict[str, str], extra: tuple[str, dict[str, str]] | None
) -> None:
    supply(mains, "BAT0", type="Battery", **files)
    if extra:
        supply(mains, extra[0], **extra[1])
    assert not read_power(mains).too_low(20)


# --- budget, cadence, cooldown


def test_owner_turns_count_and_a_dream_needs_three(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=5, idle_after_hours=0)
    for _ in range(2):
        owner_turn(history, clock)
    assert sched.budget_left() == 3
    assert sched.verdict().due
    owner_turn(history, clock)  # owner turns are never refused, even when they eat the dream's room
    verdict = sched.verdict(on_request=True)
    assert not verdict.due and verdict.code == "budget"
    assert sched.verdict(force=True).due
    # The budget is per UTC day.
    clock.advance(days=1)
    assert sched.budget_left() == 5 and sched.verdict().due


def test_dream_cost_is_charged_once_the_dream_begins(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    sched = make(tmp_path, Clock(), mains, history, daily_budget=7)
    assert sched.begin_dream() == 1
    assert sched.budget_left() == 4
    assert sched.begin_dream() == 2
    assert sched.budget_left() == 1
    assert sched.verdict(force=False, on_request=True).code == "budget"


def test_idle_cadence_waits_for_owner_silence(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, history)
    owner_turn(history, clock)
    clock.advance(hours=5, minutes=59)
    verdict = sched.verdict()
    assert verdict.code == "idle" and not verdict.due
    assert sched.next_dream_at() == T0 + timedelta(hours=6)
    assert sched.verdict(on_request=True).due  # dream --now skips the idle wait
    clock.advance(minutes=1)
    assert sched.verdict().due


def test_cooldown_after_a_dream(tmp_path: Path, mains: Path, history: HistoryStore) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, cooldown_hours=4)
    sched.begin_dream()
    clock.advance(hours=3)
    assert sched.verdict().code == "cooldown"
    assert sched.verdict(on_request=True).due
    clock.advance(hours=1)
    assert sched.verdict().due


def test_battery_gate_blocks_even_a_requested_dream(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    supply(mains, "BAT0", type="Battery", capacity="15", status="Discharging")
    sched = make(tmp_path, Clock(), mains, history)
    verdict = sched.verdict(on_request=True)
    assert verdict.code == "battery" and "15%" in verdict.reason
    (mains / "BAT0" / "status").write_text("Charging\n")
    assert sched.verdict(on_request=True).due


def test_state_survives_a_restart(tmp_path: Path, mains: Path, history: HistoryStore) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=10)
    owner_turn(history, clock)
    n = sched.begin_dream()
    sched.finish_dream(DreamRecord(at="t", outcome="done", detail="ok", n=n, promoted=2))
    again = make(tmp_path, clock, mains, history, daily_budget=10)
    assert again.budget_left() == 6
    assert again.state.dreams == 1
    assert again.state.last_dream is not None and again.state.last_dream.promoted == 2
    clock.advance(hours=1)
    assert again.verdict().code in ("idle", "cooldown")
    assert again.begin_dream() == 2


def test_corrupt_state_is_kept_aside_and_core_starts_fresh(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "scheduler.json").write_text('{"version": 1, "spent": "lots"')
    clock = Clock()
    sched = make(tmp_path, clock, mains, history)
    assert sched.state.spent == 0
    assert (state / "scheduler.json.corrupt").exists()
    owner_turn(history, clock)
    assert make(tmp_path, clock, mains, history).budget_left() == 59  # of the default 60


def test_status_lines_show_budget_next_dream_and_last_outcome(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=10)
    owner_turn(history, clock)
    lines = sched.status_lines()
    assert lines[0].startswith("budget: 9/10 left today")
    assert lines[1].startswith("next dream: 2026-11-29T14:00:00Z")
    assert lines[2] == "last dream: none yet"
    n = sched.begin_dream()
    sched.finish_dream(
        DreamRecord(at="x", outcome="done", detail="4 op(s)", n=n, promoted=1, pruned=1, note="zz")
    )
    lines = sched.status_lines()
    assert "last dream: dream-1 done at x" in lines[2] and "1 promoted, 1 pruned" in lines[2]
    assert lines[3] == "dream note: zz"


def test_a_state_file_written_with_offsets_still_reads(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    # Before the one ISO shape (shelldon.clock), the state held "+00:00" times: same schedule.
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=30)
    owner_turn(history, clock)
    sched.finish_dream(DreamRecord(at="x", outcome="done", detail="", n=sched.begin_dream()))
    state_file = tmp_path / "state" / "scheduler.json"
    written = state_file.read_text()
    assert "2026-11-29T08:00:00Z" in written
    want = make(tmp_path, clock, mains, history, daily_budget=30).status_lines()
    state_file.write_text(written.replace("T08:00:00Z", "T08:00:00.000001+00:00"))
    assert make(tmp_path, clock, mains, history, daily_budget=30).status_lines() == want


def test_config_comes_from_shelldon_toml_and_bad_values_are_errors() -> None:
    from shelldon.config import ConfigError, parse_config

    config = parse_config("[scheduler]\nidle_after_hours = 2\ndaily_budget = 9\n").scheduler
    assert config.idle_after == timedelta(hours=2) and config.daily_budget == 9
    assert config.dream_cost == 3 and config.cooldown == timedelta(hours=6)
    with pytest.raises(ConfigError, match="idle_hours"):
        parse_config("[scheduler]\nidle_hours = 2\n")
    with pytest.raises(ConfigError):
        parse_config('[scheduler]\ndaily_budget = "many"\n')
    for name in ("dream_cost", "turn_cost", "daily_budget", "idle_after_hours", "cooldown_hours"):
        with pytest.raises(ConfigError, match=rf"\[scheduler\] {name} must be (0|at least 0)"):
            parse_config(f"[scheduler]\n{name} = -1\n")
    with pytest.raises(ConfigError, match=r"\[scheduler\] battery_low_percent must be 0..100"):
        parse_config("[scheduler]\nbattery_low_percent = 101\n")


def test_owner_turns_are_counted_from_history_and_never_written_to_the_state_file(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    # SD-card care and a kill alike: the turn's own commit is the only write it costs.
    clock = Clock()
    sched = make(tmp_path, clock, mains, history, daily_budget=10)
    for _ in range(3):
        owner_turn(history, clock)
    assert sched.budget_left() == 7
    assert not (tmp_path / "state" / "scheduler.json").exists()


def test_the_budget_counts_todays_turns_and_the_idle_clock_runs_from_yesterdays(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    clock = Clock(datetime(2026, 11, 29, 23, 59, tzinfo=UTC))
    sched = make(tmp_path, clock, mains, history, daily_budget=10)
    owner_turn(history, clock)
    owner_turn(history, clock)
    assert sched.budget_left() == 8
    clock.advance(minutes=2)  # 00:01 the next day
    assert sched.budget_left() == 10
    owner_turn(history, clock)
    assert sched.budget_left() == 9
    clock.advance(hours=6)
    assert sched.verdict().due  # six hours since the last turn, today's


def test_the_budget_spent_survives_a_kill(
    tmp_path: Path, mains: Path, history: HistoryStore
) -> None:
    """A real process counts owner turns the way core does and is SIGKILLed: no flush, no close.
    The next scheduler still has them spent."""
    clock = Clock()
    pid = os.fork()
    if pid == 0:
        try:
            child_history = HistoryStore.open(tmp_path / "history.db")
            child = make(tmp_path, clock, mains, child_history, daily_budget=10)
            child.begin_dream()  # a dream's cost: 3
            for _ in range(5):
                owner_turn(child_history, clock)
            assert child.budget_left() == 2
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    again = make(tmp_path, clock, mains, history, daily_budget=10)
    assert again.budget_left() == 2
    assert again.verdict(on_request=True).code == "budget"  # a dream costs 3
