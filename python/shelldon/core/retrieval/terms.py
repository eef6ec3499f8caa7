"""Curated entries' terms, computed once per version of an entry and shared with workers.

A worker is forked per turn and dies after it, so nothing it parses survives to the next turn;
parsing and tokenising every entry each turn was most of a turn's prompt assembly (7-11 ms at 200
entries on x86). Core keeps each active entry's `retrieval.EntryTerms` in history.db's
`entry_terms` table (migration 7) and the memory tree's signature they were taken at in
`entry_terms_state`. A worker reads the table through its read-only handle (one query, no file of
the tree opened) when the signature still matches the tree, and falls back to reading the tree
itself when it does not (an entry written since core last synced: a test, the CLI).

- `tree_signature(memory_root)`: each collection directory's inode and mtime. Every write of an
  entry replaces its file (an atomic rename), which moves the directory's mtime; a few stats.
- `TermsSync(memory).sync(store)` (core): the signature first, then the entries (MemoryReader's
  parse cache makes an unchanged entry free), then one transaction upserting the entries that
  changed and deleting the ones gone or superseded. Nothing is written when nothing changed, and
  the commit is `synchronous=NORMAL`: the table is derived, refilled from the tree at start.
- `read_fresh(conn, memory_root)` (worker): the rows, or None when the table is missing, empty
  while the tree is not, or taken at another signature.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.retrieval.rank import EntryTerms, entry_id

if TYPE_CHECKING:
    from shelldon.core.memory.entry import Entry
    from shelldon.core.memory.reader import MemoryReader


class Store(Protocol):
    """What the sync needs of core's HistoryStore (named here, not imported: history.py reads
    through this module)."""

    def reading(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def writing(self, *, durable: bool = False) -> AbstractContextManager[sqlite3.Connection]: ...


log = logging.getLogger(__name__)

_COLUMNS = (
    "id, collection, title, body, provenance, confidence, updated, last_confirmed, depends_on, "
    "title_terms, tag_terms, body_terms"
)


def tree_signature(memory_root: str | os.PathLike[str]) -> str:
    """Each collection directory's inode and mtime (absent: "-"), one string."""
    parts: list[str] = []
    for collection in COLLECTION_NAMES:
        try:
            st = os.stat(Path(memory_root) / collection)
            parts.append(f"{collection}:{st.st_ino}:{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{collection}:-")
    return " ".join(parts)


def _row(terms: EntryTerms) -> tuple[object, ...]:
    return (
        terms.id,
        terms.collection,
        terms.title,
        terms.body,
        terms.provenance,
        terms.confidence,
        terms.updated,
        terms.last_confirmed,
        json.dumps(list(terms.depends_on)) if terms.depends_on else "",
        " ".join(terms.title_terms),
        " ".join(terms.tag_terms),
        " ".join(terms.body_terms),
    )


def _terms(row: Sequence[Any]) -> EntryTerms:
    depends = row[8]
    return EntryTerms(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        tuple(json.loads(depends)) if depends else (),
        tuple(row[9].split()),
        tuple(row[10].split()),
        tuple(row[11].split()),
    )


def read_fresh(
    conn: sqlite3.Connection, memory_root: str | os.PathLike[str]
) -> list[EntryTerms] | None:
    """The active entries' terms when core took them at the tree's current signature, ordered
    by id; None when the worker must read the tree itself."""
    signature = tree_signature(memory_root)
    try:
        state = conn.execute("SELECT tree FROM entry_terms_state WHERE id = 1").fetchone()
        if state is None or state[0] != signature:
            return None
        rows = conn.execute(f"SELECT {_COLUMNS} FROM entry_terms ORDER BY id").fetchall()
    except sqlite3.OperationalError:  # an older store without the tables
        return None
    return [_terms(row) for row in rows]


class TermsSync:
    """Core's side: keeps `entry_terms` equal to the tree's active entries."""

    def __init__(self, memory: MemoryReader) -> None:
        self._memory = memory
        self._seen: dict[str, Entry] | None = None  # None: the table's contents are unknown
        self._signature: str | None = None

    def sync(self, store: Store) -> int:
        """Bring the table up to date; returns how many rows were written or deleted."""
        signature = tree_signature(self._memory.root)  # before the listing: a later write shows
        current = {entry_id(e): e for e in self._memory.entries() if e.meta.status != "superseded"}
        seen = self._seen
        if seen is None:
            changed = list(current)
            with store.reading() as conn:
                stored = {str(r[0]) for r in conn.execute("SELECT id FROM entry_terms")}
            gone = stored - set(current)
        else:
            changed = [key for key, entry in current.items() if seen.get(key) is not entry]
            gone = set(seen) - set(current)
        if not changed and not gone and signature == self._signature:
            return 0
        rows = [_row(EntryTerms.of(current[key])) for key in changed]
        with store.writing() as conn:
            conn.executemany("DELETE FROM entry_terms WHERE id = ?", [(key,) for key in gone])
            conn.executemany(
                f"INSERT OR REPLACE INTO entry_terms ({_COLUMNS}) VALUES ({', '.join('?' * 12)})",
                rows,
            )
            conn.execute(
                "INSERT INTO entry_terms_state (id, tree) VALUES (1, ?) "
                "ON CONFLICT (id) DO UPDATE SET tree = excluded.tree",
                (signature,),
            )
        self._seen = current
        self._signature = signature
        return len(rows) + len(gone)
