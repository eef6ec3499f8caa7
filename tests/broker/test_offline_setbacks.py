"""A test failed or a thing not got (shelldon.broker.offline_setbacks through broker.offline): kept
as an event with the day it was told on, and met warmly. Before the sixteenth pass "I didn't pass
my driving test" was a let-down that kept nothing, and "I didn't get the job at the garden
centre" was "Good to know: you didn't get the job …"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shelldon.contracts.ops import Remember
from support.offline_pet import Pet

TUESDAY = datetime(2027, 3, 9, 18, 40, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I didn't pass my driving test", "The owner failed the driving test"),
        ("failed my theory test again today", "The owner failed the theory test again"),
        ("ugh I failed my maths exam", "The owner failed the maths exam"),
        ("I didn't get the job at the garden centre",
         "The owner did not get the job at the garden centre"),
        ("didnt get the promotion", "The owner did not get the promotion"),
    ],
)  # fmt: skip
def test_a_setback_is_kept_as_an_event_with_its_day_and_met_warmly(said: str, kept: str) -> None:
    pet = Pet(now=TUESDAY, zone="Europe/London", rules=True)
    pet.say("hi, I'm Kit")
    reply = pet.say(said)
    contents = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert contents == [f"{kept} (told on Tuesday 9 March 2027)."], contents
    assert "sorry" in reply.casefold() and not reply.startswith(("Good to know", "Noted")), reply


def test_a_setback_is_answered_after_the_window() -> None:
    pet = Pet(now=TUESDAY, zone="Europe/London", rules=True)
    pet.say("I didn't pass my driving test")
    for filler in ("the bus was late", "it rained", "ok", "hm", "right", "sure", "fine"):
        pet.say(filler)
    assert "failed the driving test" in pet.say("what happened with my driving test?")


@pytest.mark.parametrize(
    "said", ["the tomatoes didn't do well this year", "I didn't get much sleep", "I passed!"]
)
def test_other_lines_are_no_setback(said: str) -> None:
    pet = Pet(now=TUESDAY, zone="Europe/London", rules=True)
    pet.say(said)
    assert not any("failed" in op.content or "did not get" in op.content for op in pet.ops)
