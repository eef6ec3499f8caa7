"""News the owner tells in passing (broker.offline_news), through the real brain: worry about
someone is heard warmly and nothing is kept, a birthday in the family is celebrated and kept, a
habit of someone just mentioned and a change of diet (broker.offline_life) are
kept as proposed ops, a small complaint
gets sympathy and nothing kept. Lines here are written apart from the audit sets."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shelldon.broker.offline_news import heard, news
from shelldon.contracts.ops import Remember
from support.offline_audit import WARM
from support.offline_pet import Pet, one_turn

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


def _turn(message: str) -> tuple[str, list[object]]:
    return one_turn(message, now=datetime(2026, 12, 9, 17, tzinfo=UTC))


@pytest.mark.parametrize(
    "message",
    [
        "my nan is in hospital again",
        "my stepdad had a stroke last night",
        "my auntie has been poorly for ages",
        "my flatmate is really sick",
        "my little brother broke his arm and is in a&e",
        "our grandpa had an operation today",
    ],
)
def test_worry_about_someone_is_heard_warmly_and_nothing_kept(message: str) -> None:
    reply, ops = _turn(message)
    assert any(w in reply.casefold() for w in WARM), reply
    assert reply not in BLAND
    assert not [op for op in ops if isinstance(op, Remember)], ops


@pytest.mark.parametrize(
    ("message", "content", "said"),
    [
        # a month said relative to today is kept as the month (the eighteenth pass: "next month"
        # a month later is another one)
        (
            "my nephew max turns 3 next month",
            "The owner's nephew Max turns 3 in January 2027, his birthday.",
            "3",
        ),
        # a day said relative to today is kept as its date (the thirteenth pass)
        (
            "its my mums 80th on sunday",
            "The owner's mum turns 80 on 13 December, her birthday.",
            "80",
        ),
        (
            "my twin sister is turning 30 tomorrow",
            "The owner's twin sister turns 30 on 10 December, her birthday.",
            "30",
        ),
    ],
)
def test_a_birthday_in_the_family_is_kept_and_celebrated_not_a_plan(
    message: str, content: str, said: str
) -> None:
    reply, ops = _turn(message)
    kept = [op for op in ops if isinstance(op, Remember)]
    assert [op.content for op in kept] == [content]
    assert (said in reply and "birthday" in reply.casefold()) or "big one" in reply
    assert "luck" not in reply and "goes well" not in reply


@pytest.mark.parametrize(
    ("first", "then", "content"),
    [
        ("my uncle is called Rob", "he teaches maths", "The owner's uncle Rob teaches maths."),
        ("my girlfriend is ines", "she runs a bakery", "The owner's girlfriend runs a bakery."),
        (
            "my dad is called Piet",
            "he volunteers at the food bank",
            "The owner's dad Piet volunteers at the food bank.",
        ),
    ],
)
def test_a_habit_of_someone_just_mentioned_is_kept(first: str, then: str, content: str) -> None:
    pet = Pet(now=datetime(2026, 12, 9, 17, tzinfo=UTC))
    pet.say(first)
    reply = pet.say(then)
    assert [op.content for op in pet.ops if isinstance(op, Remember)] == [content]
    assert reply not in BLAND


@pytest.mark.parametrize(
    ("message", "name", "content"),
    [
        ("im pescatarian these days", "diet", "The owner is pescatarian."),
        ("i'm gluten free now", "diet", "The owner is gluten free."),
        ("im teetotal now, 2 years", "diet", "The owner is teetotal."),
        ("I'm now fully plant-based", "diet", "The owner is plant-based."),
        ("im sober now, 3 weeks", "diet", "The owner is sober."),
    ],
)
def test_a_change_of_diet_is_kept_in_facts(message: str, name: str, content: str) -> None:
    reply, ops = _turn(message)
    assert [(op.collection, op.name, op.content) for op in ops if isinstance(op, Remember)] == [
        ("facts", name, content)
    ]
    assert reply not in BLAND


@pytest.mark.parametrize(
    "message",
    [
        "parcel didnt arrive 😤",
        "ugh the printer jammed",
        "my flight is delayed again",
        "lift is broken again 🙄",
        "typical, missed the bus",
    ],
)
def test_a_small_complaint_gets_sympathy_and_nothing_kept(message: str) -> None:
    reply, ops = _turn(message)
    assert reply not in BLAND
    assert any(w in reply.casefold() for w in ("annoying", "not again", "sorry", "oh no")), reply
    assert not [op for op in ops if isinstance(op, Remember)], ops


@pytest.mark.parametrize(
    "message",
    [
        "my neighbour painted the fence",
        "my colleague bought a motorbike",
        "my sis started a podcast",
    ],
)
def test_someones_news_gets_a_word_about_it(message: str) -> None:
    reply, ops = _turn(message)
    assert reply not in BLAND
    assert not [op for op in ops if isinstance(op, Remember)], ops


def test_rules_leave_other_lines() -> None:
    """What only looks alike: a question, the owner's own plan, a place said by a relation."""
    assert heard("is my mum in hospital?", 0) is None or "?" not in "is my mum in hospital?"
    assert heard("my sister lives in leeds", 0) is None
    assert heard("i'm going to the gym", 0) is None
    assert news("my sister got engaged", 0) is not None
    assert news("my sister is called Ana", 0) is None


@pytest.mark.parametrize(
    ("said", "wish", "kept"),
    [
        ("it's my birthday today", "Happy birthday", ("facts", "birthday", "on 1 December")),
        ("its my bday!! 🎉", "Happy birthday", ("facts", "birthday", "on 1 December")),
        ("tomorrow's my birthday", "happy early birthday", ("facts", "birthday", "on 2 December")),
        ("I turn 40 tomorrow", "40, what a number", ("facts", "birthday", "on 2 December")),
        ("it's my mum's birthday today", "to your mum", ("people", "mum birthday", "1 December")),
        ("its my sisters bday tomorrow", "to your sister", ("people", "sister birthday", "2 Dec")),
    ],
)
def test_a_birthday_said_as_today_or_tomorrow_is_wished_and_kept_as_a_date(
    said: str, wish: str, kept: tuple[str, str, str]
) -> None:
    """Before: "Okay!" or "Mm-hm, I'm listening." and nothing kept; "today" would be no date."""
    reply, ops = one_turn(said)  # support.offline_pet.NOW: 1 December 2026, 18:00
    assert wish in reply and "🎂" in reply, reply
    [op] = ops
    assert isinstance(op, Remember) and (op.collection, op.name) == kept[:2], ops
    assert kept[2] in op.content and "today" not in op.content, op.content


@pytest.mark.parametrize(
    "said", ["is it my birthday today?", "it's my birthday party today", "my birthday is soon"]
)
def test_a_question_or_a_party_is_no_birthday_today(said: str) -> None:
    reply, ops = one_turn(said)
    assert "Happy birthday" not in reply and not any("December" in str(op) for op in ops), reply
