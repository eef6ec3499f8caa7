"""Questions no memory and no internet could answer (shelldon.broker.offline_advice through
broker.offline). Before the twelfth pass "do dogs go to heaven?" after a loss was "I don't know
that yet. What I do know: your dog was a beagle. Tell me more and I'll remember." and "what
should i do with his bed and toys?" "I don't know what you enjoy doing yet. What do you like to
do for fun?"."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_advice import advice
from support.offline_pet import Pet

GAP = ("don't know that yet", "Tell me", "for fun", "I remember")


@pytest.mark.parametrize(
    "said",
    [
        "do dogs go to heaven?",
        "is there life after death?",
        "what happens when we die?",
        "will i ever see him again?",
        "do you think she can see me?",
        "what should i do with his bed and toys?",
        "what do I do about my landlord?",
    ],
)
def test_a_question_nobody_could_look_up_is_answered_honestly(said: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Ellen")
    pet.say("he was a beagle")
    reply = pet.say(said)
    assert not any(g in reply for g in GAP), reply
    assert "?" in reply and pet.ops == [], reply


@pytest.mark.parametrize(
    "said",
    [
        "what should i do tonight?",
        "what should i do with my weekend?",
        "do you go to the park?",
        "what do dogs eat?",
    ],
)
def test_other_questions_are_left_to_their_rules(said: str) -> None:
    assert advice(said, 0) is None
