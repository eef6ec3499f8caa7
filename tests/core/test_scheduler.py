"""The scheduler: budget, idle cadence, cooldown, battery, persistence, owner-first arbitration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.core import scheduler
from shelldon.core.scheduler import (
    DreamRecord,
    Scheduler,
    SchedulerConfig,
    read_power,
)

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


def make(tmp_path: Path, clock: Clock, power: Path, **overrides: object) -> Scheduler:
    config = SchedulerConfig(power_supply_root=power, **overrides)  # type: ignore[arg-type]
    return Scheduler(tmp_path / "state", config, clock=clock)


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


def test_owner_turns_count_and_a_dream_needs_three(tmp_path: Path, mains: Path) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=5, idle_after=timedelta(0))
    for _ in range(2):
        sched.note_owner_turn()
    assert sched.budget_left() == 3
    assert sched.verdict().due
    sched.note_owner_turn()  # owner turns are never refused, even when they eat the dream's room
    verdict = sched.verdict(on_request=True)
    assert not verdict.due and verdict.code == "budget"
    assert sched.verdict(force=True).due
    # The budget is per UTC day.
    clock.advance(days=1)
    assert sched.budget_left() == 5 and sched.verdict().due


def test_dream_cost_is_charged_once_the_dream_begins(tmp_path: Path, mains: Path) -> None:
    sched = make(tmp_path, Clock(), mains, daily_budget=7)
    assert sched.begin_dream() == 1
    assert sched.budget_left() == 4
    assert sched.begin_dream() == 2
    assert sched.budget_left() == 1
    assert sched.verdict(force=False, on_request=True).code == "budget"


def test_idle_cadence_waits_for_owner_silence(tmp_path: Path, mains: Path) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains)
    sched.note_owner_turn()
    clock.advance(hours=5, minutes=59)
    verdict = sched.verdict()
    assert verdict.code == "idle" and not verdict.due
    assert sched.next_dream_at() == T0 + timedelta(hours=6)
    assert sched.verdict(on_request=True).due  # dream --now skips the idle wait
    clock.advance(minutes=1)
    assert sched.verdict().due


def test_cooldown_after_a_dream(tmp_path: Path, mains: Path) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, cooldown=timedelta(hours=4))
    sched.begin_dream()
    clock.advance(hours=3)
    assert sched.verdict().code == "cooldown"
    assert sched.verdict(on_request=True).due
    clock.advance(hours=1)
    assert sched.verdict().due


def test_battery_gate_blocks_even_a_requested_dream(tmp_path: Path, mains: Path) -> None:
    supply(mains, "BAT0", type="Battery", capacity="15", status="Discharging")
    sched = make(tmp_path, Clock(), mains)
    verdict = sched.verdict(on_request=True)
    assert verdict.code == "battery" and "15%" in verdict.reason
    (mains / "BAT0" / "status").write_text("Charging\n")
    assert sched.verdict(on_request=True).due


def test_state_survives_a_restart(tmp_path: Path, mains: Path) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=10)
    sched.note_owner_turn()
    n = sched.begin_dream()
    sched.finish_dream(DreamRecord(at="t", outcome="done", detail="ok", n=n, promoted=2))
    again = make(tmp_path, clock, mains, daily_budget=10)
    assert again.budget_left() == 6
    assert again.state.dreams == 1
    assert again.state.last_dream is not None and again.state.last_dream.promoted == 2
    clock.advance(hours=1)
    assert again.verdict().code in ("idle", "cooldown")
    assert again.begin_dream() == 2


def test_corrupt_state_is_kept_aside_and_core_starts_fresh(tmp_path: Path, mains: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "scheduler.json").write_text('{"version": 1, "spent": "lots"')
    sched = make(tmp_path, Clock(), mains)
    assert sched.state.spent == 0
    assert (state / "scheduler.json.corrupt").exists()
    sched.note_owner_turn()
    assert make(tmp_path, Clock(), mains).state.spent == 1


def test_status_lines_show_budget_next_dream_and_last_outcome(tmp_path: Path, mains: Path) -> None:
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=10)
    sched.note_owner_turn()
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


def test_a_state_file_written_with_offsets_still_reads(tmp_path: Path, mains: Path) -> None:
    # Before the one ISO shape (shelldon.clock), the state held "+00:00" times: same schedule.
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=30)
    sched.note_owner_turn()
    sched.finish_dream(DreamRecord(at="x", outcome="done", detail="", n=sched.begin_dream()))
    sched.flush()
    state_file = tmp_path / "state" / "scheduler.json"
    written = state_file.read_text()
    assert "2026-11-29T08:00:00Z" in written
    want = make(tmp_path, clock, mains, daily_budget=30).status_lines()
    state_file.write_text(written.replace("T08:00:00Z", "T08:00:00.000001+00:00"))
    assert make(tmp_path, clock, mains, daily_budget=30).status_lines() == want


def test_config_comes_from_shelldon_toml_and_bad_values_are_errors() -> None:
    from shelldon.config import ConfigError, parse_config

    table = parse_config("[scheduler]\nidle_after_hours = 2\ndaily_budget = 9\n").scheduler
    config = SchedulerConfig.from_config(table)
    assert config.idle_after == timedelta(hours=2) and config.daily_budget == 9
    assert config.dream_cost == 3 and config.cooldown == timedelta(hours=6)
    with pytest.raises(ConfigError, match="idle_hours"):
        parse_config("[scheduler]\nidle_hours = 2\n")
    with pytest.raises(ConfigError):
        parse_config('[scheduler]\ndaily_budget = "many"\n')
    with pytest.raises(ValueError, match="negative"):
        SchedulerConfig.from_config(parse_config("[scheduler]\ndream_cost = -1\n").scheduler)


def test_owner_turns_are_written_in_batches_and_flushed_at_stop(
    tmp_path: Path, mains: Path
) -> None:
    # SD-card care: not one state write per owner turn.
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=10)
    state_file = tmp_path / "state" / "scheduler.json"
    sched.note_owner_turn()  # the first count of this run is written at once
    first = state_file.read_bytes()
    clock.advance(minutes=1)
    sched.note_owner_turn()
    assert state_file.read_bytes() == first, "a second turn within the batch is not written"
    assert make(tmp_path, clock, mains, daily_budget=10).budget_left() == 9
    sched.flush()
    assert make(tmp_path, clock, mains, daily_budget=10).budget_left() == 8
    clock.advance(minutes=11)
    sched.note_owner_turn()  # past the batch interval: written
    assert make(tmp_path, clock, mains, daily_budget=10).budget_left() == 7


def test_a_new_day_is_written_at_once(
    tmp_path: Path, mains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scheduler, "OWNER_TURN_SAVE_EVERY", timedelta(days=7))
    clock = Clock()
    sched = make(tmp_path, clock, mains, daily_budget=10)
    sched.note_owner_turn()
    sched.note_owner_turn()
    clock.advance(hours=16, minutes=5)  # 00:05 the next day (T0 is 08:00 UTC)
    sched.note_owner_turn()
    again = make(tmp_path, clock, mains, daily_budget=10)
    assert again.state.day == clock.now.date().isoformat()
    assert again.budget_left() == 9
