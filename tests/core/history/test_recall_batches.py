"""Recall's stem index filled in batches (core/history/recall.py index_new_rows, migration 8) on
real sqlite files: rows not yet batched are still found, counted and never lost or indexed twice."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.core.history import migrations, recall
from shelldon.core.history.store import HistoryStore, open_readonly

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)
FIXTURES = Path(__file__).parents[1] / "fixtures"
PYTHON_ROOT = Path(__file__).resolve().parents[3] / "python"


@pytest.fixture
def db(home: Path) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    return home / "history.db"


def _talk(store: HistoryStore, turns: int, *, start: int = 0) -> None:
    for i in range(start, start + turns):
        store.record_turn(f"t{i}", f"the weather is mild today {i}", "nice", NOW)


def _in_stem_index(path: Path, word: str) -> set[int]:
    conn = sqlite3.connect(path)
    try:
        got = conn.execute(
            "SELECT rowid FROM messages_stem WHERE messages_stem MATCH ?", (f'"{word}"',)
        )
        return {int(r[0]) for r in got}
    finally:
        conn.close()


def _watermark(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute(
            "SELECT value FROM recall_state WHERE key = ?", (recall.INDEXED_KEY,)
        ).fetchone()
        return int(row[0])
    finally:
        conn.close()


def _index_matches_the_rows(path: Path) -> None:
    """FTS5's own check of an external-content index against its table: no row missing, none
    twice (raises sqlite3.DatabaseError otherwise)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("INSERT INTO messages_stem(messages_stem, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()


def test_rows_are_indexed_in_batches_of_the_recent_window(db: Path) -> None:
    store = HistoryStore.open(db)
    try:
        turns = recall.STEM_BATCH_ROWS // 2
        _talk(store, turns - 1)
        assert store.index_history() == 0  # one row short of a batch: nothing written
        assert recall.unindexed_rows(store._conn) == recall.STEM_BATCH_ROWS - 2
        _talk(store, 1, start=turns - 1)
        assert store.index_history() == recall.STEM_BATCH_ROWS
        assert recall.unindexed_rows(store._conn) == 0
    finally:
        store.close()
    _index_matches_the_rows(db)


def test_the_batch_is_the_worker_prompts_recent_window() -> None:
    from shelldon.worker.prompt import RECENT_WINDOW

    assert recall.STEM_BATCH_ROWS == RECENT_WINDOW


def test_a_row_not_yet_batched_is_found_by_every_handle(db: Path) -> None:
    store = HistoryStore.open(db)
    try:
        _talk(store, recall.STEM_BATCH_ROWS // 2)
        store.index_history()
        store.record_turn("late", "my quokka is called Pip", "a quokka, lovely", NOW)
        late = {r["id"] for r in store.recent(2)}
        assert not _in_stem_index(db, "quokka")  # past the watermark: not in the index yet
        # (the rows holding the word first; their neighbours may follow)
        assert {r["id"] for r in store.search("what is my quokka called?", 5)[:2]} == late
        reader = open_readonly(db)  # the worker's handle
        try:
            assert {r["id"] for r in reader.search("quokkas", 5)[:2]} == late  # stemmed alike
            assert reader.search("weather", 100)  # indexed rows still found beside the tail
        finally:
            reader.close()
    finally:
        store.close()
    assert _in_stem_index(db, "quokka") == late  # close takes the rest


def test_counts_include_the_unindexed_rows_whatever_the_fold_and_the_watermark(
    db: Path,
) -> None:
    store = HistoryStore.open(db)
    tokenizer = recall._tokenizer()
    try:
        for i in range(recall.FOLD_ROWS // 2 + 9):
            store.record_turn(f"t{i}", f"cats and dogs {i}", f"cats {i % 3}", NOW)
            if i % 7 == 0:
                store.index_history()  # the watermark sometimes behind the fold, sometimes ahead
            conn = store._conn
            state = recall._state(conn)
            top = int(conn.execute("SELECT max(id) FROM messages").fetchone()[0])
            terms = recall._query_terms(
                conn,
                tokenizer,
                '"cats" OR "dogs"',
                state["folded_through"],
                state[recall.INDEXED_KEY],
                recall.DEFAULT,
            )
            docs = {t.stem: t.docs for t in terms}
            assert docs == {"cat": top, "dog": top // 2}, (i, state)
    finally:
        store.close()


def test_a_kill_before_the_batch_leaves_the_watermark_and_the_next_open_indexes(db: Path) -> None:
    HistoryStore.open(db).close()
    child = textwrap.dedent(
        f"""
        import os, signal, sys
        from datetime import datetime, UTC
        from shelldon.core.history.store import HistoryStore
        store = HistoryStore.open(sys.argv[1])
        for i in range({recall.STEM_BATCH_ROWS // 2 - 1}):
            store.record_turn(f"t{{i}}", f"the wombat ate carrots {{i}}", "ok", datetime.now(UTC))
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_ROOT)}
    done = subprocess.run([sys.executable, "-c", child, str(db)], env=env, check=False)
    assert done.returncode == -signal.SIGKILL
    assert _watermark(db) == 0 and not _in_stem_index(db, "wombat")
    reader = open_readonly(db)
    try:
        assert len(reader.search("wombat", 50)) == recall.STEM_BATCH_ROWS - 2
    finally:
        reader.close()
    store = HistoryStore.open(db)  # core's next start
    try:
        assert recall.unindexed_rows(store._conn) == 0
        assert len(_in_stem_index(db, "wombat")) == recall.STEM_BATCH_ROWS // 2 - 1
    finally:
        store.close()
    _index_matches_the_rows(db)


def test_a_kill_inside_the_batch_rolls_the_index_and_its_watermark_back_together(
    db: Path,
) -> None:
    store = HistoryStore.open(db)
    _talk(store, 3)
    store._conn.close()  # as a killed core: no closing batch
    child = textwrap.dedent(
        """
        import os, signal, sqlite3, sys
        from shelldon.core.history import recall
        conn = sqlite3.connect(sys.argv[1], isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        assert recall.index_new_rows(conn, at_least=1) == 6
        os.kill(os.getpid(), signal.SIGKILL)  # before COMMIT
        """
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_ROOT)}
    done = subprocess.run([sys.executable, "-c", child, str(db)], env=env, check=False)
    assert done.returncode == -signal.SIGKILL
    assert _watermark(db) == 0 and not _in_stem_index(db, "weather")
    HistoryStore.open(db).close()
    assert _watermark(db) == 6 and len(_in_stem_index(db, "weather")) == 3
    _index_matches_the_rows(db)


def test_migration_8_keeps_the_release_befores_store_recalled(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    shutil.copyfile(FIXTURES / "history_release_v7.db", db)
    store = HistoryStore.open(db)
    try:
        assert migrations.user_version(store._conn) == migrations.LATEST >= 8
        triggers = store._conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        assert not triggers.fetchall()
        top = int(store._conn.execute("SELECT max(id) FROM messages").fetchone()[0])
        assert _watermark(db) == top  # the trigger had indexed every row
        assert any("green tea" in r["content"] for r in store.search("green tea", 5))
        store.record_turn("new", "the heron came back to the pond", "a heron!", NOW)
        assert [r["turn_id"] for r in store.search("heron", 5)[:2]] == ["new", "new"]
    finally:
        store.close()
    _index_matches_the_rows(db)


def test_a_turns_commit_writes_no_stem_index_pages(db: Path) -> None:
    """The per-row trigger wrote an FTS5 segment, its structure record, an idx and a docsize row
    into every turn's commit (~6 pages). One turn before its batch now writes the message rows'
    leaf and the owner index's leaf (and the file header when the file grows): a bound that fails
    if the trigger, or any other per-turn index of the text, comes back."""
    store = HistoryStore.open(db)
    try:
        conn = store._conn
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        _talk(store, recall.STEM_BATCH_ROWS)  # a used store: batches and folds behind it
        store.index_history(at_least=1)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        wal = db.with_name(db.name + "-wal")
        assert wal.stat().st_size == 0
        store.journal_turn("t", "my quokka likes carrots and warm sunny rocks", "noted", NOW)
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
        frames = (wal.stat().st_size - 32) // (24 + page)
        assert 1 <= frames <= 4, frames
    finally:
        store.close()


def test_a_search_reads_at_most_max_unindexed_rows_past_the_index(db: Path) -> None:
    """Only when batches keep failing does the tail outgrow a batch; a search then reads its
    newest MAX_UNINDEXED rows (its work stays bounded), and the next batch brings the rest back."""
    store = HistoryStore.open(db)
    try:
        with store.writing() as conn:  # rows no batch has taken, as if every batch had failed
            conn.executemany(
                "INSERT INTO messages (turn_id, role, content, ts) VALUES ('x', 'owner', ?, ?)",
                [(text, NOW.isoformat()) for text in _tail_texts()],
            )
        assert recall.unindexed_rows(store._conn) == recall.MAX_UNINDEXED + 1
        assert store.search("aardvark", 5) == []  # the oldest, past the bound
        assert [r["content"] for r in store.search("zebra", 5)][:1] == ["the zebra is new"]
        store.index_history()
        assert [r["content"] for r in store.search("aardvark", 5)][:1] == ["an aardvark, old"]
    finally:
        store.close()


def _tail_texts() -> list[str]:
    filler = [f"nothing much {i}" for i in range(recall.MAX_UNINDEXED - 1)]
    return ["an aardvark, old", *filler, "the zebra is new"]


def test_a_writer_without_the_post_reply_batch_still_keeps_the_tail_short(db: Path) -> None:
    """A script or a test records turns and never runs core's batch: the turn's own transaction
    indexes the tail once it reaches CATCH_UP_ROWS, so no row falls past what a search reads."""
    store = HistoryStore.open(db)
    try:
        store.record_turn("first", "the aardvark dug a hole", "deep", NOW)
        for i in range(recall.MAX_UNINDEXED):  # twice MAX_UNINDEXED rows, never batched by hand
            store.record_turn(f"t{i}", f"nothing much {i}", "ok", NOW)
            assert recall.unindexed_rows(store._conn) < recall.CATCH_UP_ROWS
        assert [r["turn_id"] for r in store.search("aardvark", 5)][:1] == ["first"]
    finally:
        store.close()
