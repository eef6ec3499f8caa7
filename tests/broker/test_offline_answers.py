"""The owner answering what the pet just asked, and small talk with no fact in it
(shelldon.broker.offline_answers through broker.offline). Before the ninth pass "pretty good, went
climbing" after "How are you?" was met as a "meh" mood or "Tell me more!", "yeah long shift at
work" after "How are you holding up?" was "I hear you.", "just watching telly", "nm, just
relaxing" and "look at me, i baked bread 💪" were "Okay!" or "Mm-hm, I'm listening."."""

from __future__ import annotations

import re

import pytest

from shelldon.broker import offline_answers
from shelldon.worker.prompt import HistoryRow
from support.offline_pet import Pet, one_turn

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")
WARM = ("sorry", "sounds", "glad", "hug", "rest", "here")


def after(pet_asked: str) -> tuple[HistoryRow, ...]:
    return (HistoryRow(1, "owner", "hey"), HistoryRow(2, "pet", pet_asked))


@pytest.mark.parametrize(
    ("pet_asked", "said", "holds"),
    [
        # the class, as the tuning set names it
        ("I'm doing well, thanks for asking. How are you?", "not bad, been gardening all day",
         "gardening"),
        ("Put your feet up if you can. What would help right now?", "a bath would help", "bath"),
        # written after the module, never tuned on
        ("I'm doing well, thanks for asking. How are you?", "really good! went swimming",
         "swimming"),
        ("I'm doing well, thanks for asking. How are you?", "great thanks", "!"),
        ("What would help right now?", "honestly just need a hug", "hug"),
        ("I'm happy as a pocket pet can be. How about you?", "yeah all good", "!"),
    ],
)  # fmt: skip
def test_an_answer_to_the_pets_question_is_heard_as_one(
    pet_asked: str, said: str, holds: str
) -> None:
    reply, ops = one_turn(said, recent=after(pet_asked))
    assert holds in reply.casefold(), reply
    assert ops == []
    asked = [q for q in pet_asked.split(". ") if q.endswith("?")]
    assert not any(q in reply for q in asked), reply  # its own question is not asked again


@pytest.mark.parametrize(
    ("pet_asked", "said"),
    [
        ("That sounds exhausting. How are you holding up?", "yeah long shift at the hospital"),
        # written after the module, never tuned on
        ("Want to talk about it?", "yeah it was just a rough day"),
        ("Want to talk about it?", "not really"),
        ("What would help right now?", "idk, today was hectic"),
        # by eye on the after-set, after its run: a glad word with a hard day is no glad answer
        ("I'm doing well, thanks for asking. How are you?", "fine i guess, long week tho"),
    ],
)
def test_a_hard_answer_to_a_question_about_feelings_is_heard_warmly(
    pet_asked: str, said: str
) -> None:
    reply, ops = one_turn(said, recent=after(pet_asked))
    assert reply not in BLAND and any(w in reply.casefold() for w in WARM), reply
    assert ops == []


@pytest.mark.parametrize(
    ("said", "holds"),
    [
        ("just watching telly", "watching telly"),
        ("nm, just relaxing", "relaxing"),
        ("lying in bed scrolling", "lying in bed"),
        ("nothing much really", "nothing much"),
        ("its colder than paris here", "colder"),
        ("look at me, i baked bread from scratch 💪", "boast"),
        # written after the module, never tuned on
        ("not much, just cooking", "cooking"),
        ("sitting in the garden", "sitting in the garden"),
        ("idk what to talk about", "hang out"),
        ("way busier than last week tbh", "busier"),
        ("guess what, i fixed my bike all by myself", "boast"),
    ],
)
def test_small_talk_with_no_fact_gets_a_word_of_its_own(said: str, holds: str) -> None:
    reply, ops = one_turn(said)
    assert reply not in BLAND, reply
    if holds == "boast":
        assert reply in offline_answers._BOAST_REPLIES, reply
    elif holds == "nothing much":
        assert reply in offline_answers._NOTHING_REPLIES, reply
    else:
        assert holds in reply.casefold(), reply
    assert ops == []


@pytest.mark.parametrize(
    "said",
    [
        "not bad, just got a new job at tesco",  # a fact: the fact rules keep it
        "living in bristol now",
        "going to the gym later",  # a plan: offline_life's
        "I need to call the bank",
        "my sister is visiting",
        "I'm exhausted",  # a mood: offline_moods'
    ],
)
def test_a_line_with_a_fact_a_plan_or_a_mood_is_not_small_talk(said: str) -> None:
    asked = "I'm doing well, thanks for asking. How are you?"
    assert offline_answers.answer(said, asked, 0) is None, said


@pytest.mark.parametrize(
    "said",
    [
        "not bad, just got a new job at tesco",
        # written after the fix, never tuned on
        "good thanks! my daughter is called Lena btw",
        "long day. I work as a nurse",
    ],
)
def test_a_fact_in_an_answer_is_still_kept(said: str) -> None:
    """Before the ninth pass the opening ("not bad") was read as a "meh" mood and the new job
    was lost."""
    reply, ops = one_turn(said, recent=after("I'm doing well, thanks for asking. How are you?"))
    assert ops, reply


@pytest.mark.parametrize(
    "told",
    [
        # the class (the pet pass's "Do you miss it?" asked again two replies on)
        ("I used to have a dog called Max", "I used to ride horses", "I used to play the cello"),
        # written after the fix, never tuned on
        ("I used to surf", "I used to live in a tiny flat", "I used to have a cat called Tib"),
        ("I used to work in a bakery", "I used to sing in a choir", "I used to smoke"),
    ],
)
def test_the_pets_own_follow_up_is_not_asked_again_two_replies_on(told: tuple[str, ...]) -> None:
    pet = Pet()
    pet.say("hello")
    replies = [pet.say(t) for t in told]
    asked = {q for r in replies[:2] for q in re.split(r"(?<=[.!?])\s+", r) if q.endswith("?")}
    assert not any(q in replies[2] for q in asked if len(q.split()) >= 3), replies


def test_an_answer_to_a_question_the_pet_asked_before_its_introduction_is_heard() -> None:
    """The first reply asked "How are you holding up?" and then, introducing itself, "What's
    your name?": "yeah work was mad" answers the first (the ninth pass's after-set)."""
    asked = "That sounds tiring. How are you holding up? Hi, I'm shelldon! What's your name?"
    reply, ops = one_turn("yeah the commute was awful", recent=after(asked))
    assert any(w in reply.casefold() for w in WARM) and reply not in BLAND, reply
    assert ops == []
