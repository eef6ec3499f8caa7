"""Each low feeling met with words that fit it (broker.offline_lows): lonely, worried, stressed,
sad, cross, unwell; never the one "what happened?" line, and the same feeling twice in other
words."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_lows
from support.offline_pet import one_turn, talked_to


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("I'm feeling a bit lonely after shifts", ("lonely", "company")),
        ("feeling so alone since the move", ("lonely", "company")),
        ("feeling a bit isolated lately", ("lonely", "company")),
        ("nobody ever texts me", ("lonely", "company")),
        ("work is stressing me out", ("stress", "pressure")),
        ("I really miss my dad", ("miss",)),
        ("I'm worried about my dad's operation", ("worr",)),
        ("I'm really anxious about the interview", ("worr",)),
        ("I'm so stressed about the deadline", ("stress", "pressure")),
        ("I've been feeling overwhelmed at work", ("stress", "pressure", "a lot")),
        ("I'm feeling sad tonight", ("sad",)),
        ("I'm really down today", ("sad",)),
        ("I'm so annoyed with my landlord", ("frustrat", "annoyed", "maddening")),
        ("I'm feeling ill", ("feel better",)),
    ],
)
def test_a_low_feeling_is_met_in_words_of_its_kind(said: str, words: tuple[str, ...]) -> None:
    reply, ops = one_turn(said)
    assert any(w in reply.casefold() for w in words), reply
    assert "what happened" not in reply.casefold(), reply
    assert ops == [], ops  # a feeling is never a fact


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("I'm feeling lonely tonight", "feeling lonely again"),
        ("I'm worried about money", "still worried about money"),
        ("I'm stressed about work", "I'm a bit stressed again"),
    ],
)
def test_the_same_feeling_twice_is_met_in_other_words(first: str, again: str) -> None:
    pet = talked_to()
    one = pet.say(first)
    two = pet.say(again)
    assert one != two and offline_lows.kind(first) == offline_lows.kind(again), (one, two)


def test_a_low_day_with_no_word_of_a_kind_keeps_the_general_lines() -> None:
    assert offline_lows.kind("ugh, bad day") is None
    reply, _ = one_turn("ugh, bad day")
    assert "sorry" in reply.casefold() or "hug" in reply.casefold(), reply


def test_every_line_of_every_kind_is_warm_and_asks_no_what_happened() -> None:
    for line in offline_lows.all_replies():
        low = line.casefold()
        warm = ("sorry", "sounds", "hug", "here", "tough", "poor you", "that's a lot", "be kind")
        assert any(w in low for w in warm), line
        assert "what happened" not in low, line


@pytest.mark.parametrize(("said", "who"), [("I miss her", "her"), ("I miss him so much", "him")])
def test_missing_someone_is_said_of_her_or_him(said: str, who: str) -> None:
    pet = talked_to()
    replies = [pet.say(said) for _ in range(3)]
    about = [r for r in replies if "about" in r]
    assert about and all(f"about {who}" in r for r in about), replies
