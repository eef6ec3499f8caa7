"""Small talk to the pet, answered in kind (shelldon.broker.offline_kind through broker.offline).
Before the tenth pass its own weather was "my offline brain has no internet … tell me and I'll
keep it in mind", its dinner "a big question for a pocket pet", "tell me about yourself" "I
don't know that yet" and "have you seen it?" "I don't know that yet. What is it?"."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet, one_turn

GAP = ("don't know that yet", "no internet", "Tell me and I'll", "big question")


@pytest.mark.parametrize(
    ("said", "back"),
    [
        ("how's the weather over there?", "?"),
        ("is it cold where you are", "?"),
        ("what did u eat for lunch", "?"),
        ("have you had dinner yet?", "?"),
        ("tell me a bit about yourself", "pocket"),
        ("so tell me about you", "pocket"),
        ("it was called The Bear, have you watched it?", "?"),
        ("ever been to Lisbon?", "?"),
        ("what's on your mind?", "?"),
    ],
)
def test_small_talk_about_the_pets_day_is_answered_in_kind(said: str, back: str) -> None:
    reply, ops = one_turn(said)
    assert not any(g in reply for g in GAP), reply
    assert back in reply, reply
    assert ops == []


def test_what_it_is_thinking_about_is_the_owners_last_news() -> None:
    pet = Pet()
    pet.say("hello")
    pet.say("I'm Sam")
    pet.say("I'm starting pottery classes next week")
    reply = pet.say("what are you thinking about?")
    assert "pottery" in reply and "you're starting" in reply, reply


@pytest.mark.parametrize(
    "said", ["have you seen my keys?", "what's the weather like tomorrow?", "have i seen it?"]
)
def test_the_owners_own_things_and_the_world_are_not_the_pets_day(said: str) -> None:
    reply, _ = one_turn(said)
    assert "shell" not in reply and "electricity" not in reply, reply
