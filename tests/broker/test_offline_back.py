"""A question turned back at the end of a message (shelldon.broker.offline_back through
broker.offline). Before the eleventh pass "I'm Yuki. I'm a nurse … What about you?" left the
question unanswered, and "I love hiking. how about you?" was "I don't know that yet. Tell me
and I'll remember."."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet

GAP = ("don't know that yet", "Tell me and I'll")


def talked(said: str) -> tuple[str, Pet]:
    pet = Pet()
    pet.say("hello shelldon")
    return pet.say(said), pet


@pytest.mark.parametrize(
    "said",
    [
        "I'm Yuki. I'm a nurse and I live in Bristol. What about you?",
        "My name is Margaret, and I am a retired schoolteacher. What about yourself?",
        "im leo, i work in a garage. wbu",
    ],
)
def test_an_introduction_turned_back_is_answered_with_who_the_pet_is(said: str) -> None:
    reply, pet = talked(said)
    assert "Me? I'm shelldon" in reply, reply
    assert any(op.name == "owner's name" for op in pet.ops), pet.ops


@pytest.mark.parametrize(
    ("said", "back"),
    [
        ("I love hiking. how about you?", "try hiking"),
        ("i really like baking. u?", "try baking"),
        ("I'm good thanks. and you?", "doing well"),
        ("pretty tired today. hbu?", "doing well"),
    ],
)
def test_a_liking_or_a_how_are_you_turned_back_is_answered_in_kind(said: str, back: str) -> None:
    reply, _ = talked(said)
    assert back in reply, reply
    assert not any(g in reply for g in GAP), reply


def test_a_question_alone_is_not_turned_back() -> None:
    reply, _ = talked("what about you?")
    assert "Me? I'm shelldon, a small pet" not in reply, reply
