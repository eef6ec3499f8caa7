"""A line typed with a slip of English grammar, read as meant (shelldon.broker.offline_slips
through broker.offline). Before the eleventh pass "my mother she call Lucia" and "I am work in a
hotel like receptionist" were "I hear you." / "Okay!" with nothing kept, "do you remember where
I am from?" a gap in memory though it was told, "you like the coffee?" "I don't know that yet.
Tell me and I'll remember."."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_slips import read
from support.offline_pet import Pet

GAP = ("don't know that yet", "Tell me and I'll")


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("my mother she call Lucia", "my mother is called Lucia"),
        ("my little brother he is call Tomas", "my little brother is called Tomas"),
        ("I am work in a hotel like receptionist", "I work in a hotel as a receptionist"),
        ("where I am working?", "where am I working?"),
        ("do you remember where I am from?", "where am I from?"),
        ("do you know how old my sister is?", "how old is my sister?"),
        ("you like the coffee?", "do you like the coffee?"),
    ],
)
def test_a_slip_is_read_as_meant(said: str, meant: str) -> None:
    assert read(said) == meant


@pytest.mark.parametrize(
    "said", ["my mother is called Lucia", "I am working late", "where I live is quiet", "you rock"]
)
def test_a_line_without_a_slip_is_left_as_it_is(said: str) -> None:
    assert read(said) == said


def test_facts_told_with_slips_are_kept_and_told_back() -> None:
    pet = Pet()
    pet.say("hi, I'm Ana")
    pet.say("I am from Brazil")
    assert pet.say("my mother she call Lucia") and pet.ops, "nothing kept"
    assert "Lucia" in pet.say("what is my mother name?")
    assert pet.say("I am work in a hotel like receptionist") and pet.ops, "nothing kept"
    assert "hotel" in pet.say("where I am working?")
    reply = pet.say("do you remember where I am from?")
    assert "Brazil" in reply and not any(g in reply for g in GAP), reply


def test_a_question_to_the_pet_without_its_do_is_not_a_gap() -> None:
    pet = Pet()
    pet.say("hi, I'm Ana")
    reply = pet.say("you like the coffee?")
    assert not any(g in reply for g in GAP), reply


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("remind me what my sister is called", "what is my sister called?"),
        ("tell me again where I work", "where do I work?"),
        ("could you remind me who my dentist is?", "who is my dentist?"),
        ("remind me what's my flatmate called", "what's my flatmate called?"),
    ],
)
def test_remind_me_before_a_question_word_is_the_question(said: str, meant: str) -> None:
    assert read(said) == meant


@pytest.mark.parametrize(
    "said", ["remind me when I get home to call mum", "remind me what to buy", "tell me a joke"]
)
def test_remind_me_with_a_task_is_left_as_it_is(said: str) -> None:
    assert read(said) == said


def test_what_the_owner_asked_to_be_reminded_of_is_told_back() -> None:
    """The twelfth pass: "remind me what my sister is called" was "When should I remind you to
    what your sister is called?"."""
    pet = Pet()
    pet.say("hi, I'm Priya")
    pet.say("my sister is called Devi")
    pet.say("I work at the city hospital")
    assert "Devi" in pet.say("remind me what my sister is called")
    assert "city hospital" in pet.say("remind me where I work")
    assert not pet.ops
