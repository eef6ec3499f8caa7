"""Feelings named in words the mood lists do not hold (shelldon.broker.offline_feelings through
broker.offline). Before the thirteenth pass "I'm feeling a bit homesick tbh" was "I hear you.",
"feeling overwhelmed with everything" "Tell me more!" and "kinda burnt out" a giggle."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_feelings import named
from support.offline_pet import Pet

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")
WARM = ("sorry", "sounds", "tough", "that's a lot", "hard", "tender", "stings")


@pytest.mark.parametrize(
    ("said", "kind", "word"),
    [
        ("I'm feeling a bit homesick tbh", "homesick", "home"),
        ("really missing home this week", "homesick", "home"),
        ("feeling overwhelmed with everything", "overwhelmed", "first"),
        ("totally snowed under at work", "overwhelmed", "wait"),
        ("kinda burnt out to be honest", "drained", "empty"),
        ("honestly running on empty", "drained", "plate"),
        ("bit nostalgic tonight, going through old letters", "nostalgic", "memor"),
        ("so restless, can't settle on anything", "restless", ""),
        ("a bit on edge about the interview", "on edge", ""),
        ("felt really left out at lunch today", "left out", ""),
    ],
)
def test_a_named_feeling_is_met_warmly_and_never_kept(said: str, kind: str, word: str) -> None:
    assert named(said) == kind
    pet = Pet()
    pet.say("hi, I'm Rae")
    reply = pet.say(said)
    assert reply not in BLAND and "Oops" not in reply and "good to know" not in reply, reply
    assert any(w in reply.casefold() for w in WARM), reply
    assert pet.ops == [], pet.ops


@pytest.mark.parametrize(
    "said",
    [
        "my mum is homesick",  # someone else's
        "are you ever homesick?",  # a question to the pet
        "I'm not homesick at all",
        "I live in Leeds and I'm homesick",  # a fact first: the fact rules keep it
        "I burnt the toast",  # a mishap, not burnout
    ],
)
def test_what_is_not_the_owners_feeling_is_left_to_the_other_rules(said: str) -> None:
    assert named(said) is None
