"""History recall (core/history/recall.py) on real sqlite files: rarity, case, neighbours, dates."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.core.history import migrations, recall
from shelldon.core.history.store import HistoryStore, open_readonly
from support.scripts import load_script

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)  # a Sunday


@pytest.fixture
def store(home: Path) -> HistoryStore:
    home.mkdir(parents=True, exist_ok=True)
    return HistoryStore.open(home / "history.db")


@pytest.fixture(scope="module")
def chatter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[int]]:
    """50k generated messages, Zipf-distributed words; 'quokka' in 30 rows of the oldest tenth."""
    scale = load_script("recall_scale")
    db = tmp_path_factory.mktemp("chatter") / "history.db"
    scale.fill(db, 50_000, rare_rows=30).close()
    conn = sqlite3.connect(db)
    rare = {r[0] for r in conn.execute("SELECT id FROM messages WHERE content LIKE '%quokka%'")}
    conn.close()
    assert len(rare) == 30 and max(rare) <= 5_000
    return db, rare


def test_a_rare_word_is_found_among_50k_rows_of_common_chatter(
    chatter: tuple[Path, set[int]],
) -> None:
    db, rare = chatter
    reader = open_readonly(db)  # the worker's handle, with the default time budget
    conn = sqlite3.connect(db)
    # The common words of the question really are common, and the newest rows are full of them.
    newest = conn.execute("SELECT content FROM messages ORDER BY id DESC LIMIT 200").fetchall()
    assert sum("the" in c.split() or "you" in c.split() for (c,) in newest) > 100
    hits = [h["id"] for h in reader.search("Hey, what did I tell you about the quokka?", 10)]
    assert hits[0] in rare
    assert len(rare & set(hits)) >= 7, "rows holding the word outrank rows next to them"


def test_the_search_before_this_step_missed_that_rare_word(chatter: tuple[Path, set[int]]) -> None:
    """The failure the issue names, reproduced with the old search (kept in the report script)."""
    db, rare = chatter
    report = load_script("recall_report")
    report.add_baseline_index(db)  # the unstemmed index it read: the store keeps none now
    before = report.before_step_11(sqlite3.connect(db))
    assert not rare & set(before("Hey, what did I tell you about the quokka?", 10))


def test_capitalised_common_words_count_as_common(store: HistoryStore) -> None:
    store.record_turn("zoo", "the zebra escaped from the zoo", "oh no", NOW)
    for i in range(300):
        store.record_turn(f"t{i}", f"Hey hey, what a day {i}", "Hey! Thanks", NOW)
    # "Hey" and "What" are case-folded before the counts are read: both are common, so the
    # newest greetings cannot crowd the zebra out of the candidates.
    hits = open_readonly(store.path).search("Hey What about the Zebra", 3)
    assert hits[0]["turn_id"] == "zoo"
    assert "zebra" in hits[0]["content"]


def test_stemming_finds_other_forms_of_a_word(store: HistoryStore) -> None:
    store.record_turn("t1", "The dog escaped twice yesterday", "Naughty dog", NOW)
    store.record_turn("t2", "I like tea", "Me too", NOW)
    hits = store.search("escaping", 5)
    assert hits and hits[0]["content"] == "The dog escaped twice yesterday"


def test_the_line_after_a_match_comes_back_with_it(store: HistoryStore) -> None:
    store.record_turn("t1", "what should I name my new turtle?", "Call him Sheldon!", NOW)
    for i in range(40):
        store.record_turn(f"c{i}", f"talking about lunch {i}", f"lunch is good {i}", NOW)
    hits = [h["content"] for h in store.search("what did we name the turtle?", 4)]
    # The answer shares no word with the question; it follows the line that does.
    assert hits[:2] == ["what should I name my new turtle?", "Call him Sheldon!"]


def test_a_row_between_two_matches_never_outranks_them(store: HistoryStore) -> None:
    store.record_turn("t1", "before the migration", "ok", NOW)
    store.record_turn("t2", "after the migration", "still ok", NOW)
    hits = [h["content"] for h in store.search("migration", 4)]
    assert set(hits[:2]) == {"before the migration", "after the migration"}


def test_last_week_brings_back_that_weeks_rows(store: HistoryStore) -> None:
    start = NOW - timedelta(days=40)
    for day in range(40):
        when = start + timedelta(days=day)
        store.record_turn(f"d{day}", f"went to the market on day {day}", "nice", when)
    # NOW is Sunday 29 Nov 2026: last week is Mon 16 - Sun 22 Nov, days 27-33 from start.
    hits = store.search("what did I buy last week at the market?", 6, now=NOW)
    assert hits
    days = {int(h["turn_id"][1:]) for h in hits}
    assert days <= set(range(27, 34)), days


def test_a_named_month_ranks_that_months_rows_first(store: HistoryStore) -> None:
    store.record_turn(
        "may", "we went camping by the lake", "lovely", datetime(2026, 5, 3, tzinfo=UTC)
    )
    store.record_turn(
        "jun", "we went camping in the hills", "lovely", datetime(2026, 6, 7, tzinfo=UTC)
    )
    store.record_turn(
        "jul", "we went camping at the coast", "lovely", datetime(2026, 7, 5, tzinfo=UTC)
    )
    hits = store.search("where did we go camping in June?", 3, now=NOW)
    assert hits[0]["turn_id"] == "jun"


def test_document_counts_are_exact_after_batches_and_for_the_unfolded_tail(
    store: HistoryStore,
) -> None:
    turns = recall.FOLD_ROWS // 2 + 5  # two rows a turn: one fold at FOLD_ROWS, then a tail
    for i in range(turns):
        store.record_turn(f"t{i}", f"Cats and dogs {i % 3}", f"cats {i % 5}", NOW)
    store.index_history(at_least=1)  # every row in the stem index: the counts are compared to it
    conn = sqlite3.connect(store.path)
    folded = conn.execute("SELECT value FROM recall_state WHERE key = 'folded_through'").fetchone()
    assert folded[0] == recall.FOLD_ROWS
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, messages_stem, row)")
    exact = dict(conn.execute("SELECT term, doc FROM v").fetchall())
    counted = dict(conn.execute("SELECT term, docs FROM recall_terms").fetchall())
    tail = conn.execute(
        "SELECT count(*) FROM messages_stem WHERE messages_stem MATCH 'cats' AND rowid > ?",
        folded,
    ).fetchone()[0]
    assert tail == 10  # every row after the fold holds "cats"
    assert counted["cat"] + tail == exact["cat"] == 2 * turns
    assert (
        counted["0"]
        + conn.execute(
            "SELECT count(*) FROM messages_stem WHERE messages_stem MATCH '0' AND rowid > ?", folded
        ).fetchone()[0]
        == exact["0"]
    )


def test_a_store_made_before_recall_is_indexed_and_counted_on_open(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    db = home / "history.db"
    store = HistoryStore.open(db)
    store.record_turn("t1", "the parrots escaped", "oh dear", NOW)
    store.close()
    conn = sqlite3.connect(db)  # back to the seed's schema, as a store from before this step
    for name in ("messages_stem", "recall_terms", "recall_state"):
        conn.execute(f"DROP TABLE {name}")
    before = next(m.version for m in migrations.MIGRATIONS if m.then is recall.ensure_recall_schema)
    conn.execute(f"PRAGMA user_version = {before - 1}")  # as the release before recall left it
    conn.commit()
    conn.close()
    again = HistoryStore.open(db)
    assert [h["turn_id"] for h in open_readonly(db).search("parrot escape", 3)][:1] == ["t1"]
    counts = dict(again._conn.execute("SELECT term, docs FROM recall_terms").fetchall())
    assert counts["parrot"] == 1 and counts["escap"] == 1


def test_candidates_come_from_the_rarest_words_not_the_newest_rows(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before step 11 the candidates were the newest matches of any word: the rare old row lost.
    monkeypatch.setattr(recall, "DEFAULT", recall.Tuning(candidates=4))
    store.record_turn("old", "apple pie with cinnamon", "yum", NOW)
    for i in range(10):
        store.record_turn(f"t{i}", f"apple {i}", "ok", NOW)
    hits = store.search("apple cinnamon", 3)
    assert hits[0]["turn_id"] == "old"


def test_a_query_of_only_common_words_still_recalls(store: HistoryStore) -> None:
    for i in range(80):
        store.record_turn(f"t{i}", f"the weather is the same as day {i}", "the usual", NOW)
    hits = store.search("the same", 5)
    assert hits and all("same" in h["content"] for h in hits)
