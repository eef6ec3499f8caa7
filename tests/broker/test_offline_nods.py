"""A one-word nod that answers nothing (shelldon.broker.offline_nods through broker.offline).
Before the eleventh pass "hmm", "right", "yep" and "fr" were "Tell me more!", "I hear you." or
"Okay!"."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_nods import nod
from support.offline_pet import Pet

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    "said", ["hmm", "Hmmm...", "right", "Right.", "yep", "fr", "true", "i see"]
)
def test_a_nod_is_met_with_something_to_say(said: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Noor")
    pet.say("I work at the library")
    reply = pet.say(said)
    assert reply not in BLAND, reply
    assert reply == nod(said, "", 0, ()) or reply in {nod(said, "", s) for s in range(4)}, reply
    assert not pet.ops


def test_two_nods_running_are_not_met_with_the_same_words() -> None:
    pet = Pet()
    pet.say("hi, I'm Noor")
    first = pet.say("right")
    second = pet.say("yep")
    assert first != second


def test_a_yep_to_the_pets_own_question_is_not_a_nod() -> None:
    assert nod("yep", "How are you?", 0) is None
    assert nod("hmm, my sister is a nurse", "", 0) is None
