"""What the owner does with their time, said by its craft's verb (broker.offline_pastimes), through
the real prompt and brain: met warmly, said back and kept. Before, "I grow tomatoes in my
greenhouse" was "Okay!" with nothing kept; what only looks like a pastime stays unkept."""

from __future__ import annotations

import pytest

from shelldon.contracts.ops import Remember
from support.offline_pet import talked_to

BLAND = ("Tell me more!", "I hear you.", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I grow tomatoes in my greenhouse", "The owner grows tomatoes in the owner's greenhouse."),
        ("I knit scarves for my grandkids", "The owner knits scarves for the owner's grandkids."),
        ("I keep bees", "The owner keeps bees."),
        ("we keep chickens", "The owner keeps chickens."),
        ("I volunteer at the food bank", "The owner volunteers at the food bank."),
        ("I sing in a choir", "The owner sings in a choir."),
    ],
)
def test_a_pastime_said_by_its_verb_is_met_and_kept(said: str, kept: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert reply not in BLAND and "lovely" in reply, reply
    assert [op.content for op in pet.ops if isinstance(op, Remember)] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "I grow tired of this",
        "I keep forgetting my keys",
        "I collect the kids at 3",
        "I draw the line at that",
    ],
)
def test_what_only_looks_like_a_pastime_is_not_kept_as_one(said: str) -> None:
    pet = talked_to()
    pet.say(said)
    assert not [op for op in pet.ops if isinstance(op, Remember)], pet.ops


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("i play bass in a band called The Static Owls", "The owner plays bass in a band"),
        ("I play the cello", "The owner plays the cello."),
    ],
)
def test_an_instrument_played_is_kept(said: str, kept: str) -> None:
    pet = talked_to()
    pet.say(said)
    kept_now = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert len(kept_now) == 1 and kept_now[0].startswith(kept), kept_now
