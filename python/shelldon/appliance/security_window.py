"""When the card's security updates may run: inside the owner's quiet hours, once per quiet night.

shelldon-security-update.timer ticks every half hour; the service's ExecCondition runs this
(`python3 -m shelldon.appliance.security_window`, as the shelldon user). It reads what the owner
set, at each tick, so a changed shelldon.toml or `/timezone` counts from the next tick on:
- the quiet hours: `[proactive] quiet_start`/`quiet_end` in shelldon.toml (default 22:00-08:00);
- the owner's time zone: the one core keeps in history.db (`/timezone`), else the system's
  (core.proactive.owner_time, the same rule check-ins follow);
- the last run: /var/lib/shelldon-update/security.json's `at` (appliance.field_status).
A run is due when the owner's local time is inside the quiet hours and no run started since these
quiet hours began (one attempt a night: a run that failed, for want of a network, waits for the
next night). With no quiet hours (`quiet_start` = `quiet_end`), once per local calendar day.

Exit codes are systemd's ExecCondition: 0 run, 1 not now (the unit is skipped, not failed). A
start by hand (`systemctl start shelldon-security-update`, no timer behind it: systemd sets
TRIGGER_UNIT only for a triggered start) always runs. An unreadable shelldon.toml falls back to
the default quiet hours and says so; never a traceback, never a failed unit.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from datetime import UTC, datetime, time, timedelta

from shelldon.appliance.field_status import security_state
from shelldon.config import ConfigError, load_config
from shelldon.contracts.config import ProactiveConfig
from shelldon.core.history.store import open_readonly
from shelldon.core.proactive import owner_time
from shelldon.core.proactive.checkins import in_quiet_hours
from shelldon.paths import DataRoot

RUN, NOT_NOW = 0, 1
TRIGGER_ENV = "TRIGGER_UNIT"  # set by systemd when a timer (or path unit) started the service


def quiet_began(local: datetime, start: time, end: time) -> datetime | None:
    """When the quiet hours that hold at `local` began (local time); None outside them."""
    if not in_quiet_hours(local, start, end):
        return None
    began = datetime.combine(local.date(), start, tzinfo=local.tzinfo)
    if began > local:  # a window across midnight, now after midnight: it began yesterday
        began = datetime.combine(local.date() - timedelta(days=1), start, tzinfo=local.tzinfo)
    return began


def decide(
    now: datetime, zone_name: str, start: time, end: time, last_run: datetime | None
) -> tuple[bool, str]:
    """Is a run due at `now` (aware)? And the one line that says why."""
    local = owner_time.local_now(now, zone_name)
    at = f"{local:%H:%M} {zone_name}"
    if last_run is not None and last_run > now:
        last_run = None  # a clock set back since: the stamp says nothing
    if start == end:
        day = datetime.combine(local.date(), time(0), tzinfo=local.tzinfo)
        if last_run is not None and last_run >= day:
            return False, f"no quiet hours set: already ran today ({at})"
        return True, f"no quiet hours set: the day's run ({at})"
    window = f"{start:%H:%M}-{end:%H:%M}"
    began = quiet_began(local, start, end)
    if began is None:
        return False, f"{at} is outside the owner's quiet hours {window}"
    if last_run is not None and last_run >= began:
        return False, f"already ran in these quiet hours {window} ({at})"
    return True, f"{at} is inside the owner's quiet hours {window}"


def _last_run() -> datetime | None:
    try:
        data = json.loads(security_state().read_text())
        moment = datetime.fromisoformat(str(data["at"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _owner_zone(root: DataRoot) -> str:
    """The zone core keeps in history.db, else the system's (history.db absent or unreadable)."""
    stored = None
    try:
        reader = open_readonly(root.history_db)
    except (sqlite3.Error, OSError):
        pass
    else:
        try:
            stored = reader.setting(owner_time.TIMEZONE_SETTING)
        except sqlite3.Error:
            stored = None
        finally:
            reader.close()
    return owner_time.owner_zone_name(stored)


def _quiet_hours() -> tuple[time, time, str]:
    try:
        proactive = load_config().proactive
    except ConfigError as exc:
        proactive = ProactiveConfig()
        return proactive.quiet_from, proactive.quiet_until, f" ({exc}; the default quiet hours)"
    return proactive.quiet_from, proactive.quiet_until, ""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args:
        print("usage: python3 -m shelldon.appliance.security_window", file=sys.stderr)
        return NOT_NOW
    trigger = os.environ.get(TRIGGER_ENV, "")
    if not trigger.endswith(".timer"):
        print("security updates: started by hand, not by the timer: runs now")
        return RUN
    start, end, note = _quiet_hours()
    due, why = decide(datetime.now(UTC), _owner_zone(DataRoot.resolve()), start, end, _last_run())
    print(f"security updates: {'run' if due else 'not now'}: {why}{note}")
    return RUN if due else NOT_NOW


if __name__ == "__main__":
    sys.exit(main())
