"""appliance.security_window: the security updates' timer runs inside the owner's own quiet hours
(shelldon.toml's [proactive] quiet_start/quiet_end, in the owner's zone from history.db), once a
night; the module as the unit's ExecCondition runs it, against a real toml file and history.db."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from shelldon.appliance.field_status import SECURITY_ENV
from shelldon.appliance.security_window import decide, quiet_began
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive.owner_time import TIMEZONE_SETTING

REPO = Path(__file__).resolve().parents[2]
UNITS = REPO / "image/overlay/usr/lib/systemd/system"
LISBON = "Europe/Lisbon"
TIMER = "shelldon-security-update.timer"


def at(zone: str, day: int, hh: int, mm: int = 0) -> datetime:
    """A local wall time in December 2026 (no DST change), as UTC."""
    return datetime(2026, 12, day, hh, mm, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def test_the_owners_quiet_hours_not_the_default_ones() -> None:
    # An owner who sleeps in the afternoon: 13:00-17:00. 03:30 is inside the default 22:00-08:00
    # (what the timer followed before) and outside the owner's: no run then; 14:10 is a run.
    start, end = time(13), time(17)
    due, why = decide(at(LISBON, 3, 3, 30), LISBON, start, end, None)
    assert not due and why == f"03:30 {LISBON} is outside the owner's quiet hours 13:00-17:00"
    due, why = decide(at(LISBON, 3, 14, 10), LISBON, start, end, None)
    assert due and why == f"14:10 {LISBON} is inside the owner's quiet hours 13:00-17:00"
    assert not decide(at(LISBON, 3, 17, 0), LISBON, start, end, None)[0]  # the end is not inside


def test_the_owners_zone_decides_the_local_time() -> None:
    # One instant, 14:10 in Lisbon, is 23:10 in Tokyo: inside 13:00-17:00 in one, not the other.
    now = at(LISBON, 3, 14, 10)
    assert decide(now, LISBON, time(13), time(17), None)[0]
    assert not decide(now, "Asia/Tokyo", time(13), time(17), None)[0]


def test_once_per_quiet_night_across_midnight() -> None:
    start, end = time(23), time(6)
    now = at(LISBON, 4, 1, 0)  # 01:00: the quiet hours began yesterday at 23:00
    began = quiet_began(now.astimezone(ZoneInfo(LISBON)), start, end)
    assert began == datetime(2026, 12, 3, 23, 0, tzinfo=ZoneInfo(LISBON))
    assert decide(now, LISBON, start, end, at(LISBON, 3, 5, 0))[0]  # last run: the night before
    due, why = decide(now, LISBON, start, end, at(LISBON, 3, 23, 40))
    assert not due and why == f"already ran in these quiet hours 23:00-06:00 (01:00 {LISBON})"
    # the same night, before midnight: began today at 23:00
    assert quiet_began(at(LISBON, 3, 23, 30).astimezone(ZoneInfo(LISBON)), start, end) == (
        datetime(2026, 12, 3, 23, 0, tzinfo=ZoneInfo(LISBON))
    )


def test_no_quiet_hours_once_a_day_and_a_clock_set_back() -> None:
    noon = time(12)
    assert decide(at(LISBON, 3, 0, 30), LISBON, noon, noon, at(LISBON, 2, 0, 40))[0]
    due, why = decide(at(LISBON, 3, 9, 0), LISBON, noon, noon, at(LISBON, 3, 0, 40))
    assert not due and why == f"no quiet hours set: already ran today (09:00 {LISBON})"
    # a last run stamped in the future (the clock was set back since) does not block runs
    assert decide(at(LISBON, 3, 14, 0), LISBON, time(13), time(17), at(LISBON, 9, 14, 0))[0]


# --- the module as the unit runs it ---------------------------------------------------------------


@pytest.fixture
def card(tmp_path: Path) -> dict[str, str]:
    """A data root with a real history.db, a shelldon.toml, no security run yet."""
    home = tmp_path / "home"
    home.mkdir()
    return {
        **os.environ,
        "SHELLDON_HOME": str(home),
        "SHELLDON_RUN_DIR": str(tmp_path / "run"),
        "SHELLDON_CONFIG": str(tmp_path / "shelldon.toml"),
        SECURITY_ENV: str(tmp_path / "security.json"),
        "PYTHONPATH": str(REPO / "python"),
        "TZ": "UTC",
        "TRIGGER_UNIT": TIMER,
    }


def owner_zone(env: dict[str, str], zone: str) -> None:
    store = HistoryStore.open(Path(env["SHELLDON_HOME"]) / "history.db")
    try:
        store.set_setting(TIMEZONE_SETTING, zone, datetime.now(UTC))
    finally:
        store.close()


def quiet_hours(env: dict[str, str], zone: str, from_now: timedelta, length: timedelta) -> None:
    """[proactive] quiet hours in `zone`'s wall time, starting `from_now` from now."""
    local = datetime.now(ZoneInfo(zone))
    start, end = local + from_now, local + from_now + length
    Path(env["SHELLDON_CONFIG"]).write_text(
        f'[proactive]\nquiet_start = "{start:%H:%M}"\nquiet_end = "{end:%H:%M}"\n'
    )


def gate(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shelldon.appliance.security_window"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_timer_runs_inside_the_owners_quiet_hours_in_the_owners_zone(card) -> None:
    # The owner's zone (history.db) is 9 hours from the system's (UTC): the quiet hours hold now
    # in Tokyo's wall time; read in UTC they would not.
    owner_zone(card, "Asia/Tokyo")
    quiet_hours(card, "Asia/Tokyo", timedelta(minutes=-60), timedelta(hours=3))
    r = gate(card)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "inside the owner's quiet hours" in r.stdout and "Asia/Tokyo" in r.stdout
    # A run has happened since these quiet hours began: not again tonight.
    Path(card[SECURITY_ENV]).write_text(json.dumps({"at": datetime.now(UTC).isoformat()}))
    r = gate(card)
    assert r.returncode == 1 and "already ran in these quiet hours" in r.stdout, r.stdout
    # A run before they began does not count.
    before = datetime.now(UTC) - timedelta(hours=2)
    Path(card[SECURITY_ENV]).write_text(json.dumps({"at": before.isoformat()}))
    assert gate(card).returncode == 0


def test_outside_the_owners_quiet_hours_the_timer_waits(card) -> None:
    owner_zone(card, "Asia/Tokyo")
    quiet_hours(card, "Asia/Tokyo", timedelta(hours=2), timedelta(hours=3))
    r = gate(card)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "outside the owner's quiet hours" in r.stdout
    # Started by hand (no timer behind it): it runs whatever the hour.
    by_hand = {k: v for k, v in card.items() if k != "TRIGGER_UNIT"}
    r = gate(by_hand)
    assert r.returncode == 0 and "started by hand" in r.stdout, r.stdout + r.stderr


def test_a_broken_config_falls_back_to_the_default_hours_in_one_line(card) -> None:
    Path(card["SHELLDON_CONFIG"]).write_text('[proactive]\nquiet_start = "25:99"\n')
    r = gate(card)
    assert r.returncode in (0, 1) and not r.stderr, r.stderr
    assert r.stdout.count("\n") == 1 and "the default quiet hours" in r.stdout, r.stdout


def test_the_unit_runs_the_gate_and_the_timer_ticks_often_enough() -> None:
    service = (UNITS / "shelldon-security-update.service").read_text()
    condition = [ln for ln in service.splitlines() if ln.startswith("ExecCondition=")]
    assert len(condition) == 1 and condition[0].endswith(
        "/usr/bin/python3 -m shelldon.appliance.security_window"
    )
    assert "--reuid=shelldon " in condition[0]  # as the pet's user, not root
    timer = (UNITS / TIMER).read_text()
    calendar = [ln.split("=", 1)[1] for ln in timer.splitlines() if ln.startswith("OnCalendar=")]
    assert calendar == ["*-*-* *:00,30:00"]  # a tick every half hour: any quiet window is met
