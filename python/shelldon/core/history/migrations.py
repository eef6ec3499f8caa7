"""history.db's schema, as numbered forward migrations keyed on `PRAGMA user_version`.

Each migration runs in its own `BEGIN IMMEDIATE` transaction that also sets `user_version` to its
number, so a kill mid-migration leaves the store at the version before it (sqlite rolls the
transaction back) and the next open runs it again. The version is re-read inside the transaction:
two processes opening the store at once (core and a root CLI) cannot run a migration twice.

- 1: the schema the releases before migrations made (messages + FTS5 and its vocabulary,
  learnings, turn_usage). Those releases wrote `user_version = 1` and re-ran `CREATE … IF NOT
  EXISTS` at every open, so a version-1 store may come from a build before `messages_vocab` or
  `turn_usage` existed: migration 1 is idempotent and is re-run on a version-1 store.
- 2: `turn_journal`, the turn journal (core.turn.journal): a turn's proposed ops, saved with its
history
  rows before the reply and cleared once applied.
- 3 ("reminders"): `settings` (core-owned settings such as the owner's time zone,
core.proactive.owner_time),
  `reminders` (core.proactive.reminders) and `proactive_queue`, what the pet says first until a
  transport delivers it (core.proactive.service).
- 4 ("telegram"): `telegram_state` (one row: the paired chat, the pairing code's hash, the last
  recorded update_id), `telegram_updates` (the update ids recorded lately) and `telegram_outbox`
  (replies recorded, not yet confirmed sent): core.telegram.state.
- 5 ("recall"): `messages_stem` (a porter-stemmed FTS5 index of the messages, with its trigger),
  `recall_terms` and `recall_state` (document frequencies, folded in batches), built and backfilled
  by core.history.recall.ensure_recall_schema (docs/recall.md).
- 6 ("messages by time"): an index on `messages (role, ts)`, so the scheduler counts today's owner
  turns and finds the latest from history itself (core.proactive.scheduler: the budget spent
  survives a kill), walking only the index: no table scan, no sort.
- 7 ("entry terms"): `entry_terms`, each active curated entry with its stemmed terms, and
  `entry_terms_state`, the memory tree's signature they were taken at: core keeps them, a worker
  reads them instead of parsing and tokenising the tree (core.retrieval.terms). Derived data: an
  empty table is refilled from the tree at core's start. And migration 6's index on
  `messages (role, ts)` becomes `messages_owner_ts`, on `ts` for the owner's rows only: the
  scheduler's queries all ask for the owner's rows, and the pet's rows no longer cost the index
  a leaf page in every turn's commit (3.4 of the turn's 18 WAL pages were that index's). And
  the seed's unstemmed `messages_fts` (with its trigger and `messages_vocab`) goes: recall has
  read only `messages_stem` since migration 5, and indexing every message twice was 6 of the
  turn's WAL pages (docs/performance.md).
- 8 ("batched stem index"): migration 5's trigger `messages_stem_ai` goes. It wrote a new FTS5
  segment, its structure record and the index's row entries in every turn's commit, ~6 of a
  turn's 11 WAL pages; core now indexes the rows in batches past a watermark kept in
  `recall_state` (core.history.recall.index_new_rows), and searches read the rows past it directly
  (docs/recall.md, docs/performance.md).
- 9 ("voice notes"): `voice_notes`, one row per owner turn that came from a Telegram voice note
  or audio file (its turn id, update, kind and length in seconds), written in the turn's own
  transaction (core.telegram.state.record_reply); and `telegram_outbox.speak`, set on the reply
  rows of such a turn, which the poller also sends as a voice note when `[voice] speak` is set.

A store newer than this code knows is refused (RuntimeError), never downgraded.

A long migration must not get core killed at start: before each migration, when `messages` holds
more than LONG_MIGRATION_ROWS rows, core tells systemd EXTEND_TIMEOUT_USEC (sdnotify). Migrations
run before READY=1, when systemd's watchdog is not yet armed; only TimeoutStartSec applies, and
the extension covers it. docs/storage.md has the rule.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shelldon import sdnotify
from shelldon.core.history import recall

log = logging.getLogger(__name__)

# Over this many rows, a migration may take long on a Pi (an index or a rebuild over 1M rows):
# core asks systemd for more start time before it (EXTEND_TIMEOUT_USEC).
LONG_MIGRATION_ROWS: Final = 50_000
MIGRATION_EXTEND_S: Final = 600.0

_V1: Final = """
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

# AUTOINCREMENT: a journal id is never reused after its row is cleared, so an audit line that
# carries an old id can never be mistaken for a later turn's op on replay.
_V2: Final = """
CREATE TABLE turn_journal (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id TEXT NOT NULL,
    ts      TEXT NOT NULL,
    items   TEXT NOT NULL
);
"""

# Reminders: `due` is the next firing on the wall clock (UTC). A relative reminder set while the
# clock was unsynchronised also has a monotonic deadline on its boot (boot_id, mono_due). `source`
# (the turn and the op's index) makes a replayed op add nothing. Queue items stay until a
# transport names them delivered.
_V3: Final = """
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    ts    TEXT NOT NULL
);
CREATE TABLE reminders (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    text       TEXT NOT NULL,
    due        TEXT NOT NULL,
    zone       TEXT NOT NULL,
    repeat     TEXT NOT NULL DEFAULT '' CHECK (repeat IN ('', 'daily', 'weekly')),
    local_at   TEXT NOT NULL DEFAULT '',
    boot_id    TEXT,
    mono_due   REAL,
    status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'cancelled')),
    source     TEXT UNIQUE,
    created    TEXT NOT NULL,
    fired      INTEGER NOT NULL DEFAULT 0,
    last_fired TEXT
);
CREATE INDEX reminders_pending ON reminders (status, due);
CREATE TABLE proactive_queue (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL CHECK (kind IN ('reminder', 'checkin', 'notice')),
    text        TEXT NOT NULL,
    created     TEXT NOT NULL,
    late        INTEGER NOT NULL DEFAULT 0,
    reminder_id INTEGER,
    delivered   TEXT,
    channel     TEXT
);
CREATE INDEX proactive_undelivered ON proactive_queue (delivered, id);
"""


# One row (id = 1). The code is kept only as its sha256; `code_failures` closes pairing at 5.
# The outbox's AUTOINCREMENT: a confirmation naming an old id can never delete a newer row.
_V4: Final = """
CREATE TABLE telegram_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    chat_id        INTEGER,
    paired_at      TEXT,
    last_update_id INTEGER NOT NULL DEFAULT 0,
    last_update_at TEXT,
    code_hash      TEXT,
    code_expires   TEXT,
    code_failures  INTEGER NOT NULL DEFAULT 0,
    bot_username   TEXT NOT NULL DEFAULT ''
);
INSERT INTO telegram_state (id) VALUES (1);
CREATE TABLE telegram_updates (
    update_id INTEGER PRIMARY KEY,
    at        TEXT NOT NULL
);
CREATE TABLE telegram_outbox (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id   INTEGER NOT NULL,
    text      TEXT NOT NULL,
    update_id INTEGER,
    created   TEXT NOT NULL
);
"""

# The scheduler counts today's owner turns from history (core.proactive.scheduler) through this
# index.
_MESSAGES_BY_TIME: Final = """
CREATE INDEX IF NOT EXISTS messages_role_ts ON messages (role, ts);
"""

# Curated entries' terms, kept by core, read by workers (core.retrieval.terms, docs/performance.md).
_ENTRY_TERMS: Final = """
CREATE TABLE IF NOT EXISTS entry_terms (
    id             TEXT PRIMARY KEY,
    collection     TEXT NOT NULL,
    title          TEXT NOT NULL,
    body           TEXT NOT NULL,
    provenance     TEXT NOT NULL,
    confidence     REAL NOT NULL,
    updated        REAL NOT NULL,
    last_confirmed REAL NOT NULL,
    depends_on     TEXT NOT NULL,
    title_terms    TEXT NOT NULL,
    tag_terms      TEXT NOT NULL,
    body_terms     TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entry_terms_state (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    tree TEXT NOT NULL
);
DROP INDEX IF EXISTS messages_role_ts;
CREATE INDEX IF NOT EXISTS messages_owner_ts ON messages (ts) WHERE role = 'owner';
DROP TRIGGER IF EXISTS messages_ai;
DROP TABLE IF EXISTS messages_vocab;
DROP TABLE IF EXISTS messages_fts;
"""

# The stem index is filled in batches (core.history.recall.index_new_rows), not per row.
_BATCHED_STEM: Final = """
DROP TRIGGER IF EXISTS messages_stem_ai;
"""

# A turn that came from a voice note (docs/telegram.md): the owner's row of `turn_id` was heard.
_VOICE_NOTES: Final = """
CREATE TABLE IF NOT EXISTS voice_notes (
    turn_id   TEXT PRIMARY KEY,
    update_id INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('voice', 'audio')),
    seconds   INTEGER NOT NULL,
    at        TEXT NOT NULL
) WITHOUT ROWID;
"""


def _outbox_speak(conn: sqlite3.Connection) -> None:
    """`telegram_outbox.speak`, unless a re-run finds it there (ALTER has no IF NOT EXISTS)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(telegram_outbox)")}
    if "speak" not in columns:
        conn.execute("ALTER TABLE telegram_outbox ADD COLUMN speak INTEGER NOT NULL DEFAULT 0")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    # Work SQL alone cannot say (a backfill computed in Python), run in the same transaction.
    then: Callable[[sqlite3.Connection], None] | None = None

    def statements(self) -> list[str]:
        """The script's statements; a trigger body's inner `;` stays with its CREATE TRIGGER."""
        statements: list[str] = []
        buffer = ""
        for line in self.sql.strip().splitlines(keepends=True):
            buffer += line
            if sqlite3.complete_statement(buffer):
                statements.append(buffer.strip())
                buffer = ""
        return statements


MIGRATIONS: Final = (
    Migration(1, "messages, FTS5, learnings, turn_usage", _V1),
    Migration(2, "turn journal", _V2),
    Migration(3, "reminders", _V3),
    Migration(4, "telegram", _V4),
    Migration(
        5, "recall: stemmed index, document frequencies", "", then=recall.ensure_recall_schema
    ),
    Migration(6, "messages by time", _MESSAGES_BY_TIME),
    Migration(7, "entry terms", _ENTRY_TERMS),
    Migration(8, "batched stem index", _BATCHED_STEM, then=recall.start_batched_index),
    Migration(9, "voice notes", _VOICE_NOTES, then=_outbox_speak),
)
LATEST: Final = MIGRATIONS[-1].version

Extend = Callable[[float], bool]


def user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _rows(conn: sqlite3.Connection) -> int:
    """How big the store is, without a table scan (ids are append-only); 0 before migration 1."""
    try:
        return int(conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0)
    except sqlite3.OperationalError:  # no messages table yet
        return 0


def _pending(version: int) -> list[Migration]:
    # A version-1 store may predate some of migration 1's tables (see the module docstring).
    since = 0 if version == 1 else version
    return [m for m in MIGRATIONS if m.version > since]


def migrate(
    conn: sqlite3.Connection,
    *,
    name: str = "history.db",
    extend: Extend = sdnotify.extend_timeout,
) -> list[int]:
    """Bring the store to LATEST. Returns the versions applied (empty when it was current).

    `conn` is in autocommit mode (isolation_level=None). RuntimeError when the store is newer
    than this code. `extend` asks systemd for more start time (tests pass a recorder)."""
    version = user_version(conn)
    if version > LATEST:
        raise RuntimeError(
            f"{name} is at schema version {version}, but this shelldon knows versions up to "
            f"{LATEST}: it was written by a newer release (downgrades are not supported)"
        )
    applied: list[int] = []
    for migration in _pending(version):
        rows = _rows(conn)
        if rows > LONG_MIGRATION_ROWS:
            extend(MIGRATION_EXTEND_S)
        log.info("%s: migration %d (%s), %d rows", name, migration.version, migration.name, rows)
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = user_version(conn)
            if current >= migration.version and not (migration.version == current == 1):
                conn.execute("ROLLBACK")  # another process migrated it meanwhile
                continue
            for statement in migration.statements():
                conn.execute(statement)
            if migration.then is not None:
                migration.then(conn)
            conn.execute(f"PRAGMA user_version = {migration.version}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        applied.append(migration.version)
    return applied
