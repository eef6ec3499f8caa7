"""The past (broker.offline_past): "used to", "previously", "formerly", "moved away from", "grew
up in" are kept as said and never given as how things are now; a question about the past is
answered by them. Lines here are written apart from the audit sets."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shelldon.broker.offline_past import PAST, PAST_QUESTION, before
from shelldon.contracts.ops import Remember
from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("past", "asked", "kept", "not_now"),
    [
        ("I used to live in Hamburg", "where do I live?", "used to live in Hamburg", "Hamburg"),
        ("formerly I worked at a pharmacy", "what's my job?", "pharmacy", "pharmacy"),
        ("we moved away from Derby in April", "where do we live?", "Derby", "Derby"),
        ("i grew up in tromso", "where do i live", "Tromso", "Tromso"),
        ("I previously taught at a school", "where do I work?", "taught", "school"),
    ],
)
def test_the_past_is_kept_and_never_given_as_now(
    past: str, asked: str, kept: str, not_now: str
) -> None:
    """Eighth pass, class (d): "used to", "previously", "formerly", "moved away from", "grew
    up in" are kept as the past and, asked about now, said only as what was before, with an
    honest "I don't know about now". Written apart from the audit sets."""
    pet = Pet(now=datetime(2026, 12, 9, 17, tzinfo=UTC), rules=True)
    pet.say("hi")
    pet.say(past)
    assert any(kept in op.content for op in pet.ops if isinstance(op, Remember)), pet.ops
    reply = pet.say(asked)
    assert "don't know about now" in reply and "from before" in reply, reply
    assert f"you live in {not_now}" not in reply and f"you work at a {not_now}" not in reply


def test_the_present_is_given_over_the_past_and_a_question_of_the_past_is_answered() -> None:
    pet = Pet(now=datetime(2026, 12, 9, 17, tzinfo=UTC), rules=True)
    pet.say("hi")
    pet.say("i grew up in galway but live in sligo now")
    assert "Sligo" in pet.say("where do i live") and "Galway" not in pet.say("where do i live?")
    assert "Galway" in pet.say("where did i grow up")
    assert pet.say("do i live in galway?").startswith(("No", "I don't know"))


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("previously I taught at a school", "The owner previously taught at a school."),
        ("we moved out of our flat in Leith", "The owner moved out of the owner's flat in Leith."),
        ("I was raised in Cardiff", "The owner was raised in Cardiff."),
        ("I moved away from Leeds to York", None),  # a move to York: the present, not this
        ("I love my flat", None),
    ],
)
def test_before_keeps_the_past_as_said(said: str, kept: str | None) -> None:
    found = before(said, 0)
    assert (found[1][2] if found else None) == kept


def test_a_question_of_the_past_is_told_from_one_of_now() -> None:
    assert PAST_QUESTION.search("where did I grow up?")
    assert not PAST_QUESTION.search("where do I live?")
    assert PAST.search("The owner used to live in Berlin.")
    assert not PAST.search("The owner lives in Berlin.")


@pytest.mark.parametrize(
    ("told", "asked", "place"),
    [
        # the class (the eighth pass's "originally from cape town, now in leeds"), as the ninth
        # pass's tuning set names it
        ("originally from lima, based in madrid these days", "where do i live", "Madrid"),
        # written after the fix, never tuned on
        ("born in oslo, living in bergen now", "where do i live", "Bergen"),
        ("raised in cork but based in dublin", "where do i live", "Dublin"),
        ("born in leeds", "where was i born", "Leeds"),
    ],
)
def test_clauses_with_their_i_dropped_are_kept(told: str, asked: str, place: str) -> None:
    """ "born in glasgow, living in bristol now" kept nothing before the ninth pass."""
    pet = Pet()
    pet.say("hello")
    pet.say(told)
    assert any(isinstance(op, Remember) for op in pet.ops), pet.ops
    pet.bury()
    assert place in pet.say(asked)
