"""A greeting by the time of day, with emoji around it, or in another language
(shelldon.broker.offline_greet through broker.offline). Before the phone pass "good morning ☀️"
as a first line was the introduction without "morning", "afternoon 👋" was "Tell me more!",
"good afternoon" was "Hello! Good to see you." and "hola 👋" was "Mm-hm, I'm listening."."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shelldon.broker import offline_greet
from shelldon.worker.prompt import HistoryRow
from support.offline_pet import one_turn


@pytest.mark.parametrize(
    ("said", "when"),
    [
        ("good morning ☀️", "morning"),
        ("afternoon 👋", "afternoon"),
        ("evening all", "evening"),
        ("gm 🌞", "morning"),
        ("morning sunshine", "morning"),
        # written after the fixes, never tuned on
        ("good evening shelldon!", "evening"),
        ("mornin :)", "morning"),
        ("hey, good afternoon", "afternoon"),
        ("very good morning to you", "morning"),
    ],
)
def test_a_greeting_by_the_time_of_day_is_answered_in_kind(said: str, when: str) -> None:
    reply, ops = one_turn(said)
    assert reply.startswith(f"Good {when}"), reply
    assert ops == []


def test_the_first_turn_keeps_the_greeting_before_the_introduction() -> None:
    reply, _ = one_turn("good evening 🌙", recent=(), now=datetime(2026, 12, 1, 19, 0, tzinfo=UTC))
    assert reply.startswith("Good evening! I'm shelldon, your pocket pet!"), reply
    assert "What's your name?" in reply


@pytest.mark.parametrize(
    ("said", "back"),
    [
        ("hola 👋", "Hola"),
        ("bonjour", "Bonjour"),
        ("salut!", "Salut"),
        ("buenas noches amigo", "Buenas noches"),
        ("guten morgen", "Guten morgen"),
        ("ciao", "Ciao"),
    ],
)
def test_a_hello_in_another_language_is_said_back(said: str, back: str) -> None:
    reply, ops = one_turn(said)
    assert reply.startswith(back), reply
    assert "English" in reply  # honest: the offline brain reads English
    assert ops == []


@pytest.mark.parametrize("said", ["hi", "hello", "hey there", "hi 👋"])
def test_a_plain_hello_is_still_a_hello(said: str) -> None:
    window = (HistoryRow(1, "owner", "ok"), HistoryRow(2, "pet", "Okay!"))
    assert one_turn(said, recent=window)[0] == "Hello! Good to see you."
    # after the pet's own "Hello!", other words
    assert one_turn(said)[0] == "Hey! What's up?"


@pytest.mark.parametrize(
    "said", ["good morning, I'm Sam", "morning! can you remind me at 9 to call mum", "good"]
)
def test_more_than_a_greeting_is_no_greeting(said: str) -> None:
    assert offline_greet.greeting(said, 0, "") is None
