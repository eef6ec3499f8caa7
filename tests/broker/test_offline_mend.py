"""A short line made whole with the owner's line before it (shelldon.broker.offline_mend through
broker.offline). Before the tenth pass "sorry i meant brutus not bruno" was "I hear you." and the
dog stayed Bruno, "actually its tuesday not monday" was "I hope the actually its goes well!", and
"its 14 april" after the pet said it did not know the birthday was "Tell me more!"."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_mend
from support.offline_pet import Pet, talked_to

told = talked_to  # hello, "I'm Sam", then each line


@pytest.mark.parametrize(
    ("first", "mended", "asked", "new", "old"),
    [
        ("my cat is called Pip", "oops i meant Pop not Pip", "what's my cat called?", "Pop", "Pip"),
        ("i work at the museum", "no wait, i said museum but its actually the gallery",
         "where do i work?", "gallery", "museum"),
        ("my rabbit's name is snowy", "sorry i meant snowball, not snowy",
         "whats my rabbits name", "Snowball", "Snowy"),
    ],
)  # fmt: skip
def test_a_correction_by_its_new_word_revises_the_same_entry(
    first: str, mended: str, asked: str, new: str, old: str
) -> None:
    pet = told(first)
    kept_before = set(pet.memory)
    pet.say(mended)
    assert set(pet.memory) == kept_before  # the same entry, revised: never a second one
    reply = pet.say(asked)
    assert new in reply and old not in reply, reply


def test_a_plan_put_right_is_said_back_and_nothing_kept() -> None:
    pet = told("dentist on thursday at 3")
    reply = pet.say("actually it's friday not thursday")
    assert "Friday" in reply and "hope the actually" not in reply, reply
    assert pet.ops == []


@pytest.mark.parametrize(
    ("asked", "answer", "then", "holds"),
    [
        ("do you know my birthday?", "its 2 march", "when is my birthday?", "2 March"),
        ("what's my dog's name?", "Rolo", "what's my dog called?", "Rolo"),
    ],
)
def test_an_answer_to_what_the_pet_did_not_know_is_kept(
    asked: str, answer: str, then: str, holds: str
) -> None:
    pet = told(asked)
    pet.say(answer)
    assert pet.ops, "nothing kept"
    assert holds in pet.say(then)


@pytest.mark.parametrize("said", ["lol", "nvm", "i dunno", "not telling you"])
def test_a_reply_that_is_no_value_is_never_kept_as_the_answer(said: str) -> None:
    pet = told("do you know my birthday?")
    pet.say(said)
    assert not any("birthday" in body for body, _ in pet.memory.values())


def test_a_correction_stated_in_full_is_left_to_the_correction_rules() -> None:
    # "i meant i live in leeds" restates the fact: "york" is never replaced by a whole clause
    for said in ("sorry i meant i live in leeds, not york", "i meant my home is leeds not york"):
        assert offline_mend.mended(said, ["i live in york", "my home is york"], "") is None
    mended = offline_mend.mended("i meant leeds not york", ["i live in york"], "")
    assert mended is not None and mended.statement == "i live in leeds"


def test_the_word_put_right_is_found_in_a_line_that_also_asked_something() -> None:
    # found by talking to the running pet: the row held a question too, so nothing was mended
    pet = told("so i just started a new job at the bakery. its lovely. do you like cake?")
    reply = pet.say("wait i said bakery but its actually the cake shop")
    assert "updated" in reply and "cake shop" in reply, reply
    assert "congratulations" not in reply.casefold(), reply  # an update, not news again
    assert "cake shop" in pet.say("where do i work?")


def test_not_the_old_then_the_new_puts_a_name_right() -> None:
    """The eleventh pass: "sorry, not Lucia, is Luiza" was "Tell me more!" and nothing kept."""
    pet = Pet()
    pet.say("hi, I'm Ana")
    pet.say("my mother is called Lucia")
    reply = pet.say("sorry, not Lucia, is Luiza")
    assert "Luiza" in reply and pet.ops, reply
    assert "Luiza" in pet.say("what is my mother's name?")


@pytest.mark.parametrize(
    ("before", "said", "holds", "never"),
    [
        # the fourteenth pass: "it was" after "not …", the place alone put right in a longer
        # old value, and a new value that repeats the words around the old one
        ("I used to work at the shipyard in Gdansk",
         "no, not the shipyard in gdansk, it was Newcastle", "the shipyard in Newcastle",
         "it was"),
        ("signed up for the Cardiff half marathon in april",
         "Correction: it's the Bath half, not Cardiff", "Bath", "the the"),
    ],
)  # fmt: skip
def test_a_correction_fits_where_the_old_value_stood(
    before: str, said: str, holds: str, never: str
) -> None:
    mended = offline_mend.mended(said, [before], "")
    assert mended is not None and holds in mended.statement, mended
    assert never not in mended.statement and "half half" not in mended.statement, mended
