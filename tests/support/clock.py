"""A clock for the memory writer that moves one second on each reading, so every change it stamps
has its own time (tests that compare `modified`, order the audit log or undo by time need that)."""

from __future__ import annotations

from datetime import datetime, timedelta


class TickingClock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now
