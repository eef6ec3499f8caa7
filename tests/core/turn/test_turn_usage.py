"""A provider's usage figures are recorded per turn, with the turn's rows, and summed for status."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.contracts import wire
from shelldon.contracts.brain import Usage
from shelldon.core.history.store import HistoryStore, TurnUsage
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.turn.apply import apply_turn
from shelldon.paths import DataRoot

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture
def store(home: Path) -> HistoryStore:
    home.mkdir(parents=True, exist_ok=True)
    return HistoryStore.open(home / "history.db")


def _usage_rows(store: HistoryStore) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(store.path)
    rows = conn.execute(
        "SELECT turn_id, provider, prompt_tokens, completion_tokens FROM turn_usage"
    ).fetchall()
    conn.close()
    return rows


def test_usage_rides_the_turns_transaction(store: HistoryStore) -> None:
    store.record_turn("t1", "hi", "hello", NOW, usage=TurnUsage("groq", 120, 14))
    store.record_turn("t2", "again", "yes", NOW)  # the offline brain reports no figures
    assert _usage_rows(store) == [("t1", "groq", 120, 14)]


def test_a_failed_turn_write_records_no_usage_either(store: HistoryStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        # NOT NULL on content fails the pet row: neither rows nor usage may stay.
        store.record_turn("t1", "hi", None, NOW, usage=TurnUsage("groq", 1, 1))  # type: ignore[arg-type]
    assert store.recent(5) == []
    assert _usage_rows(store) == []


def test_usage_since_sums_only_the_window(store: HistoryStore) -> None:
    store.record_turn("old", "a", "b", NOW - timedelta(days=1), usage=TurnUsage("x", 999, 999))
    store.record_turn("t1", "a", "b", NOW, usage=TurnUsage("x", 100, 10))
    store.record_turn("t2", "a", "b", NOW, usage=TurnUsage("x", None, 5))
    totals = store.usage_since(NOW - timedelta(hours=1))
    assert (totals.turns, totals.prompt_tokens, totals.completion_tokens) == (2, 100, 15)


def test_usage_written_with_offsets_still_counts(store: HistoryStore) -> None:
    # Rows from before the one ISO shape (shelldon.clock) carry "+00:00" and microseconds.
    store.record_turn("t1", "a", "b", NOW, usage=TurnUsage("x", 100, 10))
    conn = sqlite3.connect(store.path)
    with conn:
        conn.execute(
            "INSERT INTO turn_usage (turn_id, provider, prompt_tokens, completion_tokens, ts) "
            "VALUES ('old', 'x', 7, 1, ?)",
            ((NOW - timedelta(minutes=5)).isoformat(timespec="microseconds"),),
        )
    conn.close()
    totals = store.usage_since(NOW - timedelta(hours=1))
    assert (totals.turns, totals.prompt_tokens, totals.completion_tokens) == (2, 107, 11)


def test_apply_turn_records_the_providers_figures(home: Path, store: HistoryStore) -> None:
    root = DataRoot.resolve(home)
    outcome = wire.TurnResult(
        turn_id="t9",
        reply="hello!",
        provider="openrouter",
        usage=Usage(prompt_tokens=321, completion_tokens=12),
    )
    apply_turn(
        root=root,
        history=store,
        memory=CuratedMemory(root.memory),
        turn_id="t9",
        purpose="turn",
        message="hi",
        outcome=outcome,
        emit=lambda text, degraded: None,
        now=NOW,
    )
    assert _usage_rows(store) == [("t9", "openrouter", 321, 12)]
