"""Whether the clock can be trusted, for `shelldon status`.

The boards have no real-time clock. At power-on the time is the last one saved (systemd-timesyncd's
clock file, restored before core starts) until network time arrives; without a network it stays
behind by however long the card was off. While the clock is known to be unsynchronised, status
says so, with what that means for reminders (docs/image.md, "The clock").

timesyncd's flag: it creates `/run/systemd/timesync/synchronized` once it has synchronised since
boot, in its run directory. A machine where timesyncd is not running (no run directory: a laptop
with its own real-time clock, or chrony) counts as synchronised: its clock is not ours to doubt.

A provider's TLS certificate refused as "not yet valid" is what a clock that is behind looks like
from the network: status shows it as a clock problem, whatever timesyncd says.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Final

from shelldon.clock import iso

TIMESYNC_RUN_DIR: Final = Path("/run/systemd/timesync")
NOT_YET_VALID: Final = "not yet valid"


def synchronised(run_dir: Path = TIMESYNC_RUN_DIR) -> bool:
    """False only when timesyncd runs here and has not synchronised since boot."""
    if not run_dir.is_dir():
        return True
    return (run_dir / "synchronized").exists()


def clock_behind(link_details: Iterable[str]) -> bool:
    """A provider refused the TLS certificate as not yet valid (the clock is behind)."""
    return any(NOT_YET_VALID in detail for detail in link_details)


def clock_lines(synced: bool, link_details: Iterable[str], now: datetime) -> list[str]:
    """The status lines about the clock: one always, a second when TLS points at the clock."""
    if synced:
        lines = [f"clock: {iso(now)}, synchronised (or kept by this machine)"]
    else:
        lines = [
            f"clock: {iso(now)}, NOT synchronised yet (the last saved time plus the time since "
            "power-on; no network time so far): reminders set 'in N minutes' still fire on time, "
            "ones set for a time of day may fire late"
        ]
    if clock_behind(link_details):
        lines.append(
            "clock: a provider's TLS certificate is 'not yet valid' by this clock: the clock is "
            "behind; it is corrected once network time is reached (`timedatectl`)"
        )
    return lines
