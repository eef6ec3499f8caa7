"""The first turn ever: the pet introduces itself, asks the owner's name (kept as a fact about the
owner) and, only when the owner's zone is UTC, the time zone. `/help` says how to give it a
model."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from shelldon.broker.offline import ASK_ZONE, OfflineBrain
from shelldon.contracts.ops import Remember, decode_ops
from shelldon.core.commands import MODEL_HELP, model_help
from shelldon.worker.prompt import HistoryRow, PromptContext, assemble_prompt

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _turn(
    message: str, *, zone: str = "UTC", recent: tuple[HistoryRow, ...] = ()
) -> tuple[str, list[Any]]:
    ctx = PromptContext(recent=recent, now=NOW, zone=zone)
    obj = json.loads(OfflineBrain().complete(assemble_prompt(ctx, message)).text)
    ops, dropped = decode_ops(obj["ops"])
    assert dropped == []
    return obj["reply"], ops


def test_the_first_hello_gets_the_introduction_and_both_questions_in_utc() -> None:
    reply, ops = _turn("hi")
    assert reply.startswith("Hi, I'm shelldon, your pocket pet!")
    assert "What's your name?" in reply
    assert reply.endswith(ASK_ZONE)
    assert ops == []


def test_the_time_zone_is_asked_only_when_the_zone_is_utc() -> None:
    reply, _ = _turn("hello", zone="Europe/Lisbon")
    assert "What's your name?" in reply
    assert "time zone" not in reply


def test_the_owner_answering_with_a_bare_name_is_kept_as_the_owners_name() -> None:
    intro, _ = _turn("hi")
    window = (HistoryRow(1, "owner", "hi"), HistoryRow(2, "pet", intro))
    reply, ops = _turn("Bob", recent=window)
    assert reply == "Nice to meet you, Bob!"
    assert ops == [Remember("facts", "owner's name", "The owner's name is Bob.")]
    reply, ops = _turn("it's ana maria", recent=window)
    assert ops == [Remember("facts", "owner's name", "The owner's name is Ana Maria.")]


def test_no_introduction_once_there_is_history() -> None:
    window = (HistoryRow(1, "owner", "hi"), HistoryRow(2, "pet", "Hello!"))
    reply, _ = _turn("hi", recent=window)
    assert reply == "Hey! What's up?"  # a hello, not the introduction (nor "Hello!" again)
    reply, _ = _turn("what is your name?", recent=window)
    assert reply == "My name is shelldon."


def test_a_first_message_that_says_something_is_answered_with_the_introduction_after() -> None:
    reply, _ = _turn("what is your name?", zone="Europe/Lisbon")
    assert reply.startswith("My name is shelldon. Hi, I'm shelldon, your pocket pet!")
    reply, ops = _turn("I love green tea", zone="Europe/Lisbon")
    assert "you love green tea." in reply.casefold() and "What's your name?" in reply
    assert reply.index("green tea") < reply.index("Hi, I'm shelldon")
    assert ops == [Remember("preferences", "green tea", "The owner loves green tea.")]
    reply, ops = _turn("Hi! My name is Marta.", zone="Europe/Lisbon")
    assert "Marta" in reply and "Hi, I'm shelldon" in reply
    assert "What's your name?" not in reply  # just told
    assert Remember("facts", "owner's name", "The owner's name is Marta.") in ops


def test_help_explains_how_to_give_it_a_real_model() -> None:
    text = model_help([])  # no model configured (tests/core/test_commands.py: with one)
    assert text == MODEL_HELP
    assert "[[provider]]" in text and "shelldon vault set" in text
