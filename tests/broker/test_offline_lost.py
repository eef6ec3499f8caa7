"""A lost thing asked of the pet (shelldon.broker.offline_lost through broker.offline). Before
the eleventh pass "have you seen my keys?" was a gap in its memory ("I don't know that yet.
Tell me and I'll remember.")."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet, one_turn


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("have you seen my keys?", "your keys are"),
        ("Have you seen my reading glasses? I cannot find them anywhere.", "glasses are"),
        ("have u seen my car keys", "car keys are"),
        ("do you know where my phone is?", "your phone is"),
        ("any idea where my wallet went", "your wallet is"),
    ],
)
def test_a_lost_thing_is_not_a_gap_in_memory(said: str, thing: str) -> None:
    reply, ops = one_turn(said)
    assert "can't see" in reply and thing in reply, reply
    assert "Tell me and I'll" not in reply and "don't know that yet" not in reply, reply
    assert ops == []


def test_where_the_owner_said_it_was_is_told_back_as_told() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("my keys are in the blue bowl")
    reply = pet.say("have you seen my keys?")
    assert "you told me your keys are in the blue bowl" in reply, reply
    assert "I saw" not in reply


@pytest.mark.parametrize(
    "said", ["I cannot find them anywhere.", "i can't find my phone", "I've misplaced my glasses"]
)
def test_a_thing_lost_right_now_is_not_kept(said: str) -> None:
    reply, ops = one_turn(said)
    assert ops == [], ops
    assert "cannots" not in reply and "I'll remember" not in reply, reply


def test_a_person_lost_is_not_a_mislaid_thing() -> None:
    reply, _ = one_turn("I lost my dad last year")
    assert "Retracing" not in reply, reply
