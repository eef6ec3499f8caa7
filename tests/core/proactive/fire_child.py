"""Child for the firing-kill test: fires due reminders in a real process and stops, for the parent's
SIGKILL, either at a chosen SQL statement of the firing transaction or after it returned.

`python fire_child.py <db> <stop>`: <stop> is a statement prefix ("INSERT INTO proactive_queue",
"COMMIT") or "after". The child prints "stopped <stop>" on stdout when it stops, then waits for
its kill; the parent's read of that line is the only synchronisation.
"""

from __future__ import annotations

import signal
import sys
from datetime import UTC, datetime

from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import reminders
from shelldon.core.proactive.owner_time import Clocks

NOW = datetime(2026, 5, 6, 12, 0, tzinfo=UTC)  # after the parent's reminder came due


def stop_here(stop: str) -> None:
    sys.stdout.write(f"stopped {stop}\n")
    sys.stdout.flush()
    while True:
        signal.pause()  # until the parent's SIGKILL


def main(db: str, stop: str) -> None:
    store = HistoryStore.open(db)
    if stop != "after":

        def trace(statement: str) -> None:
            if statement.lstrip().upper().startswith(stop.upper()):
                stop_here(stop)

        store._conn.set_trace_callback(trace)  # test instrumentation on the real connection
    clocks = Clocks(wall=lambda: NOW, mono=lambda: 1.0, boot_id=lambda: "b", synced=lambda: True)
    reminders.fire_due(store, clocks)
    stop_here(stop)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
