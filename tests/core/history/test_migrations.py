"""history.db's numbered migrations, each from a real store the release before it made.

The stores are binary fixtures made by the old code itself: tests/core/fixtures/
make_history_fixtures.py reads that build's core/history.py out of git (194cab7, the last
release before migrations; e8e552e, the first build with a schema), lets its HistoryStore write a
few turns and learnings, and VACUUMs the file. Tests open a copy, never the fixture."""

from __future__ import annotations

import shutil
import socket
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.core.history import migrations
from shelldon.core.history.store import HistoryStore, TurnUsage, open_readonly

FIXTURES = Path(__file__).parents[1] / "fixtures"
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
# The store each migration starts from: one made by the release before it.
RELEASE_BEFORE = {
    2: "history_release_v1.db",
    3: "history_release_v2.db",
    4: "history_release_v3.db",
    5: "history_release_v4.db",
    6: "history_release_v5.db",
    7: "history_release_v6.db",
    8: "history_release_v7.db",
    9: "history_release_v8.db",
}


def _dropped_on_purpose(name: str) -> bool:
    """Dropped by migration 7 (the seed's unstemmed index, the index on every row's role) or 8
    (the stem index's per-row trigger)."""
    table = name.partition(" ")[2]  # "<type> <name>"
    return table.startswith("messages_fts") or table in (
        "messages_vocab",
        "messages_ai",
        "messages_role_ts",
        "messages_stem_ai",
    )


def _store_from(fixture: str, path: Path) -> Path:
    """A copy of a fixture store at `path`: the tests migrate and write to it."""
    shutil.copyfile(FIXTURES / fixture, path)
    return path


def _schema(path: Path) -> dict[str, str]:
    """Every schema object (tables, indexes, triggers, the FTS shadow tables) and its SQL,
    whitespace folded: what two stores must share to be the same schema."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    finally:
        conn.close()
    return {f"{kind} {name}": " ".join((sql or "").split()) for kind, name, sql in rows}


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _migrate(path: Path, **kwargs: object) -> list[int]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        return migrations.migrate(conn, **kwargs)  # type: ignore[arg-type]
    finally:
        conn.close()


def test_migration_1_makes_exactly_the_last_releases_schema(tmp_path: Path) -> None:
    release = _store_from("history_release_v1.db", tmp_path / "release.db")
    fresh = tmp_path / "fresh.db"
    conn = sqlite3.connect(fresh, isolation_level=None)
    for statement in migrations.MIGRATIONS[0].statements():
        conn.execute(statement)
    conn.close()
    assert _schema(fresh) == _schema(release)
    assert "table messages_fts_data" in _schema(fresh)  # FTS5's shadow tables are compared too


def test_every_later_migration_has_the_store_of_the_release_before_it() -> None:
    later = [m.version for m in migrations.MIGRATIONS[1:]]
    assert sorted(RELEASE_BEFORE) == later, "add a fixture made by the release before it"
    assert [m.version for m in migrations.MIGRATIONS] == list(range(1, migrations.LATEST + 1))


@pytest.mark.parametrize("version", sorted(RELEASE_BEFORE))
def test_a_migration_upgrades_the_store_of_the_release_before_it(
    tmp_path: Path, version: int
) -> None:
    db = _store_from(RELEASE_BEFORE[version], tmp_path / "history.db")
    before = _schema(db)
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT * FROM messages ORDER BY id").fetchall()
    learnings = conn.execute("SELECT * FROM learnings ORDER BY id").fetchall()
    conn.close()
    applied = _migrate(db)
    assert applied[-1] == migrations.LATEST and version in applied
    assert _version(db) == migrations.LATEST
    after = _schema(db)
    # Nothing of the old changed, but what migrations 7 and 8 drop on purpose: the seed's
    # unstemmed index (recall reads only messages_stem), the scheduler's index on every row's
    # role, and the stem index's per-row trigger (core indexes in batches).
    kept = {name: sql for name, sql in before.items() if not _dropped_on_purpose(name)}
    # Migration 9 adds one column to the outbox (the rows to speak): the rest of it is as it was.
    outbox = after.get("table telegram_outbox")
    if outbox is not None:
        assert outbox.endswith(", speak INTEGER NOT NULL DEFAULT 0)")
        after["table telegram_outbox"] = outbox.replace(", speak INTEGER NOT NULL DEFAULT 0", "")
    assert {name: after.get(name) for name in kept} == kept
    assert not any(_dropped_on_purpose(name) for name in after)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT * FROM messages ORDER BY id").fetchall() == rows
    assert conn.execute("SELECT * FROM learnings ORDER BY id").fetchall() == learnings
    conn.close()


def test_the_last_releases_store_opens_and_serves_every_call(tmp_path: Path) -> None:
    db = _store_from("history_release_v1.db", tmp_path / "history.db")
    with HistoryStore.open(db) as store:
        assert isinstance(store, HistoryStore)
        found = {r["content"] for r in store.search("green tea", 5)}
        assert "I usually drink green tea in the morning" in found  # the FTS index carried over
        assert store.pending_learnings()[0]["recurrence_count"] == 2
        journal_id = store.journal_turn(
            "t-new", "hello", "hi", NOW, usage=TurnUsage("offline"), items="[]"
        )
        assert journal_id == 1 and [row.id for row in store.pending_journal()] == [1]
        assert store.counts()["messages"] == 8
        assert store.usage_since(datetime(2026, 11, 29, tzinfo=UTC)).turns == 3
    assert _version(db) == migrations.LATEST
    reader = open_readonly(db)
    assert [r["content"] for r in reader.recent(2)] == ["hello", "hi"]
    reader.close()


def test_a_version_1_store_from_before_vocab_and_usage_gets_them(tmp_path: Path) -> None:
    db = _store_from("history_early_v1.db", tmp_path / "history.db")
    assert "table turn_usage" not in _schema(db)
    with HistoryStore.open(db) as store:
        assert isinstance(store, HistoryStore)
        store.record_turn("t", "tea again", "tea!", NOW, usage=TurnUsage("offline", 3, 1))
        assert store.usage_since(NOW).turns == 1
    release = _store_from("history_release_v1.db", tmp_path / "release.db")
    _migrate(release)
    assert _schema(db) == _schema(release)


def test_a_fresh_store_is_made_by_the_migrations_and_reopening_changes_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.db"
    HistoryStore.open(db).close()
    assert _version(db) == migrations.LATEST
    schema = _schema(db)
    assert _migrate(db) == []
    assert _schema(db) == schema


def test_a_store_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    HistoryStore.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {migrations.LATEST + 1}")
    conn.close()
    with pytest.raises(RuntimeError, match="newer release"):
        HistoryStore.open(db)
    assert _version(db) == migrations.LATEST + 1


def test_a_failing_migration_leaves_the_store_at_the_version_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _store_from("history_release_v1.db", tmp_path / "history.db")
    broken = migrations.Migration(
        2, "broken", "CREATE TABLE half_done (x);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.MIGRATIONS[0], broken))
    monkeypatch.setattr(migrations, "LATEST", 2)
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        _migrate(db)
    assert _version(db) == 1
    assert "table half_done" not in _schema(db)  # its own transaction rolled back whole
    monkeypatch.undo()
    # The next open runs it again (a version-1 store re-runs 1, then every later one).
    assert _migrate(db) == [m.version for m in migrations.MIGRATIONS]


def _extensions(db: Path, *, rows_over: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Migrate `db`; for each start-time extension asked for, the store's version at that moment
    as another connection sees it (so: asked before the migration committed, or after)."""
    monkeypatch.setattr(migrations, "LONG_MIGRATION_ROWS", rows_over)
    seen: list[int] = []

    def extend(seconds: float) -> bool:
        assert seconds == migrations.MIGRATION_EXTEND_S
        seen.append(_version(db))
        return True

    _migrate(db, extend=extend)
    return seen


def test_a_large_store_asks_for_more_start_time_before_each_migration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _store_from("history_release_v1.db", tmp_path / "history.db")
    # Six rows: over a threshold of five. Migration 1 re-runs on a version-1 store, then each
    # later one, asked for while the store is still at the version before it.
    before_each = [1] + [m.version - 1 for m in migrations.MIGRATIONS[1:]]
    assert _extensions(db, rows_over=5, monkeypatch=monkeypatch) == before_each


def test_a_small_store_does_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _store_from("history_release_v1.db", tmp_path / "history.db")
    assert _extensions(db, rows_over=6, monkeypatch=monkeypatch) == []
    assert _version(db) == migrations.LATEST


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def _datagrams(sock: socket.socket) -> list[str]:
    out: list[str] = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_the_extension_reaches_systemds_notify_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notify_socket: socket.socket
) -> None:
    db = _store_from("history_release_v1.db", tmp_path / "history.db")
    monkeypatch.setattr(migrations, "LONG_MIGRATION_ROWS", 5)
    HistoryStore.open(db).close()
    usec = int(migrations.MIGRATION_EXTEND_S * 1_000_000)
    assert _datagrams(notify_socket) == [f"EXTEND_TIMEOUT_USEC={usec}"] * len(migrations.MIGRATIONS)
    HistoryStore.open(db).close()  # current: no migration, no extension
    assert _datagrams(notify_socket) == []
