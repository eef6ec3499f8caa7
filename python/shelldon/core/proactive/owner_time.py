"""The owner's time: the time zone setting, the local time line, and the clocks reminders run on.

- The owner's zone is one setting core keeps in history.db (`settings`, key "timezone"). Until
  the owner sets it (`shelldon timezone Europe/Lisbon`), it is the system's zone: TZ, else
  /etc/timezone, else where /etc/localtime points, else UTC. The worker reads the same setting
  through its read-only handle, so the prompt and the scheduler always agree.
- `Clocks` bundles what reminders need and tests replace: the wall clock (UTC), a monotonic
  clock that counts from boot (CLOCK_BOOTTIME: it keeps counting through a suspend), the boot id,
  and whether the wall clock is synchronised. "Synchronised" means systemd-timesyncd's flag file
  exists, or the machine has no timesyncd at all (something else keeps the time). A Pi without
  a real-time clock boots with a stale wall clock until timesyncd's first answer; a relative
  reminder set then runs on the monotonic clock (core.proactive.reminders).

LLM-free, no I/O at import. The worker imports it (the prompt's local time line).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shelldon.clock import read_boot_id, utc_now
from shelldon.contracts.localtime import now_line

TIMEZONE_SETTING = "timezone"
FALLBACK_ZONE = "UTC"
LOCALTIME = Path("/etc/localtime")
TIMEZONE_FILE = Path("/etc/timezone")
SYNC_FLAG = Path("/run/systemd/timesync/synchronized")
TIMESYNCD = (Path("/lib/systemd/systemd-timesyncd"), Path("/usr/lib/systemd/systemd-timesyncd"))
_MAX_ZONE_CHARS = 64


class UnknownZone(ValueError):
    """Not a time zone this system knows. The message is one line a person can act on."""


def zone(name: str) -> ZoneInfo:
    """The zone called `name` ("Europe/Lisbon", "UTC"). Raises UnknownZone."""
    clean = name.strip() if isinstance(name, str) else ""
    if (
        not clean
        or len(clean) > _MAX_ZONE_CHARS
        or clean.startswith(("/", "."))
        or ".." in clean
        or any(ch.isspace() for ch in clean)
    ):
        raise UnknownZone(
            f"unknown time zone{_quoted(clean)}: give a name like Europe/Lisbon or UTC"
        )
    try:
        return ZoneInfo(clean)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownZone(
            f"unknown time zone{_quoted(clean)}: give a name like Europe/Lisbon or UTC "
            "(`timedatectl list-timezones` lists them)"
        ) from None


# What a zone name looks like ("UTC", "Europe/Lisbon", "America/Argentina/Buenos_Aires",
# "Etc/GMT+5"). The message quotes only a name of that shape: a model's `zone` reaches the audit
# log and the owner's notice, and a key or an order must not ride in on it.
_ZONE_SHAPE = re.compile(r"[A-Z][A-Za-z_]{1,30}(?:/[A-Z][A-Za-z0-9_+-]{0,30}){0,2}")


def _quoted(name: str) -> str:
    return f" {name!r}" if _ZONE_SHAPE.fullmatch(name) else " (that is not a zone's name)"


def is_zone(name: str) -> bool:
    try:
        zone(name)
    except UnknownZone:
        return False
    return True


def _zone_from_path(path: str) -> str | None:
    marker = "zoneinfo/"
    at = path.find(marker)
    if at < 0:
        return None
    name = path[at + len(marker) :]
    for prefix in ("posix/", "right/"):
        name = name.removeprefix(prefix)
    return name or None


def system_zone(
    environ: Mapping[str, str] | None = None,
    *,
    localtime: Path = LOCALTIME,
    timezone_file: Path = TIMEZONE_FILE,
) -> str:
    """The system's zone name: TZ, /etc/timezone, /etc/localtime's target, else UTC. Never raises;
    a candidate this system does not know is skipped."""
    env = os.environ if environ is None else environ
    candidates: list[str] = []
    tz = env.get("TZ", "").strip().removeprefix(":")
    if tz:
        candidates.append(_zone_from_path(tz) or tz)
    with contextlib.suppress(OSError, UnicodeDecodeError):
        candidates.append(timezone_file.read_text(encoding="utf-8").strip())
    with contextlib.suppress(OSError):
        candidates.append(_zone_from_path(os.readlink(localtime)) or "")
    for name in candidates:
        if name and is_zone(name):
            return "UTC" if name in ("Etc/UTC", "Etc/UCT", "UCT", "Zulu", "Etc/Zulu") else name
    return FALLBACK_ZONE


def owner_zone_name(stored: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The owner's zone: the stored setting when this system knows it, else the system's."""
    if stored and is_zone(stored):
        return stored.strip()
    return system_zone(environ)


class Settings(Protocol):
    """Where settings are read: core's HistoryStore or a worker's read-only HistoryReader."""

    def setting(self, key: str) -> str | None: ...


def owner_zone(settings: Settings) -> str:
    """The owner's zone as stored in history.db, else the system's."""
    return owner_zone_name(settings.setting(TIMEZONE_SETTING))


def local_now(now: datetime, zone_name: str) -> datetime:
    """`now` (aware) in the owner's zone; UTC when the name is unknown."""
    try:
        tz: ZoneInfo = zone(zone_name)
    except UnknownZone:
        tz = ZoneInfo(FALLBACK_ZONE)
    return now.astimezone(tz)


def utc_offset(moment: datetime) -> str:
    """ "+01:00" for an aware datetime."""
    offset = moment.utcoffset()
    seconds = int(offset.total_seconds()) if offset is not None else 0
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    return f"{sign}{hours:02d}:{rest // 60:02d}"


def clock_line(now: datetime, zone_name: str) -> str:
    """The prompt's line for `now` (aware) in the owner's zone (contracts.localtime.now_line); a
    zone this system does not know reads as UTC."""
    local = local_now(now, zone_name)
    name = zone_name if local.tzinfo is not None and is_zone(zone_name) else FALLBACK_ZONE
    return now_line(local, name, utc_offset(local))


def owner_clock_line(settings: Settings) -> str:
    """The owner's clock line now: what core sends each worker (wire.SpawnTurn.clock_line), so a
    worker neither reads the zone setting nor loads the zone database (zoneinfo, ~0.3 MB of the
    fork-server's memory; the system's zone read from /etc each turn)."""
    return clock_line(utc_now(), owner_zone(settings))


def describe_local(moment: datetime, zone_name: str) -> str:
    """ "Tue 5 May 09:00" in the owner's zone, for replies and lists."""
    local = local_now(moment, zone_name)
    return f"{local:%a} {local.day} {local:%b %H:%M}"


# --- clocks --------------------------------------------------------------------------------------


def boot_clock() -> float:
    """Seconds since boot, counting a suspend (CLOCK_BOOTTIME); monotonic where that is missing."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is not None:
        return time.clock_gettime(boottime)
    return time.monotonic()


def clock_synced(flag: Path = SYNC_FLAG, daemons: tuple[Path, ...] = TIMESYNCD) -> bool:
    """The wall clock can be trusted: timesyncd's flag exists, or there is no timesyncd here."""
    if flag.exists():
        return True
    return not any(path.exists() for path in daemons)


@dataclass(frozen=True)
class Clocks:
    """Everything that tells time, injectable: tests drive a fake clock through a jump."""

    wall: Callable[[], datetime] = utc_now
    mono: Callable[[], float] = boot_clock
    boot_id: Callable[[], str] = read_boot_id
    synced: Callable[[], bool] = field(default=clock_synced)
