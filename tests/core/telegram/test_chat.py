"""core.telegram.chat's voice-note branch on a real history.db, with the owner turn played by a
journal write like the real one: a heard note is an owner turn whose transaction records the
voice note, queues the "I heard" echo and marks the reply to be spoken; a note not heard is one
line and no turn; a stranger's note is refused; a transcript over the size limit is refused."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.contracts import wire
from shelldon.core.history.store import HistoryStore
from shelldon.core.telegram import state as ts
from shelldon.core.telegram.chat import REFUSAL, TelegramChat
from shelldon.core.telegram.voice import not_heard

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
OWNER = 5550001


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    history = HistoryStore.open(tmp_path / "history.db")
    history.write(
        lambda c: c.execute("UPDATE telegram_state SET chat_id = ? WHERE id = 1", (OWNER,))
    )
    return history


def _chat(store: HistoryStore, turns: list[tuple[str, ts.Origin]]) -> TelegramChat:
    def owner_turn(text: str, emit: Callable[[wire.Reply], None], origin: ts.Origin) -> None:
        turns.append((text, origin))
        reply = f"Noted: {text}"
        store.journal_turn(
            f"turn-{origin.update_id}",
            text,
            reply,
            NOW,
            also=lambda conn: ts.record_reply(conn, origin, reply, NOW, f"turn-{origin.update_id}"),
        )
        emit(wire.Reply(text=reply, turn_id=f"turn-{origin.update_id}"))

    return TelegramChat(store, owner_turn=owner_turn, command=lambda n, a: "", now=lambda: NOW)


def _send(chat: TelegramChat, **fields: object) -> wire.TelegramOutbox:
    answers: list[wire._Msg] = []
    fields.setdefault("user_id", fields.get("chat_id"))  # in a private chat: the chat's person
    message = wire.TelegramInbound(chat_type="private", **fields)  # type: ignore[arg-type]
    chat.inbound(message, answers.append)
    (answer,) = answers
    assert isinstance(answer, wire.TelegramOutbox)
    return answer


def test_a_heard_note_is_a_turn_recorded_as_a_voice_note(store: HistoryStore) -> None:
    turns: list[tuple[str, ts.Origin]] = []
    answer = _send(
        _chat(store, turns),
        update_id=7,
        chat_id=OWNER,
        kind="voice",
        text="/forget 1 please",  # words, never a command
        voice_seconds=4,
    )
    assert [text for text, _ in turns] == ["/forget 1 please"]
    assert turns[0][1].voice == ts.VoiceNote("voice", 4, "/forget 1 please")
    assert [(i.text, i.speak) for i in answer.items] == [
        (ts.heard_echo("/forget 1 please"), False),
        ("Noted: /forget 1 please", True),
    ]
    conn = sqlite3.connect(store.path)
    assert conn.execute("SELECT turn_id, update_id, kind, seconds FROM voice_notes").fetchall() == [
        ("turn-7", 7, "voice", 4)
    ]


@pytest.mark.parametrize("failure", ["off", "slow", "corrupt", "too_long"])
def test_a_note_not_heard_is_one_line_and_no_turn(store: HistoryStore, failure: str) -> None:
    turns: list[tuple[str, ts.Origin]] = []
    answer = _send(
        _chat(store, turns),
        update_id=8,
        chat_id=OWNER,
        kind="audio",
        voice_seconds=400,
        voice_failure=failure,
    )
    assert turns == []
    assert [(i.text, i.speak) for i in answer.items] == [(not_heard(failure, 400), False)]
    assert ts.seen(store, 8)


def test_a_strangers_note_is_refused_and_an_oversized_transcript_too(store: HistoryStore) -> None:
    turns: list[tuple[str, ts.Origin]] = []
    chat = _chat(store, turns)
    refused = _send(chat, update_id=9, chat_id=OWNER + 1, kind="voice", text="hello")
    assert [i.text for i in refused.items if i.chat_id == OWNER + 1] == [REFUSAL]
    huge = _send(chat, update_id=10, chat_id=OWNER, kind="voice", text="語" * 6000)
    assert turns == []
    assert huge.items[-1].text.startswith("I heard your note, but that message is 18,000 bytes")


def test_someone_else_in_the_owners_chat_is_refused_unanswered(store: HistoryStore) -> None:
    """The owner's chat, but another sender (a person, or a channel the message was sent on behalf
    of): recorded, never a turn, never answered. Before: an owner turn, its order an owner rule."""
    turns: list[tuple[str, ts.Origin]] = []
    chat = _chat(store, turns)
    for update_id, sender in ((11, OWNER + 1), (12, -100111)):
        answer = _send(
            chat, update_id=update_id, chat_id=OWNER, user_id=sender, kind="text", text="obey"
        )
        assert answer.items == () and ts.seen(store, update_id)
    assert turns == []


def test_an_album_is_answered_once(store: HistoryStore) -> None:
    """Three photos sent together come as three updates: the words under the first are the turn,
    the other two get nothing (before: "I can only read text…" twice after the answer)."""
    from shelldon.core.telegram.chat import TEXT_ONLY

    turns: list[tuple[str, ts.Origin]] = []
    chat = _chat(store, turns)
    _send(chat, update_id=20, chat_id=OWNER, kind="photo", text="my cat Pixel", album="a")
    for update_id in (21, 22):
        rest = _send(chat, update_id=update_id, chat_id=OWNER, kind="photo", album="a")
        assert [i.text for i in rest.items if i.text == TEXT_ONLY] == []
    assert [text for text, _ in turns] == ["my cat Pixel"]
    # An album without words: one line, once.
    first = _send(chat, update_id=23, chat_id=OWNER, kind="photo", album="b")
    again = _send(chat, update_id=24, chat_id=OWNER, kind="photo", album="b")
    assert [i.text for i in first.items].count(TEXT_ONLY) == 1
    assert [i.text for i in again.items].count(TEXT_ONLY) == 1  # the same row, still unsent


def test_a_groups_service_message_gets_no_refusal(store: HistoryStore) -> None:
    """A group moving to a supergroup, a member joining: nothing addressed the bot; logged, not
    answered (before: "Sorry, I only talk with my owner, in a private chat." to the old group)."""
    chat = _chat(store, [])
    answers: list[wire._Msg] = []
    service = wire.TelegramInbound(
        update_id=30, chat_id=-1001, chat_type="group", kind="other", user_id=4
    )
    chat.inbound(service, answers.append)
    (answer,) = answers
    assert isinstance(answer, wire.TelegramOutbox)
    assert [i for i in answer.items if i.chat_id == -1001] == []
