"""The time: now in UTC, this boot's id, and the one ISO-8601 shape shelldon writes.

Written: `2026-11-29T21:00:00Z` (UTC, whole seconds, a `Z`), in front matter, the audit log,
history.db, the scheduler's state and the status. Read: whatever `datetime.fromisoformat` takes,
a `Z` or an offset, with or without fractions; a time without a zone is UTC. So what was written
before this shape was the only one (history's and the scheduler's `+00:00`, with microseconds)
still reads.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

Clock = Callable[[], datetime]
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")  # a fresh id at every boot (Linux)


def utc_now() -> datetime:
    return datetime.now(UTC)


def read_boot_id(path: Path = BOOT_ID) -> str:
    """This boot's id. "" when the kernel does not say (not Linux, no /proc)."""
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def iso(moment: datetime) -> str:
    """`moment` in UTC, whole seconds, with a `Z`. A time without a zone is refused: it would be
    read as UTC later whatever zone it meant."""
    if moment.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="seconds").removesuffix("+00:00") + "Z"


def parse_iso(text: str) -> datetime:
    """An ISO-8601 time, in UTC (no zone: UTC). Raises ValueError when it is not one."""
    moment = datetime.fromisoformat(text)
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def compact(moment: datetime) -> str:
    """`20261129T210000`: the UTC second in a name (turn ids, audit change ids)."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%S")
