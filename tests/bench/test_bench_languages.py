"""The owner's language profile every worker computes (`contracts.languages.owner_profile`)
against the pass it replaced (tests/reference/languages.py), in one run: a full profile window
(PROFILE_CHARS) of owner messages like the measuring scripts', newest first, as a grown pet's
worker reads it. docs/performance.md, "CPU per turn"."""

from __future__ import annotations

import pytest

from reference.languages import owner_profile as one_by_one
from shelldon.contracts.languages import PROFILE_CHARS, owner_profile

# The measuring scripts' mix (scripts/turn_cost.py): statements that write memory, questions, small
# talk, each with its own name or number.
SHAPES = (
    "my cousin is called Noor{i}",
    "I like ramen number {i}",
    "What did we talk about yesterday? I think it was trip {i}.",
    "hey, how are you doing today",
    "Do you remember the tea I like? It was the one from shop {i}!",
)
MESSAGES = [SHAPES[i % len(SHAPES)].format(i=i) for i in range(2000, 0, -1)]
assert sum(map(len, MESSAGES)) > PROFILE_CHARS  # the window is full, as after a few hundred turns


@pytest.mark.benchmark(group="owner-profile")
def test_bench_owner_profile_now(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(owner_profile, MESSAGES) == one_by_one(MESSAGES)


@pytest.mark.benchmark(group="owner-profile")
def test_bench_owner_profile_before(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(one_by_one, MESSAGES).trigrams
