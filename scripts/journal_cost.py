"""What the turn journal costs a turn (docs/reliability.md): the reply's latency and bytes written.

Before the journal, a turn's rows were committed after the reply, with `synchronous=NORMAL`; now
one `journal_turn` commit with `synchronous=FULL` (the WAL fsynced) precedes the reply, and the
clearing commit follows the ops, after it. For each way of storing a turn this prints, over
TURNS turns on a fresh history.db in a temporary directory (on the disk the data root would be
on: pass --dir), the median and p95 wall time and the bytes written per turn: `wchar` from
/proc/self/io (every byte sqlite hands to write(), WAL frames and checkpoints alike) and the WAL's
growth (no checkpoint runs inside TURNS * 6 pages).

    python scripts/journal_cost.py [--turns 300] [--dir /var/lib/shelldon]

Figures of this machine, not tests.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from shelldon.core.history.store import HistoryStore
from shelldon.core.turn import journal

OWNER = "what did I say about tea?"
PET = "You told me green, no sugar."
OP = {"op": "remember", "collection": "facts", "name": "tea", "content": "Green, no sugar."}


def _wchar() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def measure(directory: Path, label: str, turn: Callable[[HistoryStore, int], None], n: int) -> str:
    db = directory / f"{label.replace(' ', '-')}.db"
    store = HistoryStore.open(db)
    try:
        store._conn.execute("PRAGMA wal_autocheckpoint = 0")  # the WAL's growth is the figure
        turn(store, -1)  # warm: the first write creates the WAL
        wal = db.with_name(db.name + "-wal")
        wal_before, wchar_before = wal.stat().st_size, _wchar()
        times = []
        for i in range(n):
            started = time.perf_counter()
            turn(store, i)
            times.append((time.perf_counter() - started) * 1000)
        wrote = (_wchar() - wchar_before) / n
        grew = (wal.stat().st_size - wal_before) / n
    finally:
        store.close()
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    return (
        f"| {label} | {statistics.median(times):.2f} ms | {p95:.2f} ms | "
        f"{wrote / 1024:.1f} KB | {grew / 1024:.1f} KB |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None, help="where the test databases go")
    args = parser.parse_args()
    now = datetime(2026, 12, 1, tzinfo=UTC)
    items = journal.encode(journal.plan([], [OP]))

    def recorded(store: HistoryStore, i: int) -> None:
        store.record_turn(f"t{i}", OWNER, PET, now)

    def journaled_no_ops(store: HistoryStore, i: int) -> None:
        store.journal_turn(f"t{i}", OWNER, PET, now)

    def journaled(store: HistoryStore, i: int) -> None:
        store.journal_turn(f"t{i}", OWNER, PET, now, items=items)

    def journaled_and_cleared(store: HistoryStore, i: int) -> None:
        journal_id = store.journal_turn(f"t{i}", OWNER, PET, now, items=items)
        assert journal_id is not None
        store.clear_journal(journal_id)

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        print(f"{args.turns} turns each, in {directory}")
        print("| how the turn is stored | median | p95 | written (wchar) | WAL growth |")
        print("|---|---|---|---|---|")
        rows = [
            ("before the journal: record_turn, NORMAL, after the reply", recorded),
            ("journal_turn, FULL, a turn without ops (before the reply)", journaled_no_ops),
            ("journal_turn, FULL, one op (before the reply)", journaled),
            ("journal_turn + clear_journal, one op (the whole turn)", journaled_and_cleared),
        ]
        for label, turn in rows:
            print(measure(directory, label, turn, args.turns))


if __name__ == "__main__":
    main()
