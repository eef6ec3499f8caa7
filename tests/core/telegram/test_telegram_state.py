"""core.telegram.state on a real history.db: pairing codes, recorded updates, the outbox, and how
a long reply is split for the Bot API."""

from __future__ import annotations

import math
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shelldon.core.history.store import HistoryStore
from shelldon.core.telegram import state as ts

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    return HistoryStore.open(tmp_path / "history.db")


def _pair_code(store: HistoryStore, now: datetime = NOW) -> str:
    code, expires = store.write(lambda c: ts.start_pairing(c, now))
    assert expires == now + ts.CODE_TTL
    return code


def _try(store: HistoryStore, chat: int, code: str, now: datetime = NOW) -> str:
    return store.write(lambda c: ts.try_code(c, chat, code, now))


def test_a_code_has_at_least_40_bits_and_only_its_hash_is_kept(store: HistoryStore) -> None:
    assert ts.CODE_LENGTH * math.log2(len(set(ts.CODE_ALPHABET))) >= 40
    code = _pair_code(store)
    assert re.fullmatch(f"[{ts.CODE_ALPHABET}]{{{ts.CODE_LENGTH}}}", code)
    dump = "\n".join(store.read(lambda c: list(c.iterdump())))
    assert code not in dump and ts.code_hash(code) in dump


def test_the_right_code_pairs_once(store: HistoryStore) -> None:
    code = _pair_code(store)
    assert _try(store, 42, code.lower()) == "paired"  # as typed: case and dashes do not matter
    assert ts.paired_chat(store) == 42
    assert _try(store, 43, code) == "none"  # single use
    assert ts.paired_chat(store) == 42


def test_five_wrong_codes_close_pairing_until_a_new_one(store: HistoryStore) -> None:
    code = _pair_code(store)
    assert [_try(store, 7, "WRONGWRONG") for _ in range(5)] == ["wrong"] * 5
    assert _try(store, 7, code) == "closed"
    assert ts.paired_chat(store) is None
    fresh = _pair_code(store)
    assert _try(store, 7, code) == "wrong"  # the old code is gone with the new one
    assert _try(store, 7, fresh) == "paired"


def test_a_code_expires_after_ten_minutes(store: HistoryStore) -> None:
    code = _pair_code(store)
    later = NOW + ts.CODE_TTL + timedelta(seconds=1)
    assert _try(store, 9, code, later) == "expired"
    assert not ts.snapshot(store).pairing_open(later)
    assert ts.snapshot(store).pairing_open(NOW)


def test_pairing_a_new_chat_drops_replies_queued_for_the_old_one(store: HistoryStore) -> None:
    store.write(lambda c: ts.try_code(c, 1, _pair_code_in(c), NOW))
    store.write(lambda c: ts.record(c, 10, 1, ["for the old phone"], NOW))
    code = _pair_code(store)
    assert _try(store, 2, code) == "paired"
    assert ts.outbox(store) == []


def _pair_code_in(conn: sqlite3.Connection) -> str:
    return ts.start_pairing(conn, NOW)[0]


def test_unpair_forgets_the_chat_and_the_outbox(store: HistoryStore) -> None:
    store.write(lambda c: ts.try_code(c, 5, _pair_code_in(c), NOW))
    store.write(lambda c: ts.record(c, 11, 5, ["hi"], NOW))
    assert store.write(ts.unpair) == 5
    assert ts.paired_chat(store) is None and ts.outbox(store) == []
    assert store.write(ts.unpair) is None


def test_recorded_updates_are_seen_and_their_replies_wait_in_the_outbox(
    store: HistoryStore,
) -> None:
    assert not ts.seen(store, 100)
    store.write(lambda c: ts.record(c, 100, 5, ["one", "two"], NOW))
    store.write(lambda c: ts.record(c, 101, 5, [], NOW))
    assert ts.seen(store, 100) and ts.seen(store, 101) and not ts.seen(store, 102)
    rows = ts.outbox(store)
    assert [(r.chat_id, r.text) for r in rows] == [(5, "one"), (5, "two")]
    assert store.write(lambda c: ts.confirm(c, [rows[0].id])) == 1
    assert store.write(lambda c: ts.confirm(c, [rows[0].id])) == 0  # already gone
    assert [r.text for r in ts.outbox(store)] == ["two"]
    assert ts.resume_from(store, NOW) == 101


def test_an_update_recorded_with_the_turn_rolls_back_with_it(store: HistoryStore) -> None:
    def also(conn: sqlite3.Connection) -> None:
        ts.record(conn, 200, 5, ["the reply"], NOW)
        raise sqlite3.OperationalError("disk I/O error")

    with pytest.raises(sqlite3.OperationalError):
        store.journal_turn("t1", "hello", "the reply", NOW, also=also)
    assert not ts.seen(store, 200) and ts.outbox(store) == [] and store.recent(5) == []
    store.journal_turn(
        "t1", "hello", "the reply", NOW, also=lambda c: ts.record(c, 200, 5, ["the reply"], NOW)
    )
    assert ts.seen(store, 200) and [r.text for r in ts.outbox(store)] == ["the reply"]
    assert [r["content"] for r in store.recent(5)] == ["hello", "the reply"]


def test_after_a_long_silence_a_restarted_poller_starts_without_an_offset(
    store: HistoryStore,
) -> None:
    store.write(lambda c: ts.record(c, 300, 5, [], NOW))
    assert ts.resume_from(store, NOW + timedelta(days=5)) == 300
    # Telegram may renumber after a week without updates: the old id means nothing then.
    assert ts.resume_from(store, NOW + timedelta(days=7)) == 0
    # A renumbered (lower) id is a new update, not a repeat.
    assert not ts.seen(store, 12)


# --- splitting -----------------------------------------------------------------------------------


def test_a_short_reply_is_one_part() -> None:
    assert ts.split_message("  hello  ") == ["hello"]
    assert ts.split_message(" \n ") == []


def test_a_long_reply_splits_between_paragraphs() -> None:
    paragraphs = [f"P{n} " + "word " * 300 for n in range(6)]  # ~1,500 characters each
    text = "\n\n".join(p.strip() for p in paragraphs)
    parts = ts.split_message(text, limit=4096)
    assert [len(p) <= 4096 for p in parts] == [True] * len(parts)
    assert "\n\n".join(parts) == text
    assert all(p.startswith("P") for p in parts)


def test_a_paragraph_over_the_limit_splits_at_sentences_then_words() -> None:
    sentence = "This sentence is long enough to matter. "
    parts = ts.split_message(sentence * 30, limit=200)
    assert all(len(p) <= 200 and p.endswith(".") for p in parts)
    word_parts = ts.split_message("word " * 100, limit=42)
    assert all(len(p) <= 42 and not p.startswith(" ") for p in word_parts)
    assert " ".join(word_parts).split() == ["word"] * 100


def test_emoji_count_as_two_units_and_a_word_over_the_limit_is_cut() -> None:
    parts = ts.split_message("🐢" * 5000)
    assert all(ts.units(p) <= 4096 for p in parts) and "".join(parts) == "🐢" * 5000
    assert ts.units(parts[0]) == 4096


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("ab .!?\n🐢"), min_size=0, max_size=400), max_size=12
    ),
    st.integers(min_value=8, max_value=300),
)
def test_parts_fit_and_keep_every_word_in_order(chunks: list[str], limit: int) -> None:
    text = "".join(chunks)
    parts = ts.split_message(text, limit=limit)
    assert all(0 < ts.units(p) <= limit for p in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())
