"""A plan the owner is only weighing (shelldon.broker.offline_ideas through broker.offline).
Before the fifteenth pass "I'm thinking of learning the fiddle" was "I hear you." and "thinking
about getting a puppy" "Ooh, thinking about getting a. Enjoy it!"."""

from __future__ import annotations

import pytest

from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("I'm thinking of learning the fiddle", "learning the fiddle"),
        ("thinking about getting a puppy", "getting a puppy"),
        ("I'm considering going back to uni", "going back to uni"),
        ("been toying with the idea of taking up bowls", "taking up bowls"),
        ("I'm thinking about quitting my job", "quitting your job"),
    ],
)
def test_an_idea_is_met_with_interest_and_nothing_kept(line: str, said: str) -> None:
    pet = talked_to()
    reply = pet.say(line)
    assert said in reply.casefold() and reply.rstrip().endswith("?"), reply
    assert "Enjoy it" not in reply and "I hear you" not in reply, reply
    assert pet.ops == [], pet.ops


def test_thinking_of_someone_is_no_idea() -> None:
    pet = talked_to()
    reply = pet.say("I'm thinking of you")
    assert "drawing you" not in reply and "thinking about it" not in reply, reply
