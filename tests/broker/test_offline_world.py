"""The offline brain on the clock, the world outside and itself (broker.offline_world): what it
can tell, it tells; what needs the internet, it says so, instead of offering to remember the
weather; memory still answers first."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.offline_world import AGE, ALIVE, MAKER, NO_INTERNET, REMINDERS
from shelldon.worker.prompt import (
    HistoryRow,
    MemoryItem,
    MemorySelection,
    PromptContext,
    assemble_prompt,
)
from support.offline_pet import Pet, one_turn

NOW = datetime(2026, 12, 6, 18, 5, tzinfo=UTC)


def _reply(message: str, memory: tuple[tuple[str, str, str], ...] = ()) -> str:
    selection = MemorySelection(full=tuple(MemoryItem(t, c, b) for t, c, b in memory))
    known = (HistoryRow(1, "owner", "hello"), HistoryRow(2, "pet", "Hello!"))  # not a first turn
    ctx = PromptContext(memory=selection, recent=known, now=NOW, zone="Europe/Lisbon")
    return str(json.loads(OfflineBrain().complete(assemble_prompt(ctx, message)).text)["reply"])


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("what time is it?", "It's 18:05 here (Europe/Lisbon)."),
        ("What's the time?", "It's 18:05 here (Europe/Lisbon)."),
        ("do you know what time it is?", "It's 18:05 here (Europe/Lisbon)."),
        ("what day is it today?", "Today is Sunday, 6 December 2026."),
        ("what's the date today?", "Today is Sunday, 6 December 2026."),
        ("who made you?", MAKER),
        ("where do you come from?", MAKER),
        ("how old are you?", AGE),
        ("are you alive?", ALIVE),
        ("are you an AI?", ALIVE),
        ("what reminders do I have?", REMINDERS),
        ("do I have any reminders?", REMINDERS),
    ],
)
def test_the_clock_and_itself(question: str, said: str) -> None:
    assert _reply(question) == said


@pytest.mark.parametrize(
    "question",
    [
        "will it rain tomorrow?",
        "what's the weather like?",
        "what's the news today?",
        "who won the match last night?",
        "what's the price of bitcoin?",
        "can you look it up?",
        "is it going to be sunny at my sister's wedding?",
    ],
)
def test_the_world_outside_is_not_the_owners_to_tell(question: str) -> None:
    assert _reply(question) == NO_INTERNET


def test_memory_answers_first_even_with_a_weather_word() -> None:
    memory = (("rain", "preferences", "The owner loves the rain."),)
    assert _reply("do I like the rain?", memory) == "Yes, you love the rain."


def test_a_negation_said_back_agrees_with_you() -> None:
    memory = (("mushrooms", "preferences", "The owner doesn't like mushrooms."),)
    assert _reply("do I like mushrooms?", memory) == "No, you don't like mushrooms."
    memory = (("mornings", "facts", "The owner isn’t a morning person."),)
    assert "You aren’t a morning person." in _reply("what do you know about me?", memory)


@pytest.mark.parametrize(
    "said",
    ["what's the best sushi place near me?", "is there a pharmacy nearby?",
     "which cafe around here is open now?"],
)  # fmt: skip
def test_a_place_near_the_owner_is_not_answered_from_their_likings(said: str) -> None:
    reply = _reply(said, (("sushi", "preferences", "The owner loves sushi."),))
    assert "no internet" in reply and "You told me" not in reply, reply


@pytest.mark.parametrize(
    "said",
    [
        "Could you tell me what time the post office closes today?",
        "what time does the pharmacy open tomorrow?",
        "is the library open on sunday?",
    ],
)
def test_opening_hours_are_the_world_not_a_gap_in_memory(said: str) -> None:
    """The eleventh pass: "what time the post office closes today" was "I don't know that yet.
    Tell me and I'll remember."."""
    reply, ops = one_turn(said)
    assert "internet" in reply and "I'll remember" not in reply, reply
    assert ops == []


def test_a_question_about_the_world_is_not_answered_with_a_fact_beside_it() -> None:
    """The twelfth pass: "whats the weather in lisbon in may" was answered with the trip to
    Lisbon the owner had told (shared words); "do I like the rain?" stays memory's."""
    pet = Pet()
    pet.say("hi, I'm Kofi")
    pet.say("my sister lives in Lisbon")
    pet.say("I love the rain")
    weather = pet.say("whats the weather in lisbon in may?")
    assert "internet" in weather and "sister" not in weather, weather
    assert "rain" in pet.say("do I like the rain?")
    cold = pet.say("is it cold in lisbon in march?")  # not "Yes, your sister lives in Lisbon."
    assert "internet" in cold and "sister" not in cold, cold
