"""Danish and Swedish small words in an owner's English (shelldon.broker.offline_nordic, through
broker.offline): a name, a relation, a feeling, thanks and a day read as the English they stand
for, so the name is kept and a feeling is met as one. Before the seventeenth pass "jag heter …"
lost the name and "jeg er så træt" was wished well as a plan."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_nordic import read
from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("hejsan, jag heter Astrid", "hejsan, my name is Astrid"),
        ("min bror heter Nils", "my brother is called Nils"),
        ("min datter hedder Sofie", "my daughter is called Sofie"),
        ("jag är så trött idag", "I'm so tired today"),
        ("mange tak!", "thanks so much!"),
        ("vi ska till Lund på fredag", "we're going to Lund on Friday"),
        ("he lives i Malmö", "he lives in Malmö"),
    ],
)
def test_the_small_words_are_read_as_english(typed: str, meant: str) -> None:
    assert read(typed) == meant


@pytest.mark.parametrize(
    "english",
    ["I live in Leeds", "give me 5 min", "so i went home", "my far cousin is here", "I'm glad"],
)
def test_english_is_never_rewritten(english: str) -> None:
    assert read(english) == english


def test_a_name_and_a_relation_said_in_swedish_are_kept() -> None:
    pet = Pet()
    pet.say("hej! jag heter Astrid")
    pet.say("min bror heter Nils")
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "The owner's name is Astrid." in kept, pet.memory
    assert "The owner's brother is called Nils." in kept, pet.memory
    assert "Nils" in pet.say("what's my brother's name?")


def test_a_feeling_in_danish_is_met_as_a_feeling_and_kept_nowhere() -> None:
    pet = Pet()
    pet.say("hi, I'm Mette")
    reply = pet.say("jeg er så træt i dag")
    assert "I hope the" not in reply and "jeg" not in reply, reply
    assert len(pet.memory) == 1, pet.memory  # the name alone
