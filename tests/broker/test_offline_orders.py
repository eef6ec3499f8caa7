"""A dislike said with an order to the pet (shelldon.broker.offline_orders through broker.offline).
Before the fifteenth pass "I hate coriander, never suggest it" was kept whole ("The owner hates
coriander, never suggest it.") and said back as "You hate coriander, never suggest it.", the
order read as a fact about the owner; "I loathe …" was "I hear you." and nothing kept."""

from __future__ import annotations

import pytest

from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("line", "thing", "promise", "asked"),
    [
        ("I hate coriander, never suggest it", "coriander", "won't suggest it", "what do I hate?"),
        (
            "I can't stand olives, don't ever suggest them",
            "olives",
            "won't suggest them",
            "what do I dislike?",
        ),
        (
            "I loathe pineapple on pizza, never recommend it to me",
            "pineapple",
            "won't recommend it",
            "do you remember what I hate?",
        ),
        (
            "i really don't like mushrooms so please never suggest them",
            "mushrooms",
            "won't suggest them",
            "what do I dislike?",
        ),
    ],
)
def test_the_dislike_is_kept_and_the_order_said_as_a_promise(
    line: str, thing: str, promise: str, asked: str
) -> None:
    pet = talked_to()
    reply = pet.say(line)
    assert promise in reply and thing in reply, reply
    for order in ("never suggest", "don't ever suggest", "never recommend"):
        assert order not in reply, reply
    kept = [body for body, _ in pet.memory.values() if thing in body]
    assert len(kept) == 1, pet.memory
    assert "suggest" not in kept[0] and "recommend" not in kept[0], kept
    pet.bury()
    back = pet.say(asked)
    assert thing in back and "suggest" not in back and "recommend" not in back, back
