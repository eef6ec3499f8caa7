"""A history.db damaged the ways a card meets: random bytes over rows in the middle, a cut file,
a garbage header. Shared by the storage-fault tests and the backup tests."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from shelldon.core.history.store import HistoryStore

PAGE = 4096
TURNS = 400


def filled_history(db: Path) -> None:
    """A history with enough pages that damage in the middle hits message rows."""
    db.parent.mkdir(parents=True, exist_ok=True)
    store = HistoryStore.open(db)
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    try:
        for n in range(TURNS):
            store.record_turn(f"t{n}", f"owner line {n} " + "tea " * 60, f"pet line {n}", now)
    finally:
        store.close()  # the last connection: checkpointed into the main file, no -wal left
    assert not db.with_name(db.name + "-wal").exists()
    assert db.stat().st_size > 40 * PAGE


def garbage_in_the_middle(db: Path) -> None:
    """Random bytes over the pages holding two message rows from the middle of the history."""
    data = db.read_bytes()
    with open(db, "r+b") as handle:
        for n in (TURNS // 3, TURNS // 2):
            where = data.index(f"owner line {n} ".encode())
            handle.seek(where // PAGE * PAGE)
            handle.write(os.urandom(PAGE))


def truncated(db: Path) -> None:
    os.truncate(db, db.stat().st_size // 2 + 123)


def garbage_header(db: Path) -> None:
    with open(db, "r+b") as handle:
        handle.write(os.urandom(100))
