"""An addition said as a correction (shelldon.broker.offline_additions through broker.offline):
"correction: I do bathrooms too, not only kitchens" adds to the entry that says kitchens, nothing
taken away. Before the sixteenth pass it kept nothing ("Mm-hm, I'm listening.")."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("told", "added", "asked", "both"),
    [
        ("I fit kitchens for a living", "correction: I do bathrooms too, not only kitchens",
         "what do I do for work?", ("kitchens", "bathrooms")),
        ("I teach guitar", "actually I teach piano as well", "what do I do for work?",
         ("guitar", "piano")),
        ("I work at a garden centre",
         "update: I also work at the market, not just the garden centre",
         "where do I work?", ("garden centre", "market")),
    ],
)  # fmt: skip
def test_an_addition_said_as_a_correction_adds_to_the_entry(
    told: str, added: str, asked: str, both: tuple[str, str]
) -> None:
    pet = Pet(rules=True)
    pet.say("hi, I'm Rosie")
    pet.say(told)
    reply = pet.say(added)
    assert "added" in reply and both[1] in reply, reply
    bodies = [body for body, _ in pet.memory.values()]
    assert len(bodies) == 2, pet.memory  # the name, and the one entry with both
    assert all(thing in bodies[1] for thing in both), bodies
    answer = pet.say(asked)
    assert all(thing in answer for thing in both), answer


def test_an_addition_with_nothing_to_add_to_is_kept_on_its_own() -> None:
    pet = Pet(rules=True)
    reply = pet.say("correction: I do funerals too")
    assert [body for body, _ in pet.memory.values()] == ["The owner does funerals too."]
    assert "funerals" in reply


def test_a_swap_is_still_a_correction() -> None:
    pet = Pet(rules=True)
    pet.say("I work at a garden centre")
    pet.say("correction: I work at the market, not the garden centre")
    assert "garden centre" not in " ".join(body for body, _ in pet.memory.values())
