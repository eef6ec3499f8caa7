"""Conversation history and learnings: one sqlite file (WAL + FTS5), core its only writer.

`HistoryStore.open(path)` is core's read-write handle. `open_readonly(path)` is what workers
get: a `mode=ro` connection whose class has no write method, and whose writes would raise
at the sqlite layer anyway. Schema, UPSERT and resolve semantics follow the seed exactly;
decisions the seed leaves open are in docs/storage.md.
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TypedDict, TypeVar, cast

from shelldon.core import recall

log = logging.getLogger(__name__)

SCHEMA_VERSION: Final = 1
DB_MODE: Final = 0o644  # the worker uid reads it; -wal/-shm inherit this mode from the db
BUSY_TIMEOUT_MS: Final = 5_000
MAX_RECENT: Final = 500
MAX_SEARCH: Final = 100
MAX_PENDING: Final = 200
SEARCH_BUDGET_S: Final = 0.2  # hard ceiling per search (the Pi's p95 target is 100 ms)

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS messages (
    id      INTEGER PRIMARY KEY,
    turn_id TEXT,
    role    TEXT NOT NULL CHECK (role IN ('owner', 'pet')),
    content TEXT NOT NULL,
    ts      TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts
    USING fts5(content, content='messages', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE VIRTUAL TABLE IF NOT EXISTS messages_vocab USING fts5vocab(messages_fts, row);
CREATE TABLE IF NOT EXISTS learnings (
    id               INTEGER PRIMARY KEY,
    pattern_key      TEXT,
    observation      TEXT NOT NULL,
    recurrence_count INTEGER NOT NULL DEFAULT 1,
    status           TEXT NOT NULL DEFAULT 'pending'
                       CHECK (status IN ('pending', 'promoted', 'pruned')),
    first_seen       TEXT NOT NULL,
    last_seen        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS turn_usage (
    turn_id           TEXT,
    provider          TEXT NOT NULL,
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    ts                TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS learnings_pattern_key
    ON learnings (pattern_key) WHERE pattern_key IS NOT NULL;
"""

# One statement: the unique partial index turns a second capture of a key into an increment,
# so two writers (a turn and the dream) can never duplicate or lose a row between check and write.
_UPSERT_LEARNING: Final = """
INSERT INTO learnings (pattern_key, observation, first_seen, last_seen)
VALUES (?, ?, ?, ?)
ON CONFLICT (pattern_key) WHERE pattern_key IS NOT NULL DO UPDATE SET
    recurrence_count = recurrence_count + 1,
    last_seen = excluded.last_seen,
    status = 'pending'
RETURNING id
"""

_MESSAGE_COLUMNS: Final = "id, turn_id, role, content, ts"
_LEARNING_COLUMNS: Final = (
    "id, pattern_key, observation, recurrence_count, status, first_seen, last_seen"
)


class MessageRow(TypedDict):
    id: int
    turn_id: str | None
    role: str
    content: str
    ts: str


@dataclass(frozen=True)
class TurnUsage:
    """What the provider said a turn cost. Token counts are None when it did not say."""

    provider: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True)
class UsageTotals:
    turns: int
    prompt_tokens: int
    completion_tokens: int


class LearningRow(TypedDict):
    id: int
    pattern_key: str | None
    observation: str
    recurrence_count: int
    status: str
    first_seen: str
    last_seen: str


def _fts5_available() -> bool:
    """Probe the sqlite library (not the file: a read-only file must not look like a missing
    FTS5) by creating an FTS5 table in memory. Compile options can lie when FTS5 is loaded as
    an extension; a real table cannot."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE fts5_probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()
    return True


def _require_fts5() -> None:
    if not _fts5_available():
        raise RuntimeError(
            f"this sqlite ({sqlite3.sqlite_version}) was built without FTS5; shelldon's history "
            "recall needs it (CPython's bundled sqlite and Debian's libsqlite3 have it)"
        )


_F = TypeVar("_F", bound=Callable[..., Any])


def _serialised(method: _F) -> _F:
    """One call at a time per handle: core shares one store between its server threads and the
    dream ticker, and a sqlite connection has one transaction and one progress handler."""

    @functools.wraps(method)
    def wrapper(self: _Reader, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return cast(_F, wrapper)


def _timestamp(now: datetime) -> str:
    if now.tzinfo is None:
        raise ValueError("history timestamps must be timezone-aware (UTC)")
    return now.isoformat()


class _Reader:
    """The two query shapes workers get: recent and search. Shared by both handles."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    _search_budget_s: float

    @_serialised
    def recent(self, n: int) -> list[MessageRow]:
        """The last `n` messages (capped at MAX_RECENT), oldest → newest."""
        n = max(0, min(int(n), MAX_RECENT))
        if n == 0:
            return []
        rows = self._conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM ("
            f"SELECT {_MESSAGE_COLUMNS} FROM messages ORDER BY id DESC LIMIT ?) ORDER BY id",
            (n,),
        ).fetchall()
        return [_message(row) for row in rows]

    @_serialised
    def search(self, query: str, n: int, *, now: datetime | None = None) -> list[MessageRow]:
        """Keyword recall, most relevant first: candidates by rarity, then ranked (core/recall.py,
        docs/recall.md). `[]` when no word survives sanitising, on any sqlite error, or when the
        time budget runs out. `now` anchors "yesterday", "last week" (default: the clock)."""
        n = max(0, min(int(n), MAX_SEARCH))
        rows = recall.search(self._conn, query, n, budget_s=self._search_budget_s, now=now)
        return [_message(row) for row in rows]

    @_serialised
    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> _Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _message(row: tuple[Any, ...]) -> MessageRow:
    return {"id": row[0], "turn_id": row[1], "role": row[2], "content": row[3], "ts": row[4]}


def _learning(row: tuple[Any, ...]) -> LearningRow:
    return {
        "id": row[0],
        "pattern_key": row[1],
        "observation": row[2],
        "recurrence_count": row[3],
        "status": row[4],
        "first_seen": row[5],
        "last_seen": row[6],
    }


class HistoryStore(_Reader):
    """Core's read-write handle. Single writer; every write is one short IMMEDIATE transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self._path = path
        self._search_budget_s = SEARCH_BUDGET_S

    @property
    def path(self) -> Path:
        return self._path

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> HistoryStore:
        """Open or create the store. RuntimeError when sqlite lacks FTS5."""
        _require_fts5()
        db = Path(path)
        created = not db.exists()
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per turn.
        conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise RuntimeError(f"{db}: could not switch to WAL (got {mode!r})")
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at checkpoint, never corrupt
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("BEGIN IMMEDIATE")
            for statement in _split_schema(_SCHEMA):
                conn.execute(statement)
            recall.ensure_recall_schema(conn)  # becomes a migration on merge
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        if created:
            os.chmod(db, DB_MODE)  # explicit, not the umask: the worker must be able to read it
        return cls(conn, db)

    @_serialised
    def record_turn(
        self,
        turn_id: str | None,
        owner_text: str,
        pet_text: str,
        now: datetime,
        *,
        usage: TurnUsage | None = None,
    ) -> None:
        """Both rows of a turn in one transaction: after a crash, both or neither. The provider's
        usage figures, when the turn has them, ride the same transaction (no extra commit)."""
        ts = _timestamp(now)
        with _transaction(self._conn):
            self._conn.execute(
                "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, 'owner', ?, ?)",
                (turn_id, owner_text, ts),
            )
            self._conn.execute(
                "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, 'pet', ?, ?)",
                (turn_id, pet_text, ts),
            )
            if usage is not None:
                self._conn.execute(
                    "INSERT INTO turn_usage (turn_id, provider, prompt_tokens, "
                    "completion_tokens, ts) VALUES (?, ?, ?, ?, ?)",
                    (turn_id, usage.provider, usage.prompt_tokens, usage.completion_tokens, ts),
                )
            recall.fold_new_rows(self._conn)  # every FOLD_ROWS rows: one batch of term counts

    @_serialised
    def usage_since(self, since: datetime) -> UsageTotals:
        """Turns, prompt and completion tokens recorded since `since` (for `shelldon status`)."""
        row = self._conn.execute(
            "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0)"
            " FROM turn_usage WHERE ts >= ?",
            (_timestamp(since),),
        ).fetchone()
        return UsageTotals(int(row[0]), int(row[1]), int(row[2]))

    @_serialised
    def capture_learning(
        self, observation: str, pattern_key: str | None, now: datetime
    ) -> int | None:
        """Insert, or bump the recurrence of the row with this key (and send it back to pending).
        A blank key is no key (always a fresh row). An empty observation is skipped and logged.
        Returns the row id, or None when skipped."""
        if not isinstance(observation, str) or not observation.strip():
            log.info("capture_learning: empty observation skipped")
            return None
        key = pattern_key.strip() if isinstance(pattern_key, str) else None
        ts = _timestamp(now)
        with _transaction(self._conn):
            row = self._conn.execute(
                _UPSERT_LEARNING, (key or None, observation.strip(), ts, ts)
            ).fetchone()
        return int(row[0])

    @_serialised
    def pending_learnings(self, limit: int = 50) -> list[LearningRow]:
        """Pending rows, most recurrent first (then most recently seen, then id): bounded."""
        limit = max(0, min(int(limit), MAX_PENDING))
        rows = self._conn.execute(
            f"SELECT {_LEARNING_COLUMNS} FROM learnings WHERE status = 'pending' "
            "ORDER BY recurrence_count DESC, last_seen DESC, id ASC LIMIT ?",
            (limit,),
        ).fetchall()
        return [_learning(row) for row in rows]

    @_serialised
    def learning(self, learning_id: int) -> LearningRow | None:
        row = self._conn.execute(
            f"SELECT {_LEARNING_COLUMNS} FROM learnings WHERE id = ?", (learning_id,)
        ).fetchone()
        return _learning(row) if row else None

    @_serialised
    def resolve_learning(self, learning_id: int, status: str) -> bool:
        """Soft status change of a *pending* row. A stale, invented or already-resolved id
        changes nothing, is logged, and returns False. Never a DELETE."""
        if status not in ("promoted", "pruned"):
            raise ValueError(f"resolve_learning: status must be promoted or pruned, not {status!r}")
        if isinstance(learning_id, bool) or not isinstance(learning_id, int):
            log.info("resolve_learning: non-integer id ignored")
            return False
        with _transaction(self._conn):
            changed = self._conn.execute(
                "UPDATE learnings SET status = ? WHERE id = ? AND status = 'pending'",
                (status, learning_id),
            ).rowcount
        if changed == 0:
            log.info("resolve_learning: id %d is not a pending learning; no-op", learning_id)
            return False
        return True

    @_serialised
    def reopen_learning(self, learning_id: int, from_status: str) -> bool:
        """Undo of a dream's verdict (`memory undo --dream N`): back to pending, only while the
        row is still in the state that dream left it. Returns False (a no-op) otherwise."""
        if from_status not in ("promoted", "pruned"):
            raise ValueError("reopen_learning: from_status must be promoted or pruned")
        if isinstance(learning_id, bool) or not isinstance(learning_id, int):
            return False
        with _transaction(self._conn):
            changed = self._conn.execute(
                "UPDATE learnings SET status = 'pending' WHERE id = ? AND status = ?",
                (learning_id, from_status),
            ).rowcount
        return changed > 0

    @_serialised
    def counts(self) -> dict[str, int]:
        """For `shelldon status`: messages (the largest id: rows are append-only, so no table scan)
        and learnings by status."""
        counts = {
            "messages": int(self._conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0)
        }
        for status, n in self._conn.execute(
            "SELECT status, count(*) FROM learnings GROUP BY status ORDER BY status"
        ):
            counts[f"learnings {status}"] = int(n)
        return counts


class HistoryReader(_Reader):
    """A worker's handle: recent and search only. There is no write method to call."""

    def __init__(self, conn: sqlite3.Connection, search_budget_s: float) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self._search_budget_s = search_budget_s


def open_readonly(
    path: str | os.PathLike[str], *, search_budget_s: float = SEARCH_BUDGET_S
) -> HistoryReader:
    """`file:…?mode=ro`: any write through this connection raises sqlite3.OperationalError.

    A reader that may not write the directory or the -wal/-shm files (the worker uid) works:
    while the writer has the database open, -wal and -shm exist and sqlite reads the wal-index
    read-only. When there is no writer and no -wal (the writer closed cleanly and checkpointed
    everything into the main file) sqlite cannot create the -shm, so the fallback opens the
    file `immutable=1`, which is exact in that state. See docs/storage.md for the tradeoffs.
    sqlite3.OperationalError if the file is absent or unreadable."""
    _require_fts5()
    db = Path(path).absolute()
    try:
        conn = _connect_readonly(db.as_uri() + "?mode=ro")
    except sqlite3.OperationalError:
        wal = db.with_name(db.name + "-wal")
        if not db.is_file() or (wal.exists() and wal.stat().st_size > 0):
            raise
        log.info("%s: no writer and no WAL; reading it immutable", db.name)
        conn = _connect_readonly(db.as_uri() + "?mode=ro&immutable=1")
    return HistoryReader(conn, search_budget_s)


def _connect_readonly(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT 1 FROM messages LIMIT 1").fetchall()  # fail now, not mid-turn
    except BaseException:
        conn.close()
        raise
    return conn


class _transaction:
    """BEGIN IMMEDIATE … COMMIT, ROLLBACK on any exception. IMMEDIATE takes the write lock up
    front so a second writer waits on busy_timeout instead of failing mid-transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self._conn.execute("COMMIT")
        else:
            self._conn.execute("ROLLBACK")


def _split_schema(schema: str) -> list[str]:
    """Statements of _SCHEMA; the trigger body's inner `;` stays with its CREATE TRIGGER."""
    statements: list[str] = []
    buffer = ""
    for line in schema.strip().splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements
