"""shelldon.broker.offline_whose: a question about the owner is answered only by what is theirs.

Found talking to the pet (no audit set held it): "where do I work?" after "my partner Tom is a
chef, he works late most nights" was answered with Tom's line."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_whose import asks_about_the_owner, someone_elses
from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("told", "asked", "theirs"),
    [
        ("my partner Tom is a chef, he works late most nights", "where do I work?", "Tom"),
        ("my partner Tom is a chef, he works late most nights", "what's my job?", "Tom"),
        ("my son Leo is 8 years old", "how old am I?", "Leo"),
        ("my sister works at the bank", "where do I work?", "sister"),
        ("my wife is flying to Paris tomorrow", "what are my plans?", "Paris"),
    ],
)  # fmt: skip
def test_a_question_about_the_owner_is_not_answered_with_someone_elses_line(
    told: str, asked: str, theirs: str
) -> None:
    for buried in (False, True):  # in the window, and kept in memory past it
        pet = talked_to(told)
        if buried:
            pet.bury()
        answer = pet.say(asked)
        assert theirs not in answer, (buried, answer)


def test_the_owners_own_line_still_answers_and_someone_elses_question_is_theirs() -> None:
    pet = talked_to("my partner Tom is a chef, he works late most nights", "I work as a nurse")
    assert "nurse" in pet.say("where do I work?")
    assert "chef" in pet.say("what does Tom do?")
    assert "late" in pet.say("does Tom work late?")
    pet = talked_to("my partner and I live in Leeds")
    assert "Leeds" in pet.say("where do I live?")


def test_whose_a_line_is() -> None:
    theirs_said = (
        "my partner Tom is a chef",
        "he works late",
        "The owner's sister lives in Porto",
        "Ana works nights",
        "your older brother is a pilot",
        "Their dog barks",
    )
    for theirs in theirs_said:
        assert someone_elses(theirs), theirs
    for owners in ("I work as a nurse", "The owner works at the hospital", "my partner and I live "
                   "in Leeds", "My job is hard", "I'm a radiographer"):  # fmt: skip
        assert not someone_elses(owners), owners
    assert asks_about_the_owner("where do I work?")
    assert not asks_about_the_owner("where does my sister work?")
    assert not asks_about_the_owner("does Tom work late?")
    assert not asks_about_the_owner("what time is it?")
