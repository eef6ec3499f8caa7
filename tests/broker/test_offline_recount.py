"""What the owner told the pet, told back (shelldon.broker.offline_recount through broker.offline).
Before the tenth pass "what did I say about my sister?" said her name alone, never what else was
told of her, and "what did I just tell you?" was "I don't know that yet" a line after it."""

from __future__ import annotations

import pytest

from support.offline_pet import talked_to

told = talked_to  # hello, "I'm Sam", then each line


@pytest.mark.parametrize(
    ("said", "asked", "holds"),
    [
        (("my brother is called Theo, he's a plumber",), "what did I say about my brother?",
         ("Theo", "plumber")),
        (("my neighbour Ada keeps bees", "Ada is 80"), "what have I told you about Ada?",
         ("bees", "80")),
        (("my best friend Jo just moved to Rome",), "so what did i tell you about jo",
         ("Rome",)),
        (("I bought a new bike yesterday",), "what did I just tell you?", ("bike",)),
    ],
)  # fmt: skip
def test_every_statement_about_what_is_asked_is_told_back(
    said: tuple[str, ...], asked: str, holds: tuple[str, ...]
) -> None:
    pet = told(*said)
    reply = pet.say(asked)
    assert all(h in reply for h in holds), reply
    assert "I'm" not in reply and " my " not in reply, reply  # said to the owner: "your"
    assert pet.ops == []


def test_what_was_never_told_is_said_honestly_and_never_invented() -> None:
    pet = told("my sister is called Mia")
    reply = pet.say("did I tell you about my cat?")
    assert "your cat" in reply and ("not sure" in reply or "don't have" in reply), reply
    assert "Mia" not in reply and "You told me" not in reply, reply
    assert pet.ops == []


def test_did_i_tell_you_says_yes_with_what_was_told() -> None:
    reply = told("my cat Miso hates the vet").say("have I told you about Miso?")
    assert reply.startswith("Yes") and "vet" in reply, reply


def test_what_the_owner_asked_to_forget_is_not_told_back() -> None:
    pet = told("my brother Theo is a plumber", "forget what I said about Theo")
    reply = pet.say("what did I say about Theo?")
    assert "plumber" not in reply, reply


def test_the_same_thing_said_twice_is_told_once() -> None:
    reply = told("my sister is called Lucia", "my sister is called Lucia, she's a dentist").say(
        "what did I tell you about my sister?"
    )
    assert reply.count("Lucia") == 1 and "dentist" in reply, reply


@pytest.mark.parametrize("asked", ["what did I tell you?", "what have i told you so far"])
def test_what_was_told_with_no_subject_is_everything_kept(asked: str) -> None:
    pet = told("my sister is called Ana")
    reply = pet.say(asked)  # "I don't know that yet" before
    assert "Sam" in reply and "Ana" in reply, reply


def test_what_the_pet_said_is_said_again() -> None:
    pet = told("tell me a joke")
    joke = pet.rows[-1].content
    assert joke in pet.say("sorry what did you say?")  # a musing before


def test_a_subject_that_is_not_the_owners_is_not_made_theirs() -> None:
    reply = told().say("what did I say about the weather?")
    assert "the weather" in reply and "your weather" not in reply, reply


def test_what_do_you_know_about_someone_says_all_of_it() -> None:
    """The seventeenth pass: "what do you know about Ingrid?" said her name alone."""
    pet = talked_to("my friend is called Kemi", "she loves sailing", "she works as a pilot")
    answer = pet.say("what do you know about Kemi?")
    assert "sailing" in answer and "pilot" in answer, answer


def test_a_coming_age_is_said_once_from_the_line_and_its_entry() -> None:
    """The eighteenth pass, through the real processes: "You said your daughter Zoe turns 9 in
    January 2027, her birthday, and your daughter Zoe turns nine next month." (the owner's line
    in the window and the entry kept of it, an age in words and a month said relatively)."""
    from datetime import UTC, datetime

    from support.offline_pet import Pet

    pet = Pet(now=datetime(2027, 3, 9, 19, tzinfo=UTC))
    pet.say("hi, I'm Dalia")
    pet.say("my daughter Zoe turns nine next month")
    reply = pet.say("what do you know about Zoe?")
    assert "turns 9 in April 2027" in reply and "nine" not in reply, reply
