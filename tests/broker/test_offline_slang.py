"""Slang read as meant (shelldon.broker.offline_slang through broker.offline). Before the twelfth
pass "ngl im lowkey panicking" was "Mm-hm, I'm listening." and "these lecture notes are so mid"
"I hear you."."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_slang import read, verdict
from support.offline_pet import Pet

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("im lowkey panicking", "im panicking"),
        ("this is highkey the best", "this is the best"),
        ("today was mid", "today was meh"),
        ("these notes are so mid", "these notes are so meh"),
        ("it's mid", "it's meh"),
        ("mid", "meh"),
    ],
)
def test_slang_is_read_as_meant(said: str, meant: str) -> None:
    assert read(said) == meant


@pytest.mark.parametrize(
    "said", ["see you mid-morning", "back in mid May", "the mid 90s were great", "im so lowkey"]
)
def test_mid_and_lowkey_as_plain_words_are_left_alone(said: str) -> None:
    assert read(said) == said


@pytest.mark.parametrize(
    ("said", "it"),
    [
        ("these lecture notes are so meh", "them"),
        ("the film was boring", "it"),
        ("this song is kinda mediocre", "it"),
    ],
)
def test_a_thing_called_so_so_is_answered_about_the_thing(said: str, it: str) -> None:
    reply = verdict(said, 0)
    assert reply is not None and f" {it} " in f"{reply[:-1]} ", reply


@pytest.mark.parametrize("said", ["today was meh", "my day was boring", "the film was great"])
def test_a_day_or_a_good_verdict_is_not_a_so_so_thing(said: str) -> None:
    assert verdict(said, 0) is None


@pytest.mark.parametrize(
    ("said", "warm"),
    [
        ("ngl im lowkey panicking", ("sorry", "hug", "here")),
        ("these lecture notes are so mid", ("meh", "thrilling")),
        ("ngl today was mid", ("ordinary", "fine is fine")),
    ],
)
def test_slang_through_the_brain_is_heard_and_never_kept(said: str, warm: tuple[str, ...]) -> None:
    pet = Pet()
    pet.say("hi, I'm Tom")
    reply = pet.say(said)
    assert reply not in BLAND and any(w in reply.casefold() for w in warm), reply
    assert pet.ops == []


@pytest.mark.parametrize("said", ["this shift is dragging", "today is lowkey never-ending"])
def test_a_slow_day_is_heard_as_slow(said: str) -> None:
    reply = verdict(read(said), 0)
    assert reply is not None and "hang in there" in reply.casefold(), reply
