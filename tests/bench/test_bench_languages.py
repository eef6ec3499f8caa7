"""The owner's language profile (`contracts.languages.owner_profile`, and core's ProfileCache)
against the pass it replaced (tests/reference/languages.py), in one run: a full profile window
(PROFILE_CHARS) of owner messages like the measuring scripts', newest first, as a grown pet's
worker reads it. docs/performance.md, "CPU per turn"."""

from __future__ import annotations

import pytest

from reference.languages import owner_profile as one_by_one
from shelldon.contracts.languages import PROFILE_CHARS, owner_profile

# The measuring scripts' mix (scripts/turn_cost.py `message`): 2 in 5 statements that write
# memory, each with its own name or number, the rest questions and small talk.
NAMES = ("Noor", "Ana", "Tomas", "Ines", "Kofi", "Mei", "Lars", "Priya", "Omar", "Zoe")
RELATIONS = ("cousin", "neighbour", "colleague", "friend", "aunt", "uncle", "dentist", "coach")
FOODS = ("dark chocolate", "green olives", "ramen", "lentil soup", "mango", "rye bread")
TALK = (
    "hello, how are you today?",
    "what's my cousin called?",
    "what did I say about chocolate?",
    "it rained all morning here",
    "do you remember where my aunt lives?",
    "thanks, that helps",
)


def message(i: int) -> str:
    if i % 5 in (1, 3):
        if (i // 5) % 2:
            return f"I like {FOODS[i % len(FOODS)]} number {i}"
        return f"my {RELATIONS[(i // 5) % len(RELATIONS)]} is called {NAMES[i % len(NAMES)]}{i}"
    return TALK[i % len(TALK)]


MESSAGES = [message(i) for i in range(600, 0, -1)]  # newest first
assert sum(map(len, MESSAGES)) > PROFILE_CHARS  # the window is full, as after a few hundred turns


@pytest.mark.benchmark(group="owner-profile")
def test_bench_owner_profile_now(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(owner_profile, MESSAGES) == one_by_one(MESSAGES)


@pytest.mark.benchmark(group="owner-profile")
def test_bench_owner_profile_before(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(one_by_one, MESSAGES).trigrams


@pytest.mark.benchmark(group="owner-profile")
def test_bench_owner_profile_kept(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Core's ProfileCache on a turn's window, the previous turn's counts kept (one new message
    in front): what core pays each turn instead of the worker's owner_profile."""
    from shelldon.contracts.languages import ProfileCache

    cache = ProfileCache()
    cache.profile(MESSAGES[1:])  # the turn before
    assert benchmark(cache.profile, MESSAGES) == one_by_one(MESSAGES)
