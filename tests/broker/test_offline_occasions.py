"""A coming occasion in the life of someone of the owner's (broker.offline_occasions), through the
real prompt and brain with core's keeping between turns: kept with its month as a date and its
noun beside the verb, so a question in the noun's word finds it. Before, "my grandson Tom is
getting married in August" kept nothing and "when is Tom's wedding?" found only his name."""

from __future__ import annotations

import pytest

from shelldon.contracts.ops import Remember
from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("said", "asked", "told"),
    [
        ("my grandson Tom is getting married in August", "when is Tom's wedding?", "August"),
        ("my daughter Susan is graduating next month", "when is Susan's graduation?", "2027"),
        ("my sister is having a baby in March", "when is my sister's baby due?", "March"),
        ("my son is starting school in September", "when does my son start school?", "September"),
    ],
)
def test_a_coming_occasion_is_kept_dated_and_found_by_its_noun(
    said: str, asked: str, told: str
) -> None:
    pet = talked_to()
    pet.say(said)
    kept = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert len(kept) == 1 and "2027" in kept[0], kept
    answer = pet.say(asked)
    assert told in answer and "2027" in answer, answer


@pytest.mark.parametrize(
    "said",
    [
        "Jake is getting married next week",  # days ahead: history's, as a visit is
        "my brother got married in August",  # past, not coming
        "It is getting married in June",  # no one
    ],
)
def test_what_is_no_coming_occasion_keeps_no_dated_entry(said: str) -> None:
    pet = talked_to()
    pet.say(said)
    assert not [op for op in pet.ops if isinstance(op, Remember) and "2027" in op.content]
