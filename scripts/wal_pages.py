"""Where a turn's WAL bytes go: history.db's WAL frames per turn, by the table or index they hold.

A fresh store (the current schema and page size) in a temporary directory takes turns the way
core writes them: `journal_turn` before the reply (with a journal row for the 2 in 5 turns that
propose ops, cleared after the reply), then core's post-reply batch of recall's stem index
(`HistoryStore.index_history`, when the store has it). Automatic checkpoints are off; after
`--warm` turns the WAL is truncated, then `--turns` turns are written and the WAL's frames read
back: each frame names the page it holds, and sqlite's `dbstat` table says which b-tree owns
that page (pages not in any b-tree are the freelist's). Frames divided by turns: WAL pages per
turn, by owner; and the distinct pages among them per turn, which is what one checkpoint after
the run would write back to history.db. A page that changed owner counts for its last owner.

Not counted here: core's other post-reply writes (entry terms of the turns that write memory,
the proactive tables) and the checkpoints; `scripts/turn_cost.py` counts the real pet's bytes.

    python scripts/wal_pages.py [--turns 120] [--warm 40] [--history 0] [--cache DIR]

`--history N` starts from a store of N generated messages (scripts/recall_scale.py's generator,
kept in `--cache` when given), so the cost of a turn on a grown store shows too.

Figures of this machine, not tests (docs/performance.md "Storage per owner turn").
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sqlite3
import struct
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from recall_scale import fill
from turn_cost import message

from shelldon.core.history.store import HistoryStore

WAL_HEADER = 32
FRAME_HEADER = 24
ITEMS = '[{"op": {"op": "remember", "collection": "people", "title": "x", "body": "y"}}]'


def frames(wal: Path) -> list[int]:
    """The page number of every frame in a WAL file, in order."""
    data = wal.read_bytes()
    if len(data) < WAL_HEADER:
        return []
    page_size = struct.unpack(">I", data[8:12])[0]
    pages = []
    for offset in range(WAL_HEADER, len(data) - FRAME_HEADER + 1, FRAME_HEADER + page_size):
        pages.append(struct.unpack(">I", data[offset : offset + 4])[0])
    return pages


def owners(conn: sqlite3.Connection) -> dict[int, str]:
    """Page number -> the table or index whose b-tree holds it (dbstat)."""
    return {int(p): str(n) for n, p in conn.execute("SELECT name, pageno FROM dbstat")}


def turn(store: HistoryStore, i: int, when: datetime) -> None:
    """One owner turn as core writes it: journaled before the reply, batches after it."""
    text = message(i)
    reply = f"Noted: {text}." if i % 5 in (1, 3) else "Hm, tell me more about that."
    items = ITEMS if i % 5 in (1, 3) else None
    journal = store.journal_turn(f"t{i}", text, reply, when, items=items)
    if journal is not None:
        store.clear_journal(journal)
    index = getattr(store, "index_history", None)
    if index is not None:
        index()


def run(turns: int, warm: int, rows: int = 0, cache: Path | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "history.db"
        if rows:
            seeded = (cache or Path(tmp)) / f"history-{rows}.db"
            if not seeded.exists():
                seeded.parent.mkdir(parents=True, exist_ok=True)
                fill(seeded, rows).close()
            shutil.copyfile(seeded, db)
        store = HistoryStore.open(db)
        conn: sqlite3.Connection = store._conn
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for i in range(warm):
            turn(store, 10_000 + i, start + timedelta(minutes=i))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for i in range(turns):
            turn(store, i, start + timedelta(minutes=warm + i))
        pages = frames(db.with_name("history.db-wal"))
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        owner = owners(conn)
        store._conn.close()  # not close(): its batch would write past the count
    by_owner: dict[str, int] = collections.Counter(
        "page 1 (header, schema)" if p == 1 else owner.get(p, "(freelist)") for p in pages
    )
    print(
        f"{rows:,} messages, {turns} turns after {warm}: {len(pages) / turns:.2f} WAL pages per "
        f"turn of {page_size} bytes ({len(pages) * (page_size + FRAME_HEADER) / turns / 1024:.1f}"
        f" KB); distinct pages (what a checkpoint after them writes): {len(set(pages)) / turns:.2f}"
    )
    for name, n in sorted(by_owner.items(), key=lambda kv: -kv[1]):
        print(f"  {name}: {n / turns:.2f}")
    return {name: n / turns for name, n in by_owner.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=120, help="turns counted")
    parser.add_argument("--warm", type=int, default=40, help="turns written before counting")
    parser.add_argument("--history", type=int, default=0, help="messages seeded")
    parser.add_argument("--cache", type=Path, default=None, help="keep generated histories here")
    args = parser.parse_args()
    run(args.turns, args.warm, args.history, args.cache)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
