"""Recall drops the words nearly every row shares, so an old, specific row is still found."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore, open_readonly

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture
def store(home: Path) -> HistoryStore:
    home.mkdir(parents=True, exist_ok=True)
    return HistoryStore.open(home / "history.db")


def _fill(store: HistoryStore, chatter: int) -> None:
    store.record_turn("old", "the zebra escaped from the zoo", "oh no", NOW)
    for i in range(chatter):
        store.record_turn(f"t{i}", f"the weather is the same as day {i}", "the usual", NOW)


def test_an_old_specific_row_beats_a_flood_of_common_words(store: HistoryStore) -> None:
    # More rows share "the" than the candidate stage keeps: without dropping it, the newest
    # chatter fills the candidates and the zebra row never reaches ranking.
    _fill(store, recall.DEFAULT.candidates + 50)
    hits = open_readonly(store.path).search("did the zebra escape the zoo?", 3)
    assert hits and hits[0]["turn_id"] == "old"


def test_a_query_of_only_common_words_keeps_its_rarest(store: HistoryStore) -> None:
    _fill(store, 60)
    hits = store.search("the same", 5)
    assert hits, "a query made only of common words still recalls something"
    assert all("same" in h["content"] for h in hits)


def test_small_histories_keep_every_word(store: HistoryStore) -> None:
    store.record_turn("a", "the cat sat", "ok", NOW)
    store.record_turn("b", "the dog ran", "ok", NOW)
    assert {h["turn_id"] for h in store.search("the", 5)} == {"a", "b"}


def test_recall_needs_no_vocabulary_table(store: HistoryStore) -> None:
    # Migration 7 dropped the seed's unstemmed index and its fts5vocab view: recall never read them.
    _fill(store, 60)
    tables = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
    assert "messages_vocab" not in tables and "messages_fts" not in tables
    assert store.search("zebra zoo", 3)[0]["turn_id"] == "old"
