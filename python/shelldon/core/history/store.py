"""Conversation history and learnings: one sqlite file (WAL + FTS5), core its only writer.

`HistoryStore.open(path)` is core's read-write handle. `open_readonly(path)` is what workers
get: a `mode=ro` connection whose class has no write method, and whose writes would raise
at the sqlite layer anyway. The schema is built by numbered migrations (core.history.migrations) at
open. UPSERT and resolve semantics follow the seed exactly; decisions the seed leaves open are
in docs/storage.md. `journal_turn` records a turn before its reply, with the ops still to apply
(core.turn.journal). The proactive tables (reminders, the proactive queue: core.proactive.reminders,
core.proactive.service) keep their own statements beside their logic and run them through
`writing()` and `reading()`, under this handle's lock; `setting()` is the one read both handles
share.

Over 400 lines: every SQL statement against history.db lives here, behind the two handles (the
shared reader with its bounded two-stage recall, and core's writer); splitting it would spread
one store's queries over several modules.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TypedDict, TypeVar, cast

from shelldon.clock import iso, parse_iso
from shelldon.core.history import migrations, recall
from shelldon.core.retrieval import terms as entry_terms
from shelldon.core.retrieval.rank import EntryTerms
from shelldon.core.storage import check as storage_check
from shelldon.core.storage import layout

log = logging.getLogger(__name__)
# The offline brain's provider name (broker.offline.OfflineBrain.name): its turns are rules, free.
FREE_PROVIDER = "offline"

# The readers' group (the worker) reads it; sqlite gives -wal/-shm the db's mode.
DB_MODE: Final = layout.FILE_MODE
BUSY_TIMEOUT_MS: Final = 5_000
# A new store's page size. A turn's commit writes each page it touches whole into the WAL: at
# 4 KB pages a turn wrote ~62 KB, at 1 KB ~16 KB, with recall no slower at 100k messages
# (docs/performance.md). Stores made before keep their 4 KB pages (changing it is a VACUUM).
PAGE_SIZE: Final = 1024
# Core's page cache, in KiB (sqlite's default is 2,000 per connection): the writer's grows with the
# store until it is full, so a pet of some months carried 2 MB more than a new one for the same
# turns (docs/performance.md, "Memory over a long conversation"). A turn touches a few dozen pages.
CACHE_KIB: Final = 512
MAX_RECENT: Final = 500
MAX_OWNER_MESSAGES: Final = 400  # the owner's languages: ~25k letters, more than they need
MAX_SEARCH: Final = 100
MAX_PENDING: Final = 200
# Hard ceiling per search (the Pi's p95 target is 100 ms). Read when a handle is made, so the
# in-process tests that check what recall finds give it room on a loaded machine
# (tests/core/conftest.py); the budget itself: tests/core/history/test_history.py.
SEARCH_BUDGET_S = 0.2

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


@dataclass(frozen=True)
class OwnerTurns:
    """The owner turns history holds since a moment, and when the latest owner turn was."""

    since: int
    last: datetime | None
    free: int = 0  # of `since`, the turns the offline brain answered: they cost no model call


@dataclass(frozen=True)
class JournalRow:
    """One journaled turn (core.turn.journal): `items` is the JSON of its ops still to apply."""

    id: int
    turn_id: str
    ts: str
    items: str


class LearningRow(TypedDict):
    id: int
    pattern_key: str | None
    observation: str
    recurrence_count: int
    status: str
    first_seen: str
    last_seen: str


_FTS5_SEEN = False  # the library had FTS5 once in this process: it cannot lose it


def _fts5_available() -> bool:
    """Probe the sqlite library (not the file: a read-only file must not look like a missing
    FTS5) by creating an FTS5 table in memory. Compile options can lie when FTS5 is loaded as
    an extension; a real table cannot. A yes is kept: the fork-server's warm-up probes once and
    every worker it forks inherits the answer (the probe was 1.4 ms of a worker's read)."""
    global _FTS5_SEEN
    if _FTS5_SEEN:
        return True
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE fts5_probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()
    _FTS5_SEEN = True
    return True


def _require_fts5() -> None:
    if not _fts5_available():
        raise RuntimeError(
            f"this sqlite ({sqlite3.sqlite_version}) was built without FTS5; shelldon's history "
            "recall needs it (CPython's bundled sqlite and Debian's libsqlite3 have it)"
        )


_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


def _serialised(method: _F) -> _F:
    """One call at a time per handle: core shares one store between its server threads and the
    dream ticker, and a sqlite connection has one transaction and one progress handler."""

    @functools.wraps(method)
    def wrapper(self: _Reader, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return cast(_F, wrapper)


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
    def owner_messages(self, n: int) -> list[str]:
        """The text of the owner's last `n` messages (capped at MAX_OWNER_MESSAGES), newest first:
        what the reply check learns the owner's languages from (contracts.languages)."""
        n = max(0, min(int(n), MAX_OWNER_MESSAGES))
        rows = self._conn.execute(
            "SELECT content FROM messages WHERE role = 'owner' ORDER BY id DESC LIMIT ?", (n,)
        ).fetchall()
        return [str(row[0]) for row in rows]

    @_serialised
    def search(self, query: str, n: int, *, now: datetime | None = None) -> list[MessageRow]:
        """Keyword recall, most relevant first: candidates by rarity, then ranked
        (core/history/recall.py, docs/recall.md). `[]` when no word survives sanitising, on any
        sqlite error, or when the time budget runs out. `now` anchors "yesterday", "last week"
        (default: the clock)."""
        n = max(0, min(int(n), MAX_SEARCH))
        rows = recall.search(self._conn, query, n, budget_s=self._search_budget_s, now=now)
        return [_message(row) for row in rows]

    @_serialised
    def setting(self, key: str) -> str | None:
        """A core-owned setting (the owner's time zone, ...); None when unset (or an old store)."""
        try:
            row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:  # no settings table: an older store
            return None
        return str(row[0]) if row else None

    @_serialised
    def entry_terms(self, memory_root: str | os.PathLike[str]) -> list[EntryTerms] | None:
        """Curated entries' terms as core last took them, when the tree has not changed since;
        None when the worker must read the tree (core.retrieval.terms)."""
        return entry_terms.read_fresh(self._conn, memory_root)

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
        """Open or create the store. RuntimeError when sqlite lacks FTS5; StorageFault (a
        RuntimeError, one line naming the file and the remedy) when the file is damaged."""
        _require_fts5()
        db = Path(path)
        storage_check.check_history_paths(db)  # a link, or a folder where a sidecar goes: refused
        created = _create_empty(db)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per turn.
        conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        try:
            if not created:
                storage_check.quick_check(conn, db)  # damage found now, not as lost turns later
            else:
                # Before the first table: every page a turn's commit touches is written whole to
                # the WAL, so the page size is the unit of a turn's cost (docs/performance.md).
                conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise RuntimeError(f"{db}: could not switch to WAL (got {mode!r})")
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at checkpoint, never corrupt
            conn.execute("PRAGMA foreign_keys = ON")
            migrations.migrate(
                conn, name=db.name
            )  # the schema: numbered, in core.history.migrations
        except BaseException:
            conn.close()
            raise
        store = cls(conn, db)
        store._index_rest("open")  # what a killed writer left past the stem index
        return store

    @_serialised
    def index_history(self, *, at_least: int = recall.STEM_BATCH_ROWS) -> int:
        """Recall's stem index takes the rows past its watermark in one batch, when there are at
        least `at_least` (core.history.recall.index_new_rows): after a turn's reply, and all of them
        at open and close. Its own short commit, not durable (a power cut rolls the batch and its
        watermark back together; the next batch takes the rows again). Returns rows indexed."""
        if recall.unindexed_rows(self._conn) < max(1, at_least):
            return 0  # no write transaction at all on most turns
        with _transaction(self._conn):
            return recall.index_new_rows(self._conn, at_least=at_least)

    @_serialised
    def copy_to(self, target: Path) -> None:
        """A consistent copy of what this handle sees (sqlite's backup API) at `target`: how core
        keeps a history.db that was unlinked or replaced under it (core.upkeep.store_watch)."""
        dest = sqlite3.connect(target, isolation_level=None)
        try:
            self._conn.backup(dest)
        finally:
            dest.close()

    @_serialised
    def reopen(self, swap: Callable[[], None], path: Path | None = None) -> None:
        """Close this handle's connection, let `swap` put a file in place, and open it (`path`,
        else the same path) in this same handle: whoever holds it writes to that file from now on
        (core.upkeep.store_watch: a history.db unlinked under core, rebuilt from this handle's own
        copy; or replaced, this handle moved to its copy aside). The old connection is closed first:
        its close removes its WAL by name, which must not be left for the file now at the path."""
        self._conn.close()
        swap()
        if path is not None:
            self._path = path
        self._conn = HistoryStore.open(self._path)._conn

    @_serialised
    def close(self) -> None:
        """Index what is left past the stem index (a failure is logged: the next open does it),
        then close."""
        self._index_rest("close")
        self._conn.close()

    def _index_rest(self, when: str) -> None:
        try:
            self.index_history(at_least=1)
        except sqlite3.ProgrammingError:  # closed already: nothing to do
            pass
        except sqlite3.Error as exc:  # searches still read those rows (core.history.recall)
            log.warning("%s: stem-index batch at %s failed: %s", self._path.name, when, exc)

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
        with _transaction(self._conn):
            self._insert_turn(turn_id, owner_text, pet_text, iso(now), usage)

    @_serialised
    def journal_turn(
        self,
        turn_id: str,
        owner_text: str,
        pet_text: str,
        now: datetime,
        *,
        usage: TurnUsage | None = None,
        items: str | None = None,
        also: Callable[[sqlite3.Connection], None] | None = None,
    ) -> int | None:
        """A turn recorded before its reply (core.turn.journal): both rows, its usage and, when it
        has any, the ops still to apply (`items`, JSON, secrets already blanked) in one transaction.
        That commit is durable: synchronous=FULL for it (in WAL, NORMAL can roll a committed
        transaction back at a power cut), NORMAL again after. Returns the journal id. `also`
        writes more in the same transaction (a Telegram update and its reply:
        core.telegram.state)."""
        ts = iso(now)
        self._conn.execute("PRAGMA synchronous = FULL")
        try:
            with _transaction(self._conn):
                self._insert_turn(turn_id, owner_text, pet_text, ts, usage)
                if also is not None:
                    also(self._conn)
                if items is None:
                    return None
                row = self._conn.execute(
                    "INSERT INTO turn_journal (turn_id, ts, items) VALUES (?, ?, ?) RETURNING id",
                    (turn_id, ts, items),
                ).fetchone()
                return int(row[0])
        finally:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA synchronous = NORMAL")

    def _insert_turn(
        self,
        turn_id: str | None,
        owner_text: str,
        pet_text: str,
        ts: str,
        usage: TurnUsage | None,
    ) -> None:
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
        # Core batches the stem index after the reply (index_history); a writer that never does
        # still keeps the rows past it under what a search reads (core.history.recall).
        recall.index_new_rows(self._conn, at_least=recall.CATCH_UP_ROWS)

    def write(self, work: Callable[[sqlite3.Connection], _T], *, durable: bool = False) -> _T:
        """`work` in one transaction (`writing`), its result returned: for modules that keep their
        SQL beside their tables (core.telegram.state)."""
        with self.writing(durable=durable) as conn:
            return work(conn)

    def read(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """`work` on the connection under this handle's lock (`reading`), its result returned."""
        with self.reading() as conn:
            return work(conn)

    @_serialised
    def pending_journal(self) -> list[JournalRow]:
        """Journaled turns whose ops were not all applied (a killed core), oldest first."""
        rows = self._conn.execute(
            "SELECT id, turn_id, ts, items FROM turn_journal ORDER BY id"
        ).fetchall()
        return [JournalRow(int(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows]

    @_serialised
    def clear_journal(self, journal_id: int) -> None:
        """The turn's ops are applied: its journal row goes (ids are never reused)."""
        with _transaction(self._conn):
            self._conn.execute("DELETE FROM turn_journal WHERE id = ?", (journal_id,))

    @contextlib.contextmanager
    def writing(self, *, durable: bool = False) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction under this handle's lock, for the modules that keep their own
        tables here (core.proactive.reminders, core.proactive.service). `durable`: synchronous=FULL
        for its commit (a power cut cannot roll it back), as journal_turn does."""
        with self._lock:
            if durable:
                self._conn.execute("PRAGMA synchronous = FULL")
            try:
                with _transaction(self._conn):
                    yield self._conn
            finally:
                if durable:
                    with contextlib.suppress(sqlite3.Error):
                        self._conn.execute("PRAGMA synchronous = NORMAL")

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under this handle's lock, for reads outside a transaction."""
        with self._lock:
            yield self._conn

    @_serialised
    def set_setting(self, key: str, value: str | None, now: datetime) -> None:
        """Store (or, with None, remove) a core-owned setting, durably."""
        with self.writing(durable=True) as conn:
            if value is None:
                conn.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                conn.execute(
                    "INSERT INTO settings (key, value, ts) VALUES (?, ?, ?) ON CONFLICT (key) "
                    "DO UPDATE SET value = excluded.value, ts = excluded.ts",
                    (key, value, iso(now)),
                )

    @_serialised
    def last_owner_ts(self) -> str | None:
        """When the owner last said something (the newest owner row's timestamp), or None."""
        row = self._conn.execute(
            "SELECT ts FROM messages WHERE role = 'owner' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return str(row[0]) if row else None

    @_serialised
    def usage_since(self, since: datetime) -> UsageTotals:
        """Turns, prompt and completion tokens recorded since `since` (for `shelldon status`)."""
        row = self._conn.execute(
            "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0)"
            " FROM turn_usage WHERE ts >= ?",
            (iso(since),),
        ).fetchone()
        return UsageTotals(int(row[0]), int(row[1]), int(row[2]))

    @_serialised
    def owner_turns(self, since: datetime) -> OwnerTurns:
        """How many owner turns were recorded since `since`, and the latest one's time (any day):
        the scheduler's budget and idle clock, read from where each turn is stored (both
        queries walk the `messages_owner_ts` index, migration 7)."""
        count = self._conn.execute(
            "SELECT count(*) FROM messages WHERE ts >= ? AND role = 'owner'", (iso(since),)
        ).fetchone()[0]
        # A turn the offline brain answered (its usage row names it) spends no model budget.
        free = self._conn.execute(
            "SELECT count(*) FROM turn_usage WHERE ts >= ? AND provider = ?",
            (iso(since), FREE_PROVIDER),
        ).fetchone()[0]
        last = self._conn.execute(
            "SELECT ts FROM messages WHERE role = 'owner' ORDER BY ts DESC LIMIT 1"
        ).fetchone()
        try:
            latest = parse_iso(str(last[0])) if last else None
        except ValueError:  # a hand-edited row; the count still stands
            latest = None
        return OwnerTurns(int(count), latest, min(int(free), int(count)))

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
        ts = iso(now)
        with _transaction(self._conn):
            row = self._conn.execute(
                _UPSERT_LEARNING, (key or None, observation.strip(), ts, ts)
            ).fetchone()
        return int(row[0])

    @_serialised
    def pending_learnings(self, limit: int = 50) -> list[LearningRow]:
        """Pending rows, most recurrent first (then most recently seen, then id): bounded."""
        return _pending(self._conn, limit)

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


def _create_empty(db: Path) -> bool:
    """Make the file at DB_MODE before sqlite does (its 0644 minus the umask): sqlite creates -wal
    and -shm with the mode the db has then, so it must be right from the first byte. True: new."""
    try:
        fd = os.open(
            db, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, DB_MODE
        )
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, DB_MODE)  # the umask filtered the create mode
    finally:
        os.close(fd)
    return True


def open_readonly(
    path: str | os.PathLike[str], *, search_budget_s: float | None = None
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
    if db.is_symlink():  # sqlite would follow it and make its -wal/-shm where it leads
        raise sqlite3.OperationalError(f"{db} is a link; not followed (docs/reliability.md)")
    try:
        conn = _connect_readonly(db.as_uri() + "?mode=ro")
    except sqlite3.OperationalError:
        wal = db.with_name(db.name + "-wal")
        if not db.is_file() or (wal.exists() and wal.stat().st_size > 0):
            raise
        log.info("%s: no writer and no WAL; reading it immutable", db.name)
        conn = _connect_readonly(db.as_uri() + "?mode=ro&immutable=1")
    return HistoryReader(conn, SEARCH_BUDGET_S if search_budget_s is None else search_budget_s)


def _pending(conn: sqlite3.Connection, limit: int) -> list[LearningRow]:
    limit = max(0, min(int(limit), MAX_PENDING))
    rows = conn.execute(
        f"SELECT {_LEARNING_COLUMNS} FROM learnings WHERE status = 'pending' "
        "ORDER BY recurrence_count DESC, last_seen DESC, id ASC LIMIT ?",
        (limit,),
    ).fetchall()
    return [_learning(row) for row in rows]


def read_pending_learnings(
    path: str | os.PathLike[str], limit: int = MAX_PENDING
) -> list[LearningRow]:
    """The pending learnings, read-only (`shelldon memory learnings`): the owner's view, not a
    worker's (HistoryReader has no learnings). sqlite3.OperationalError if the file is absent."""
    reader = open_readonly(path)
    try:
        with reader._lock:
            return _pending(reader._conn, limit)
    finally:
        reader.close()


def _connect_readonly(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
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
