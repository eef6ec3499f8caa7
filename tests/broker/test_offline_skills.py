"""What someone of the owner's makes or does well (shelldon.broker.offline_skills, through the
real prompt and brain): met warmly with the thing said back, kept about that person, and found
by a question about them. Before the nineteenth pass "my mum makes the best dal" was "Mm-hm,
I'm listening." with nothing kept."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_skills import said
from support.offline_pet import Pet


def test_what_a_relation_makes_well_is_kept_about_them_and_found() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    reply = pet.say("my grandad makes the best jollof")
    assert "jollof" in reply and "listening" not in reply, reply
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "The owner's grandad makes the best jollof." in kept, kept
    answer = pet.say("what does my grandad make?")
    assert "jollof" in answer, answer


def test_what_a_named_relation_is_good_at_keeps_the_name_too() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    reply = pet.say("my nephew Sol is seriously good at chess")
    assert "chess" in reply and "Sol" in reply, reply
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "The owner's nephew Sol is good at chess." in kept, kept
    assert "The owner's nephew is called Sol." in kept, kept
    answer = pet.say("what is Sol good at?")
    assert "chess" in answer, answer


def test_a_line_of_no_one_of_the_owners_or_no_praise_is_left_alone() -> None:
    for line in (
        "my mum makes dinner on sundays",
        "the cafe makes the best dal",
        "I make great dal",
    ):
        assert said(line, 0) is None, line


def test_what_someone_is_good_at_is_found_in_other_words() -> None:
    """Through the real processes "what is Mia good at?" said her name: "great at swimming" kept,
    and "great" is not "good" to the general answer."""
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("my daughter Mia is great at swimming")
    answer = pet.say("what is Mia good at?")
    assert "swimming" in answer, answer


@pytest.mark.parametrize(
    ("line", "tasted"),
    [
        ("my boyfriend Jonas makes the best furniture", False),
        ("my aunt makes amazing pottery", False),
        ("my mum makes the best dal", True),
        ("my wife makes the best chocolate cake", True),
    ],
)
def test_only_food_is_to_be_tasted(line: str, tasted: bool) -> None:
    skill = said(line, 1)
    assert skill is not None
    assert ("taste" in skill.reply or "delicious" in skill.reply) is tasted, skill.reply
