"""An open request ("tell me something", "surprise me", "talk to me") gets a small real answer of
the pet's own (shelldon.broker.offline_open through broker.offline), never a memory gap ("I don't
know that yet. Tell me and I'll remember.") nor a bare "Tell me more!", and keeps nothing.
Before the phone pass "tell me something interesting" was "I don't know that yet. What is it?"
and "surprise me" was "Mm-hm, I'm listening."."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_open
from shelldon.broker.offline_view import Known, PromptView
from support.offline_pet import Pet, one_turn

GAP_OR_BLAND = ("I don't know", "Tell me more!", "Mm-hm", "I hear you.", "Okay!", "What is it?")


@pytest.mark.parametrize(
    "said",
    [
        # the class, as the brief and the tuning set name it
        "tell me something",
        "tell me something interesting",
        "surprise me",
        "say something nice",
        "tell me a story",
        "talk to me",
        "make me smile",
        "i need a laugh",
        "tell me a fun fact",
        # written after the fixes, never tuned on
        "go on, tell me anything",
        "could you tell me something new?",
        "share a random fact pls",
        "amuse me!!",
        "tell me something about turtles",
        "keep me company",
    ],
)
def test_an_open_request_gets_a_small_real_answer(said: str) -> None:
    reply, ops = one_turn(said)
    assert not any(b in reply for b in GAP_OR_BLAND), reply
    assert len(reply.split()) >= 5, reply
    assert ops == []


@pytest.mark.parametrize(
    "said",
    ["tell me about me", "tell me what you know about me", "tell me a joke", "say my name"],
)
def test_other_tell_me_lines_are_not_open_requests(said: str) -> None:
    assert not offline_open.request(said)


def test_it_can_ask_about_what_the_owner_told_it() -> None:
    view = PromptView(
        known=[
            Known("The owner's name is Ivy.", "memory", 1),
            Known("The owner loves baking.", "memory", 2),
        ]
    )
    replies = {offline_open.answer("talk to me", view, seed) for seed in range(6)}
    assert any("you love baking" in r for r in replies), replies
    assert not any("your name is" in r.casefold() for r in replies), replies


def test_asked_again_it_says_something_else() -> None:
    pet = Pet()
    first = pet.say("tell me something interesting")
    second = pet.say("tell me something interesting")
    assert first != second
