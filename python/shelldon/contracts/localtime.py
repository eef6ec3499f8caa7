"""The prompt's clock line: what the worker writes and the offline brain reads back.

The worker (`worker.prompt`) puts the owner's local time and zone in a "# Now" section just before
the owner's message, so a brain can resolve "tomorrow at 9"; the offline brain
(`broker.offline_proactive`) parses the same line. Both import the format from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

NOW_HEADER = "# Now"
CHECKIN_HEADER = "# Check-in: you speak first"

_LINE = re.compile(
    r"^(?P<weekday>[A-Za-z]+) (?P<date>\d{4}-\d{2}-\d{2}) (?P<time>\d{2}:\d{2}), "
    r"time zone (?P<zone>[A-Za-z0-9_+\-/]+) \(UTC(?P<offset>[+-]\d{2}:\d{2})\)$"
)


@dataclass(frozen=True)
class LocalNow:
    """The owner's wall-clock time (naive: it is in `zone`) and the zone's name."""

    local: datetime
    zone: str


def now_line(local: datetime, zone: str, offset: str) -> str:
    """ "Tuesday 2026-05-05 09:12, time zone Europe/Lisbon (UTC+01:00)"."""
    return f"{local:%A %Y-%m-%d %H:%M}, time zone {zone} (UTC{offset})"


def parse_now(text: str) -> LocalNow | None:
    """The first line of `text` that is a clock line, read back; None when there is none."""
    for line in text.splitlines():
        match = _LINE.match(line.strip())
        if match is None:
            continue
        try:
            # fromisoformat, not strptime: strptime brings _strptime, locale and calendar
            # (~0.3 MB) into the broker, which reads this line each turn. The pattern above
            # admits only this one form; a date that does not exist is a ValueError in both.
            local = datetime.fromisoformat(f"{match['date']} {match['time']}")
        except ValueError:
            return None
        return LocalNow(local, match["zone"])
    return None
