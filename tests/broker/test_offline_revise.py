"""A correction filed under the entry that holds the old value (shelldon.broker.offline_revise
through broker.offline). Before the fifteenth pass "my dog Pepper is 4 and very naughty" was kept
as facts/dog pepper age, "actually Pepper is 5, not 4" made a new entry beside it (people/dog
age), the old one still said 4, and the pet said "Okay, updated": memory contradicted itself."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_revise import superseded
from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("told", "corrected", "new", "old"),
    [
        ("my dog Pepper is 4 and very naughty", "actually Pepper is 5, not 4", "5", "4"),
        ("my cat Miso is 3 and loves boxes", "actually Miso is 2, not 3", "2", "3"),
        ("my old dog Rex is 12 and going grey", "Rex is actually 13, not 12", "13", "12"),
        ("my partner Jules is 34 and a runner", "actually Jules is 35, not 34", "35", "34"),
    ],
)
def test_a_correction_revises_the_entry_that_holds_the_old_value(
    told: str, corrected: str, new: str, old: str
) -> None:
    pet = talked_to(told)
    before = set(pet.memory)
    reply = pet.say(corrected)
    assert set(pet.memory) == before, (before, pet.memory)  # no second entry beside it
    bodies = [body for body, _ in pet.memory.values()]
    said = [b for b in bodies if f" {new} " in b or f" {new}." in b]
    assert len(said) == 1 and f" {old} " not in said[0], bodies
    name = told.split()[2]  # "Pepper": the entry keeps who it is about and the rest
    assert name in said[0] and told.split()[-1] in said[0], said
    assert "updated" in reply.casefold(), reply
    pet.bury()
    asked = pet.say(f"how old is {name}?")
    assert new in asked and f" {old} " not in asked, asked


def test_a_correction_no_entry_can_be_told_for_is_no_update() -> None:
    """Two entries say 4; "actually it's 5, not 4" names neither: filed as before, not
    "updated" (which would be untrue)."""
    pet = talked_to("my dog Pepper is 4 and very naughty", "my cat Miso is 4 and very lazy")
    reply = pet.say("actually Biscuit is 5, not 4")
    assert "updated" not in reply.casefold(), reply


def test_an_older_statement_with_one_value_swapped_is_not_said_beside_the_new() -> None:
    said = ["Your partner Jules is 35 and a runner."]
    assert superseded("my partner Jules is 34 and a runner", said)
    assert superseded("The owner's mum lives in Galway.", ["Your mum lives in Cork."])
    # two sisters are two people, not one put right
    assert not superseded("my sister Anna lives in Leeds", ["Your sister Beth lives in Leeds."])
    assert not superseded("my sister lives in Leeds", ["Your brother lives in Leeds."])


def test_family_after_a_correction_says_the_new_value_only() -> None:
    pet = talked_to("my partner Jules is 34 and a runner", "actually Jules is 35, not 34")
    family = pet.say("what do you know about my family?")
    assert "35" in family and "34" not in family, family
