"""A fake clock for the proactive tests: the wall clock, the boot clock and the boot id, moved by
hand, so the scheduler's rules are driven without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time
from shelldon.core.proactive.owner_time import Clocks

# Tuesday 5 May 2026, 14:00 in Lisbon (UTC+01:00, summer time).
T0 = datetime(2026, 5, 5, 13, 0, tzinfo=UTC)
ZONE = "Europe/Lisbon"


class FakeClock:
    def __init__(
        self,
        wall: datetime = T0,
        *,
        mono: float = 5_000.0,
        boot: str = "boot-a",
        synced: bool = True,
    ) -> None:
        self.wall = wall
        self.mono = mono
        self.boot = boot
        self.synced = synced

    @property
    def clocks(self) -> Clocks:
        return Clocks(
            wall=lambda: self.wall,
            mono=lambda: self.mono,
            boot_id=lambda: self.boot,
            synced=lambda: self.synced,
        )

    def advance(self, **delta: float) -> None:
        """Time passes: both clocks move together."""
        step = timedelta(**delta)
        self.wall += step
        self.mono += step.total_seconds()

    def jump_wall(self, **delta: float) -> None:
        """Only the wall clock moves (timesyncd's first answer on a Pi with no real-time clock)."""
        self.wall += timedelta(**delta)

    def reboot(self, boot: str = "boot-b", mono: float = 30.0) -> None:
        self.boot = boot
        self.mono = mono


def open_store(tmp_path: Path, zone: str | None = ZONE) -> HistoryStore:
    store = HistoryStore.open(tmp_path / "history.db")
    if zone is not None:
        store.set_setting(owner_time.TIMEZONE_SETTING, zone, T0)
    return store
