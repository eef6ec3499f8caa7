"""Storage hot paths: Rust against the pure-Python references, and history recall against
ranking every match, at 200k history rows. Compare within a group (one run): the ratios matter,
not the absolute times. `just bench -k storage` prints them.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reference import storage as ref
from shelldon import _native
from shelldon.core.history.store import HistoryStore, open_readonly

ROWS = 200_000
WORDS = [f"w{i}" for i in range(5_000)]
COMMON = ["cat", "tea", "walk", "today", "think"]
MESSAGE = (
    "Hey shelldon!! did you remember: my cat (Tom) AND the tea... NEAR the park? "
    '"quotes" * ^ content: José 中文 — today I think we walk'
)
NAMES = ["José", "../etc/passwd", "My Favourite Tea (green)", "東京タワー", "İstanbul trip 2026"]


def _text(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(4, 20))]
    if rng.random() < 0.4:
        words.append(rng.choice(COMMON))
    return " ".join(words)


@pytest.fixture(scope="module")
def big_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("bench") / "history.db"
    store = HistoryStore.open(db)
    rng = random.Random(11)
    ts = datetime(2026, 1, 1, tzinfo=UTC).isoformat()
    conn: sqlite3.Connection = store._conn
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, ?, ?, ?)",
        ((f"t{i // 2}", "owner" if i % 2 == 0 else "pet", _text(rng), ts) for i in range(ROWS)),
    )
    conn.execute("COMMIT")
    store.close()
    return db


@pytest.mark.benchmark(group="fts-recall-200k")
def test_bench_recall_two_stage(benchmark, big_history: Path) -> None:  # type: ignore[no-untyped-def]
    reader = open_readonly(big_history)
    hits = benchmark(reader.search, MESSAGE, 8)
    assert len(hits) == 8


@pytest.mark.benchmark(group="fts-recall-200k")
def test_bench_recall_rank_every_match(benchmark, big_history: Path) -> None:  # type: ignore[no-untyped-def]
    """Baseline: one query that ranks every match (what the two stages avoid)."""
    reader = open_readonly(big_history, search_budget_s=60.0)
    match = _native.fts_query(MESSAGE)

    def rank_all() -> list[tuple[int]]:
        return reader._conn.execute(
            "SELECT rowid FROM messages_stem WHERE messages_stem MATCH ? ORDER BY rank LIMIT 8",
            (match,),
        ).fetchall()

    assert len(benchmark(rank_all)) == 8


@pytest.mark.benchmark(group="fts-sanitise")
def test_bench_fts_query_rust(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(_native.fts_query, MESSAGE) == ref.fts_query(MESSAGE)


@pytest.mark.benchmark(group="fts-sanitise")
def test_bench_fts_query_python(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(ref.fts_query, MESSAGE) is not None


@pytest.mark.benchmark(group="filename-stem")
def test_bench_filename_stem_rust(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(lambda: [_native.filename_stem(n) for n in NAMES]) == [
        ref.filename_stem(n) for n in NAMES
    ]


@pytest.mark.benchmark(group="filename-stem")
def test_bench_filename_stem_python(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert len(benchmark(lambda: [ref.filename_stem(n) for n in NAMES])) == len(NAMES)


ENTRY = ("---\ntitle: tea\n---\n" + "green tea, no sugar, in the morning. " * 50).encode()


@pytest.mark.benchmark(group="atomic-write-2k")
def test_bench_atomic_write_rust(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    benchmark(_native.atomic_write, tmp_path / "tea.md", ENTRY, 0o644)
    assert (tmp_path / "tea.md").read_bytes() == ENTRY


@pytest.mark.benchmark(group="atomic-write-2k")
def test_bench_atomic_write_python(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    benchmark(ref.atomic_write, tmp_path / "tea.md", ENTRY, 0o644)
    assert (tmp_path / "tea.md").read_bytes() == ENTRY


@pytest.mark.benchmark(group="append")
def test_bench_append_rust(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    benchmark(_native.durable_append, tmp_path / "episodes.md", b"## ts\nwalked\n\n", 0o644)


@pytest.mark.benchmark(group="append")
def test_bench_append_python(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    benchmark(ref.durable_append, tmp_path / "episodes.md", b"## ts\nwalked\n\n", 0o644)


@pytest.mark.benchmark(group="record-turn")
def test_bench_record_turn(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = HistoryStore.open(tmp_path / "history.db")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    benchmark(store.record_turn, "t", "what did I say about tea?", "green, no sugar", now)


@pytest.mark.benchmark(group="record-turn")
def test_bench_journal_turn(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The turn recorded before its reply: one `remember` journaled, committed with FULL, then
    cleared (core.turn.journal). Against test_bench_record_turn: what the journal adds to a turn."""
    from shelldon.core.turn import journal

    store = HistoryStore.open(tmp_path / "history.db")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    op = {"op": "remember", "collection": "facts", "name": "tea", "content": "Green, no sugar."}
    items = journal.encode(journal.plan([], [op]))

    def journaled() -> None:
        journal_id = store.journal_turn(
            "t", "what did I say about tea?", "green, no sugar", now, items=items
        )
        assert journal_id is not None
        store.clear_journal(journal_id)

    benchmark(journaled)
