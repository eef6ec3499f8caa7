"""The archive's search index: retired entries stay findable without joining the hot path.

Entries retired to make room (`core.memory.room`) live in `memory/archive/<collection>/`; the
worker's memory read (`MemoryReader.entries`) never lists that directory, so it costs a turn
nothing however large it grows. To keep them findable, core keeps a small FTS5 index of the
retired entries beside them, `memory/archive/index.db` (porter stems, like history recall), and
the worker asks it for the few that match the owner's message (`search_archive`): one indexed
query, whatever the archive's size.

The index is derived: `sync_archive_index` brings it in line with the files (a row per retired
entry, keyed by its file's identity), so an undo, a forget or a hand edit is followed at the next
write, and a lost or broken index is rebuilt. Superseded entries are not indexed: a better
version of each is active.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from shelldon import _native
from shelldon.core.memory.entry import Entry
from shelldon.core.storage.layout import FILE_MODE
from shelldon.core.words import HISTORY_STOPWORDS
from shelldon.paths import ARCHIVE_DIR, ARCHIVE_INDEX

log = logging.getLogger(__name__)

INDEX_MODE = FILE_MODE  # the readers' group (the worker) reads it; others nothing
_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS archive_fts USING fts5(name UNINDEXED, "
    "provenance UNINDEXED, title, body, tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TABLE IF NOT EXISTS archive_files (name TEXT PRIMARY KEY, sig TEXT NOT NULL, "
    "row INTEGER NOT NULL) WITHOUT ROWID",
)


@dataclass(frozen=True)
class ArchivedHit:
    """A retired entry that matches a query, as the prompt shows it."""

    name: str  # "<collection>/<stem>"
    title: str
    body: str
    provenance: str


def index_path(memory_root: Path) -> Path:
    return memory_root / ARCHIVE_DIR / ARCHIVE_INDEX


def sync_archive_index(memory_root: Path, archived: Sequence[Entry]) -> int:
    """Bring index.db in line with the retired entries on disk; returns the rows changed.
    Core only (the caller holds the memory write lock)."""
    path = index_path(memory_root)
    wanted = {f"{e.collection}/{e.stem}": e for e in archived if e.meta.status == "retired"}
    sigs = {name: _signature(memory_root, name) for name in wanted}
    try:
        return _sync(path, wanted, sigs)
    except sqlite3.DatabaseError as exc:
        log.warning("archive index unreadable (%s); rebuilding it", exc)
        path.unlink(missing_ok=True)
        return _sync(path, wanted, sigs)


def _sync(path: Path, wanted: dict[str, Entry], sigs: dict[str, str]) -> int:
    existed = path.exists()
    if not existed and not wanted:
        return 0  # nothing retired yet: no index to keep
    if not existed:
        # Made with its mode before sqlite opens it: sqlite's journal takes the db's mode.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, INDEX_MODE))
        os.chmod(path, INDEX_MODE)  # the umask may have narrowed it
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in _SCHEMA:
            conn.execute(statement)
        have = {str(n): (str(s), int(r)) for n, s, r in conn.execute("SELECT * FROM archive_files")}
        changed = [n for n in wanted if have.get(n, ("", 0))[0] != sigs[n]]
        gone = [n for n in have if n not in wanted]
        if not changed and not gone:
            return 0
        conn.execute("BEGIN IMMEDIATE")
        for name in [*gone, *changed]:
            if name in have:
                conn.execute("DELETE FROM archive_fts WHERE rowid = ?", (have[name][1],))
                conn.execute("DELETE FROM archive_files WHERE name = ?", (name,))
        for name in changed:
            entry = wanted[name]
            cursor = conn.execute(
                "INSERT INTO archive_fts (name, provenance, title, body) VALUES (?, ?, ?, ?)",
                (name, entry.meta.provenance, entry.meta.title or entry.stem, entry.body),
            )
            conn.execute(
                "INSERT INTO archive_files (name, sig, row) VALUES (?, ?, ?)",
                (name, sigs[name], cursor.lastrowid),
            )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return len(changed) + len(gone)


def _signature(memory_root: Path, name: str) -> str:
    try:
        st = (memory_root / ARCHIVE_DIR / f"{name}.md").stat()
    except OSError:
        return ""
    return f"{st.st_ino}:{st.st_mtime_ns}:{st.st_size}"


_WORD = re.compile(r"\w+")


def search_archive(memory_root: Path, query: str, k: int) -> list[ArchivedHit]:
    """The `k` retired entries that best match `query` (bm25, title weighted 2), read-only;
    [] when there is no index or no usable word. The worker's call."""
    path = index_path(memory_root)
    if k <= 0 or not path.is_file():
        return []
    words = [w for w in _WORD.findall(query) if w.casefold() not in HISTORY_STOPWORDS]
    match = _native.fts_query(" ".join(words))
    if match is None:
        return []
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    with contextlib.closing(conn):
        rows = conn.execute(
            "SELECT name, title, body, provenance FROM archive_fts WHERE archive_fts MATCH ? "
            "ORDER BY bm25(archive_fts, 0.0, 0.0, 2.0, 1.0), rowid DESC LIMIT ?",
            (match, k),
        ).fetchall()
    return [ArchivedHit(str(n), str(t), str(b), str(p)) for n, t, b, p in rows]
