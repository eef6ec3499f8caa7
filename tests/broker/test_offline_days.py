"""A feeling followed over days (shelldon.broker.offline_days through broker.offline). Before the
tenth pass a greeting the morning after a hard evening asked "Did you sleep well?" as on any day,
"a bit better today, the operation went well" was met with "Oh no", "so relieved" with "Mm-hm,
I'm listening." and "i don't really want to talk about it" was kept as a fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.offline_pet import Pet

EVENING = datetime(2027, 3, 2, 20, 0, tzinfo=UTC)
MORNING = datetime(2027, 3, 3, 8, 30, tzinfo=UTC)


def after(*said: str) -> Pet:
    pet = Pet(now=EVENING)
    pet.say("hello")
    pet.say("I'm Sam")
    for line in said:
        pet.say(line)
    pet.now = MORNING  # the next day
    return pet


@pytest.mark.parametrize(
    ("hard", "greeting", "asks"),
    [
        ("my dad is in hospital, i'm scared", "morning", "your dad"),
        ("my little sister is really sick", "hi shelldon", "your little sister"),
        ("i feel awful today, everything went wrong", "good morning!", "feeling"),
    ],
)
def test_a_greeting_after_a_hard_day_asks_after_it(hard: str, greeting: str, asks: str) -> None:
    pet = after(hard)
    reply = pet.say(greeting)
    assert asks in reply and reply.endswith("?"), reply
    assert "Did you sleep well" not in reply, reply


def test_a_greeting_after_better_news_does_not_ask_again() -> None:
    pet = after("my dad is in hospital", "he's doing better now, phew")
    reply = pet.say("good morning")
    assert "your dad" not in reply and "better" not in reply, reply


def test_a_greeting_after_an_ordinary_day_is_an_ordinary_greeting() -> None:
    assert "How are you feeling" not in after("my car is red").say("good morning")


@pytest.mark.parametrize(
    "said",
    [
        "bit better today, the operation went well",
        "much better now thanks",
        "phew, the results came back fine",
        "feeling so relieved",
        "she's recovering well",
        "ok did 2 hours, feeling a bit better about it",  # the twelfth pass: "Tell me more!"
        "slept on it, much better now",
    ],
)
def test_things_getting_better_are_met_gladly(said: str) -> None:
    pet = after("my mum is having surgery today")
    reply = pet.say(said)
    assert "glad" in reply.casefold() or "good news" in reply.casefold(), reply
    assert "sorry" not in reply.casefold() and "oh no" not in reply.casefold(), reply
    assert pet.ops == []


@pytest.mark.parametrize(
    "said",
    [
        "not any better",
        "no better today",
        "my car is better than yours",
        "saw the doctor, she's not any better",
    ],
)
def test_no_better_is_never_met_gladly(said: str) -> None:
    assert "glad to hear" not in after().say(said)


@pytest.mark.parametrize(
    "said",
    ["i don't really want to talk about it", "dont wanna talk about it rn",
     "i'd rather not talk about it"],
)  # fmt: skip
def test_not_wanting_to_talk_is_respected_and_never_kept(said: str) -> None:
    pet = after("ugh awful day")
    reply = pet.say(said)
    assert "okay" in reply.casefold() or "of course" in reply.casefold(), reply
    assert pet.ops == [] and "remember" not in reply, reply


@pytest.mark.parametrize(
    "said",
    ["i feel terrible. my mum is in hospital", "what an awful day. my uncle is in hospital"],
)
def test_a_hard_day_and_the_worry_in_it_are_met_with_one_sympathy(said: str) -> None:
    reply = after().say(said)
    assert reply.count("sorry") <= 1 and reply.count("?") <= 1, reply  # consoled twice before
    assert "poor your" not in reply, reply  # "Oh, poor your mum." before


# --- written after the after-set's first run (its misses' classes, in lines of their own) ------


@pytest.mark.parametrize(
    "hard", ["my husband has the flu and i'm worried", "my daughter has a chest infection"]
)
def test_someone_ill_is_met_with_sympathy_kept_as_nothing_and_asked_after(hard: str) -> None:
    pet = after()
    pet.now = EVENING
    reply = pet.say(hard)
    assert "sorry" in reply.casefold() and pet.ops == [], (reply, pet.ops)
    pet.now = MORNING
    assert "your " in pet.say("morning"), "no follow-up"


@pytest.mark.parametrize(
    "said", ["my wife is loads better this morning", "the baby seems much better today"]
)
def test_someone_better_is_met_gladly(said: str) -> None:
    reply = after("my wife has a fever").say(said)
    assert "glad" in reply.casefold() or "good news" in reply.casefold(), reply


@pytest.mark.parametrize(
    "said", ["i'd rather not go into it", "i'd rather not discuss it right now"]
)
def test_rather_not_going_into_it_is_respected(said: str) -> None:
    pet = after("ugh")
    reply = pet.say(said)
    assert "okay" in reply.casefold() or "of course" in reply.casefold(), reply
    assert pet.ops == []


@pytest.mark.parametrize("child", ["little girl", "little boy", "little one", "baby girl"])
def test_a_child_called_by_what_a_parent_says_is_asked_after(child: str) -> None:
    """The eleventh pass: "my little girl" was no family word, so the morning asked how the
    owner felt rather than after her."""
    pet = after(f"my {child} is in hospital with a fever, i'm so worried")
    reply = pet.say("good morning")
    assert f"your {child}" in reply and reply.endswith("?"), reply
