"""She or he for someone whose relation says which (broker.offline_gender), in a gift idea:
never "they" for a known daughter, son, wife or brother; "they" when nothing says."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_gender
from support.offline_pet import talked_to

_THEY = ("they", "them", "their")


@pytest.mark.parametrize(
    ("told", "asked", "pronoun"),
    [
        ("my daughter Ines is 6", "what should I get Ines for her birthday?", "she"),
        ("my son Tom is 15", "what could I get Tom?", "he"),
        ("my wife Ama loves gardening", "what could I get Ama?", "she"),
        ("my brother Paulo is a chef", "any idea what I could get Paulo?", "he"),
        ("my grandson Kwame is into football", "any gift ideas for Kwame?", "he"),
    ],
)
def test_a_gift_idea_for_a_known_relation_says_she_or_he(
    told: str, asked: str, pronoun: str
) -> None:
    pet = talked_to(told)
    reply = pet.say(asked).casefold()
    words = set(reply.replace("?", " ").replace(".", " ").replace(",", " ").split())
    assert not words & {*_THEY, "they'd", "they've", "themselves"}, reply
    assert pronoun in words or f"{pronoun}'d" in words or f"{pronoun}'s" in words, reply


def test_someone_nothing_says_of_is_they() -> None:
    pet = talked_to("my friend Sam is a nurse")
    assert "they" in pet.say("what could I get Sam?").casefold()


@pytest.mark.parametrize(
    ("text", "who", "said"),
    [
        ("Something they'd never buy themselves", "she", "Something she'd never buy herself"),
        ("a plant they've had their eye on", "he", "a plant he's had his eye on"),
        ("the flowers they love", "she", "the flowers she loves"),
        ("What else are they into?", "he", "What else is he into?"),
        ("What else are they into?", "they", "What else are they into?"),
    ],
)
def test_a_line_of_them_said_of_her_or_him(text: str, who: str, said: str) -> None:
    assert offline_gender.said_of(text, who) == said


def test_the_relation_a_kept_line_gives_a_name() -> None:
    known = ["The owner's daughter Ines turns 7 in January 2027, her birthday."]
    assert offline_gender.relation("Ines", known) == "daughter"
    assert offline_gender.relation("Tom", known) == ""
    assert offline_gender.pronoun("", "for his birthday") == "he"
