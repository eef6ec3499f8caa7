"""HistoryStore and open_readonly against real sqlite files."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shelldon.clock import iso
from shelldon.core.history import store as history
from shelldon.core.history.store import HistoryStore, open_readonly

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture
def db(home: Path) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    return home / "history.db"


@pytest.fixture
def store(db: Path) -> HistoryStore:
    return HistoryStore.open(db)


def test_schema_is_the_seeds(store: HistoryStore, db: Path) -> None:
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"messages", "messages_stem", "learnings"} <= tables
    cols = [r[1] for r in conn.execute("PRAGMA table_info(messages)")]
    assert cols == ["id", "turn_id", "role", "content", "ts"]
    lcols = [r[1] for r in conn.execute("PRAGMA table_info(learnings)")]
    assert lcols == [
        "id",
        "pattern_key",
        "observation",
        "recurrence_count",
        "status",
        "first_seen",
        "last_seen",
    ]
    index_sql = conn.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'learnings_pattern_key'"
    ).fetchone()[0]
    assert "UNIQUE" in index_sql and "WHERE pattern_key IS NOT NULL" in index_sql
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    # None: the seed's went in migration 7, the stem index's in 8 (core indexes in batches).
    assert triggers == set()


def test_role_check_rejects_other_roles(store: HistoryStore, db: Path) -> None:
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO messages (role, content, ts) VALUES ('system', 'x', 'y')")


def test_record_turn_writes_both_rows_in_order(store: HistoryStore) -> None:
    store.record_turn("t1", "hello pet", "hello owner", NOW)
    rows = store.recent(10)
    assert [(r["turn_id"], r["role"], r["content"]) for r in rows] == [
        ("t1", "owner", "hello pet"),
        ("t1", "pet", "hello owner"),
    ]
    assert rows[0]["ts"] == iso(NOW) == "2026-11-29T21:00:00Z"


def test_record_turn_is_one_transaction(store: HistoryStore, db: Path) -> None:
    # A trigger that fails the pet row proves the owner row is rolled back with it.
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER refuse_pet BEFORE INSERT ON messages WHEN new.role = 'pet' "
        "BEGIN SELECT RAISE(ABORT, 'no pets'); END"
    )
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError):
        store.record_turn("t1", "owner text", "pet text", NOW)
    assert store.recent(10) == []
    conn.execute("DROP TRIGGER refuse_pet")
    conn.commit()
    store.record_turn("t2", "a", "b", NOW)
    assert len(store.recent(10)) == 2


def test_naive_timestamps_are_refused(store: HistoryStore) -> None:
    with pytest.raises(ValueError):
        store.record_turn("t", "a", "b", datetime(2026, 1, 1))


def test_recent_is_oldest_to_newest_and_bounded(store: HistoryStore) -> None:
    for i in range(5):
        store.record_turn(f"t{i}", f"owner {i}", f"pet {i}", NOW + timedelta(seconds=i))
    rows = store.recent(3)
    assert [r["content"] for r in rows] == ["pet 3", "owner 4", "pet 4"]
    assert store.recent(0) == []
    assert store.recent(-5) == []
    assert len(store.recent(10**9)) == 10


def test_search_most_relevant_first_and_hostile_queries(store: HistoryStore) -> None:
    store.record_turn("t1", "my cat is called Tom", "Tom the cat, noted", NOW)
    store.record_turn("t2", "I like the weather", "weather is nice", NOW)
    store.record_turn("t3", "cat cat cat cat", "so many cats", NOW)
    hits = store.search("cat?", 5)
    assert hits, "the cat rows are found"
    assert hits[0]["content"] == "cat cat cat cat"  # bm25: densest match first
    # Every row holding the word, before any row that is only next to one (neighbours follow).
    holding = [h["turn_id"] for h in hits if "cat" in h["content"].casefold()]
    assert set(holding) == {"t1", "t3"}
    assert [h["turn_id"] for h in hits[: len(holding)]] == holding
    for hostile in ['"', "cat AND", "NEAR(", "content:cat", "*", "^cat", "(((", "", "   ", "-"]:
        assert isinstance(store.search(hostile, 5), list)
    assert store.search("", 5) == []
    assert store.search("cat", 0) == []


def test_search_returns_empty_on_sqlite_error(store: HistoryStore, db: Path) -> None:
    store.record_turn("t1", "cats", "dogs", NOW)
    reader = open_readonly(db)
    reader._conn.close()  # any sqlite failure, here a closed connection
    assert reader.search("cats", 3) == []


def test_search_budget_interrupts_and_returns_empty(store: HistoryStore, db: Path) -> None:
    for i in range(300):
        store.record_turn(f"t{i}", f"common word {i}", f"common reply {i}", NOW)
    reader = open_readonly(db, search_budget_s=-1.0)  # already past the deadline
    assert reader.search("common", 5) == []
    assert len(open_readonly(db).search("common", 5)) == 5


def test_readonly_handle_has_no_write_path(store: HistoryStore, db: Path) -> None:
    store.record_turn("t1", "a", "b", NOW)
    reader = open_readonly(db)
    for name in ("record_turn", "capture_learning", "resolve_learning", "pending_learnings"):
        assert not hasattr(reader, name)
    with pytest.raises(sqlite3.OperationalError):
        reader._conn.execute(
            "INSERT INTO messages (turn_id, role, content, ts) VALUES ('x', 'owner', 'y', 'z')"
        )
    assert [r["content"] for r in reader.recent(5)] == ["a", "b"]


def test_readonly_of_missing_file_raises(home: Path) -> None:
    with pytest.raises(sqlite3.OperationalError):
        open_readonly(home / "nope.db")


def test_missing_fts5_is_a_clear_runtime_error(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "_fts5_available", lambda: False)
    with pytest.raises(RuntimeError, match="FTS5"):
        HistoryStore.open(db)
    assert not db.exists(), "refused before creating anything"
    with pytest.raises(RuntimeError, match="FTS5"):
        open_readonly(db)


def test_the_fts5_probe_sees_this_sqlite() -> None:
    assert history._fts5_available()


def test_add_column_later_is_non_breaking(store: HistoryStore, db: Path) -> None:
    store.record_turn("t1", "before the migration", "ok", NOW)
    store.close()
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE messages ADD COLUMN user_id TEXT")
    conn.execute("ALTER TABLE messages ADD COLUMN chat_id TEXT")
    conn.commit()
    conn.close()
    again = HistoryStore.open(db)
    again.record_turn("t2", "after the migration", "still ok", NOW)
    rows = again.recent(10)
    assert [r["content"] for r in rows][-2:] == ["after the migration", "still ok"]
    assert set(rows[0]) == {"id", "turn_id", "role", "content", "ts"}
    hits = open_readonly(db).search("migration", 5)
    assert [h["turn_id"] for h in hits][:2] == ["t2", "t1"]  # then their replies, as neighbours


# --- learnings -----------------------------------------------------------------------------


def test_capture_upsert_counts_recurrence(store: HistoryStore) -> None:
    first = store.capture_learning("owner prefers terse replies", "terse", NOW)
    second = store.capture_learning("owner likes it short", "terse", NOW + timedelta(hours=1))
    assert first == second
    row = store.learning(first or 0)
    assert row is not None
    assert row["recurrence_count"] == 2
    assert row["observation"] == "owner prefers terse replies"
    assert row["first_seen"] == iso(NOW)
    assert row["last_seen"] == iso(NOW + timedelta(hours=1))


def test_blank_key_is_no_key(store: HistoryStore) -> None:
    ids = {store.capture_learning("same words", key, NOW) for key in (None, "", "   ", None)}
    assert len(ids) == 4
    rows = store.pending_learnings(10)
    assert all(r["pattern_key"] is None for r in rows)


def test_empty_observation_is_skipped_and_logged(
    store: HistoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="shelldon.core.history.store"):
        assert store.capture_learning("   \n", "k", NOW) is None
    assert "empty observation" in caplog.text
    assert store.pending_learnings(10) == []


def test_pruned_learning_that_recurs_returns_to_pending(store: HistoryStore) -> None:
    lid = store.capture_learning("owner is in the Pacific timezone", "tz", NOW)
    assert lid is not None
    assert store.resolve_learning(lid, "pruned") is True
    assert store.pending_learnings(10) == []
    assert store.capture_learning("owner mentioned PST again", "tz", NOW) == lid
    row = store.learning(lid)
    assert row is not None and row["status"] == "pending" and row["recurrence_count"] == 2


def test_upsert_is_one_statement() -> None:
    statements = [s for s in history._UPSERT_LEARNING.split(";") if s.strip()]
    assert len(statements) == 1 and "ON CONFLICT" in statements[0]


def test_pending_most_recurrent_first_and_bounded(store: HistoryStore) -> None:
    for key, times in (("a", 1), ("b", 3), ("c", 2)):
        for _ in range(times):
            store.capture_learning(f"obs {key}", key, NOW)
    assert [r["pattern_key"] for r in store.pending_learnings(10)] == ["b", "c", "a"]
    assert [r["pattern_key"] for r in store.pending_learnings(2)] == ["b", "c"]
    for i in range(history.MAX_PENDING + 5):
        store.capture_learning(f"many {i}", None, NOW)
    assert len(store.pending_learnings(10**6)) == history.MAX_PENDING


def test_resolve_only_changes_pending_rows(
    store: HistoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    lid = store.capture_learning("x", "k", NOW)
    assert lid is not None
    assert store.resolve_learning(lid, "promoted") is True
    with caplog.at_level(logging.INFO, logger="shelldon.core.history.store"):
        assert store.resolve_learning(lid, "pruned") is False  # already resolved
        assert store.resolve_learning(99_999, "pruned") is False  # invented id
    assert "no-op" in caplog.text
    row = store.learning(lid)
    assert row is not None and row["status"] == "promoted"
    with pytest.raises(ValueError):
        store.resolve_learning(lid, "deleted")


def test_two_writer_processes_never_duplicate_or_lose_a_learning(db: Path) -> None:
    """The turn and the dream both capture: the unique partial index + one-statement UPSERT
    must leave exactly one row per key with every capture counted."""
    HistoryStore.open(db).close()
    keys, rounds, writers = 40, 5, 2
    go_read, go_write = os.pipe()
    pids = []
    for _ in range(writers):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(go_write)
                store = HistoryStore.open(db)
                os.read(go_read, 1)  # barrier: every writer starts together
                for _ in range(rounds):
                    for k in range(keys):
                        store.capture_learning(f"obs {k}", f"key{k}", NOW)
                code = 0
            finally:
                os._exit(code)
        pids.append(pid)
    os.close(go_read)
    os.write(go_write, b"x" * writers)
    os.close(go_write)
    for pid in pids:
        assert os.waitpid(pid, 0)[1] == 0
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT pattern_key, recurrence_count FROM learnings").fetchall()
    assert len(rows) == keys
    assert {count for _, count in rows} == {rounds * writers}


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=120) | st.sampled_from(['"', "NEAR(", "\ud800x", "a AND", "*", "x:y"]))
def test_search_never_raises(store: HistoryStore, query: str) -> None:
    if not store.recent(1):
        store.record_turn("t1", "the cat and the tea", "NEAR the park", NOW)
    assert isinstance(store.search(query, 5), list)


def test_one_store_shared_by_threads_serialises_its_transactions(store: HistoryStore) -> None:
    """Core's server threads and the dream ticker share one store (one sqlite connection)."""
    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            for i in range(60):
                store.record_turn(f"{name}-{i}", f"cats {name} {i}", "ok", NOW)
                store.capture_learning(f"obs {i}", f"key{i % 7}", NOW)
                store.search("cats", 3)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(f"t{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(store.recent(history.MAX_RECENT)) == 480
    assert sum(r["recurrence_count"] for r in store.pending_learnings(50)) == 240


def test_core_and_the_readers_page_caches_are_bounded(tmp_path: Path) -> None:
    """sqlite's default cache (2,000 KiB a connection) grows with the store until full: a pet
    of some months carried it all. Core's handle and a reader's are held to CACHE_KIB."""
    db = tmp_path / "history.db"
    store = HistoryStore.open(db)
    reader = open_readonly(db)
    try:
        for conn in (store._conn, reader._conn):
            assert conn.execute("PRAGMA cache_size").fetchone()[0] == -history.CACHE_KIB
        assert history.CACHE_KIB < 2000
    finally:
        reader.close()
        store.close()
