"""Someone's coming birthday or age said with a month, a week or "soon" (broker.offline_milestones):
a person's milestone, kept with the month it falls in, never "I hope the daughter … goes well!"."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from shelldon.broker import offline_milestones
from shelldon.contracts.ops import Remember
from support.offline_pet import one_turn, talked_to

NOW = datetime(2027, 3, 9, 19, 0, tzinfo=UTC)  # Tuesday 9 March 2027


@pytest.mark.parametrize(
    ("said", "content", "named"),
    [
        ("my daughter Ines turns seven next month",
         "The owner's daughter Ines turns 7 in April 2027, her birthday.", "Ines turns 7"),
        ("my grandson Kwame turns 18 next week",
         "The owner's grandson Kwame turns 18 in the week of Monday 15 March, his birthday.",
         "Kwame turns 18"),
        ("my mum turns sixty in June",
         "The owner's mum turns 60 in June 2027, her birthday.", "your mum turns 60 in June"),
        ("my son Leo is turning twenty-one this month",
         "The owner's son Leo turns 21 in March 2027, his birthday.", "Leo turns 21"),
    ],
)  # fmt: skip
def test_a_coming_age_is_a_persons_milestone_kept_by_its_month(
    said: str, content: str, named: str
) -> None:
    reply, ops = one_turn(said, now=NOW)
    assert [op.content for op in ops if isinstance(op, Remember)] == [content]
    assert named in reply, reply
    assert "I hope the" not in reply and "goes well" not in reply, reply


def test_an_age_in_words_on_a_day_is_a_birthday_in_figures() -> None:
    reply, ops = one_turn("my son Tom turns sixteen on friday", now=NOW)
    assert "Tom turns 16 on Friday 12 March" in reply, reply
    assert [op.content for op in ops if isinstance(op, Remember)] == [
        "The owner's son Tom turns 16 on 12 March, his birthday."
    ]


def test_the_milestone_answers_what_do_you_know_about_them() -> None:
    pet = talked_to()
    pet.now = NOW
    pet.say("my daughter Zoe turns nine next month")
    pet.bury()
    assert "9" in pet.say("what do you know about Zoe?")


@pytest.mark.parametrize(
    ("said", "age"),
    [("seven", 7), ("twenty-one", 21), ("forty five", 45), ("18", 18), ("a hundred", 100)],
)
def test_an_age_typed_as_a_word(said: str, age: int) -> None:
    assert offline_milestones.number(said) == age


@pytest.mark.parametrize(
    ("lines", "asked", "told"),
    [
        (["we have a dog called Rex, he's 3"], "how old is Rex?", "3"),
        (["I have a hamster named Nibbles, he's one"], "how old is Nibbles?", "1"),
        (["we got a puppy called Max, he's 10 weeks old"], "how old is Max?", "10 weeks old"),
        # the age kept with the name is the one a correction then updates
        (
            ["we have a cat called Biscuit, she's 4", "actually Biscuit is 5, not 4"],
            "how old is Biscuit?",
            "5",
        ),
    ],
)
def test_an_age_said_after_a_name_is_kept_with_it(lines: list[str], asked: str, told: str) -> None:
    pet = talked_to()
    for line in lines:
        pet.say(line)
    reply = pet.say(asked)
    name = asked.split()[-1].rstrip("?")
    assert re.search(rf"\b{re.escape(told)}\b", reply) and name in reply, reply


@pytest.mark.parametrize(
    ("rest", "age"),
    [
        (", she's 4", "4"),
        (", he's one", "1"),
        (" and she is 2 years old.", "2 years old"),
        (", he's 6 months old", "6 months old"),
        (", he's grumpy", None),
        (", she's 4 and loves fish", None),  # more than an age: left to the other rules
    ],
)
def test_age_after_a_name(rest: str, age: str | None) -> None:
    assert offline_milestones.age_after(rest) == age
