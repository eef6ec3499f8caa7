"""A journey the owner says they are making (broker.offline_journeys), played through the real
prompt and brain with core's keeping between turns (tests/support/offline_pet.py): weeks ahead it
is kept with its month as a date and found again; days ahead it is wished well; the day's places
and plans that only look like a journey are left to the other rules."""

from __future__ import annotations

import pytest

from shelldon.contracts.ops import Remember
from support.offline_pet import talked_to

BLAND = ("Tell me more!", "I hear you.", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("said", "place", "asked"),
    [
        ("we're going to Lisbon in March", "Lisbon", "where am I going in March?"),
        ("we are flying to Japan in April", "Japan", "where are we going in April?"),
        ("my wife and I are going to Rome in May", "Rome", "where are we going in May?"),
        ("im flying to lisbon in march for a conference", "Lisbon", "where am i going in march?"),
        ("we're going to the Lake District next summer", "Lake District", "where are we going?"),
    ],
)
def test_a_journey_weeks_ahead_is_kept_and_found_again(said: str, place: str, asked: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert reply not in BLAND and place in reply, reply
    kept = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert len(kept) == 1 and place in kept[0] and "going to" in kept[0], kept
    assert place in pet.say(asked)


@pytest.mark.parametrize(
    "said",
    [
        "we're off to Cornwall for the weekend",
        "I'm heading to Berlin tomorrow for work",
        "I'm going to Paris next week",
    ],
)
def test_a_journey_days_ahead_is_wished_well_and_left_to_history(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert reply not in BLAND and "lovely time" in reply, reply
    assert not [op for op in pet.ops if isinstance(op, Remember)], pet.ops


@pytest.mark.parametrize(
    "said",
    [
        "I'm off to bed",
        "heading to work now",
        "I'm going to start yoga in March",
        "I'm going to Tesco",
    ],
)
def test_what_only_looks_like_a_journey_is_not_one(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert "lovely time" not in reply and "I'll remember" not in reply, reply
