"""A baby born to one of the owner's family, and its name said on the next line
(shelldon.broker.offline_newborn, through the real prompt and brain): cheered, and the name kept
as the owner's niece, nephew or grandchild; a friend's baby's name stays unkept. Before the
nineteenth pass "his name is Arjun" after "my sister Priya just had a baby boy!" kept nothing
and "what's my nephew called?" was "I don't know that yet."."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_newborn import named
from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("news", "name", "asked", "kin"),
    [
        ("my brother Tom just had a baby girl!", "her name is Ivy", "what's my niece called?",
         "niece"),
        ("my daughter had a little boy yesterday", "we named him Leo",
         "what's my grandson's name?", "grandson"),
    ],
)  # fmt: skip
def test_the_babys_name_is_kept_as_the_owners_kin(
    news: str, name: str, asked: str, kin: str
) -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    cheer = pet.say(news)
    assert "congratulations" in cheer.casefold(), cheer
    pet.say(name)
    kept = " ".join(body for body, _ in pet.memory.values())
    assert f"The owner's {kin} is called {name.split()[-1]}." in kept, kept
    answer = pet.say(asked)
    assert name.split()[-1] in answer, answer


def test_a_friends_baby_or_the_wrong_pronoun_keeps_no_kin() -> None:
    assert named("his name is Arjun", ["my friend Jo just had a baby boy"]) is None
    assert named("her name is Priya", ["my sister Priya just had a baby boy"]) is None
    assert named("his name is Arjun", ["my sister had twins"]) is None
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("my friend Jo had a baby girl")
    pet.say("her name is Rose")
    assert not any("Rose" in body for body, _ in pet.memory.values()), pet.memory


def test_a_brothers_wifes_baby_unnamed_parent_is_still_the_owners_kin() -> None:
    """ "my brother's wife just had a baby girl" was no one's baby; "my sister just had a baby
    boy" with no name read "just" as her name."""
    pet = Pet()
    pet.say("hi, I'm Ola")
    cheer = pet.say("my brother's wife just had a baby girl")
    assert "Just" not in cheer and "just," not in cheer, cheer
    pet.say("her name is Luna")
    assert any("niece is called Luna" in body for body, _ in pet.memory.values()), pet.memory
