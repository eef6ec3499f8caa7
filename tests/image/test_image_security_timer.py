"""The security updates' timer follows the owner's quiet hours, with the real units in the check
root booted by systemd (a container): shelldon.toml on the FAT partition carries a time zone and
`[proactive]` quiet hours; shelldon-firstboot writes them to /etc/shelldon/shelldon.toml; the
timer ticks now (the self-test's `security-timer` mode: a runtime drop-in) and the service's
ExecCondition, as the shelldon user with the TRIGGER_UNIT systemd sets for a timer, decides. Inside
the owner's hours the service runs; two hours before them it is skipped (skipped, not failed).
That it follows the owner's hours and not the default 22:00-08:00 at every hour of the day is
tests/appliance/test_security_window.py's; this proves the units' wiring on the real systemd."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from imagetools import NATIVE, need_tools, nspawn_selftest, selftest_ok

pytestmark = pytest.mark.debian_root

ZONE = "Asia/Tokyo"  # not the host's UTC: the card's own zone must be the one read


def _fat(tmp_path: Path, name: str, start: datetime, end: datetime) -> Path:
    fat = tmp_path / name
    fat.mkdir(mode=0o700)
    (fat / "shelldon.toml").write_text(
        f'[system]\nhostname = "shelldon-timer"\ntimezone = "{ZONE}"\n\n'
        f'[proactive]\nquiet_start = "{start:%H:%M}"\nquiet_end = "{end:%H:%M}"\n'
    )
    return fat


def _tick(check_root: Path, fat: Path, tmp_path: Path) -> tuple[str, str]:
    report = tmp_path / f"report-{fat.name}"
    report.mkdir()
    out = nspawn_selftest(check_root, fat, report, "shelldon.selftest=security-timer")
    selftest_ok(out, "security timer ticked")
    lines = out.splitlines()
    result = [ln.split()[-1] for ln in lines if ln.startswith("selftest security-timer result ")]
    says = [ln for ln in lines if ln.startswith("selftest security-timer says ")]
    assert result and says, out[-3000:]
    return result[0], says[0]


def test_the_timer_runs_only_inside_the_owners_quiet_hours(check_root, tmp_path):
    need_tools("systemd-nspawn")
    if not NATIVE.exists():
        pytest.skip(f"no amd64 build of the extension at {NATIVE}: run `just dev`")
    now = datetime.now(ZoneInfo(ZONE))
    # Inside: hours around now (3 h, from an hour ago).
    inside = _fat(tmp_path, "inside", now - timedelta(hours=1), now + timedelta(hours=2))
    result, says = _tick(check_root, inside, tmp_path)
    assert result == "success", says
    assert "inside the owner's quiet hours" in says and ZONE in says, says
    # Outside: hours that begin two hours from now.
    outside = _fat(tmp_path, "outside", now + timedelta(hours=2), now + timedelta(hours=5))
    result, says = _tick(check_root, outside, tmp_path)
    assert result == "exec-condition", says
    assert "outside the owner's quiet hours" in says, says
