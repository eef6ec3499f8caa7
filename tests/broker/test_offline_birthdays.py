"""Someone's birthday said relative to today, with the age they turn (shelldon.broker.
offline_birthdays through broker.offline). Before the thirteenth pass "actually it's Tom's
birthday next friday, he'll be 31" was "I hear you." and nothing was kept."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from shelldon.broker.offline_birthdays import day_said
from shelldon.contracts.ops import Remember
from support.offline_pet import Pet

THURSDAY = datetime(2027, 2, 4, 10, 30, tzinfo=UTC)  # Thursday 4 February 2027


@pytest.mark.parametrize(
    ("said", "kept", "age"),
    [
        ("actually it's Sam's birthday next friday, he'll be 31", "12 February", "31"),
        ("its sam's birthday on saturday, he turns 40", "6 February", "40"),
        ("my mum's birthday is in two weeks, she'll be 60", "18 February", "60"),
        ("my brother's bday is tomorrow and he's turning 19", "5 February", "19"),
        ("my daughter Ivy turns 7 on monday", "8 February", "7"),
        ("my grandson Alfie turns 10 next saturday", "13 February", "10"),
        ("Sam's birthday is a week on sunday", "14 February", None),
    ],
)
def test_a_birthday_said_relative_to_today_is_kept_as_its_date(
    said: str, kept: str, age: str | None
) -> None:
    pet = Pet(now=THURSDAY, zone="Europe/London")
    pet.say("my partner is called Sam")
    reply = pet.say(said)
    contents = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert len(contents) == 1 and kept in contents[0], (reply, contents)
    assert kept in reply and reply not in ("I hear you.", "Tell me more!")
    if age is not None:
        assert f"turns {age}" in contents[0], contents
    if "Sam" in said:
        assert "partner" in contents[0], contents  # kept by who Sam is to the owner


def test_its_date_and_age_are_answered_later() -> None:
    pet = Pet(now=THURSDAY, zone="Europe/London")
    pet.say("my partner is called Tom, he's a chef")
    pet.say("actually it's Tom's birthday next friday, he'll be 31")
    assert "12 February" in pet.say("when is Tom's birthday?")
    aged = pet.say("how old will Tom be?")
    assert "31" in aged and "chef" not in aged, aged


def test_a_day_it_cannot_read_keeps_no_date() -> None:
    pet = Pet(now=THURSDAY, zone="Europe/London")
    pet.say("it's Sam's birthday sometime in spring, he'll be 31")
    assert not any("February" in op.content for op in pet.ops if isinstance(op, Remember))


@pytest.mark.parametrize(
    ("when", "day"),
    [
        ("today", date(2027, 2, 4)),
        ("on thursday", date(2027, 2, 11)),  # never today: the coming one
        ("this saturday", date(2027, 2, 6)),
        ("next tuesday", date(2027, 2, 9)),  # next week's Tuesday
        ("next friday", date(2027, 2, 12)),
        ("in 3 days", date(2027, 2, 7)),
        ("in a fortnight", date(2027, 2, 18)),
        ("sometime soon", None),
    ],
)
def test_a_day_said_relative_to_today(when: str, day: date | None) -> None:
    assert day_said(when, THURSDAY.date()) == day


@pytest.mark.parametrize(
    ("said", "asked", "day"),
    [
        ("my granddaughter Lily turns 7 on march 3rd", "when is Lily's birthday?", "march 3rd"),
        ("my grandson Kofi turns 10 on june 14th", "when is Kofi's birthday?", "june 14th"),
        ("my son Arjun turns 5 on the 9th of may", "when's Arjun's birthday?", "9th of may"),
    ],
)
def test_an_age_turned_on_a_day_answers_when_the_birthday_is(
    said: str, asked: str, day: str
) -> None:
    """The fifteenth pass: "turns 7 on march 3rd" is a birthday, though the word is not said;
    before, "when is Lily's birthday?" was "I don't know that yet. What I do know: … turns 7 on
    march 3rd"."""
    pet = Pet(now=THURSDAY, zone="Europe/London")
    pet.say("hello")
    pet.say(said)
    pet.bury()
    back = pet.say(asked)
    assert day in back and "don't know" not in back, back
