"""A liking said without "I like", or one that changed (shelldon.broker.offline_likes): the
entry is named by the thing, so a change is the same entry (played through the brain in
tests/broker/test_offline_memory_talk.py, and through the gate in
tests/core/test_offline_facts_e2e.py)."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_likes import LIKING, beside, liked, liking
from shelldon.broker.offline_view import Shown
from shelldon.contracts.ops import Remember
from support.offline_pet import Pet, one_turn


@pytest.mark.parametrize(
    ("thing", "named"),
    [
        ("jazz anymore", "jazz"),
        ("coffee these days", "coffee"),
        ("running any more", "running"),
        ("horror films at all", "horror films"),
        ("tea very much", "tea"),
        ("jazz", "jazz"),
    ],
)
def test_a_liking_is_named_by_the_thing_not_by_when(thing: str, named: str) -> None:
    assert liked(thing) == named


@pytest.mark.parametrize(
    ("said", "thing", "kept"),
    [
        ("not a fan of sushi", "sushi", "The owner is not a fan of sushi."),
        ("I'm not into football", "football", "The owner is not into football."),
        ("I'm not a big fan of cats", "cats", "The owner is not a big fan of cats."),
        (
            "not really keen on jazz anymore",
            "jazz",
            "The owner is not really keen on jazz anymore.",
        ),
        ("I used to love cake", "cake", "The owner used to love cake."),
    ],
)
def test_a_liking_without_like_is_kept_in_the_owners_words(
    said: str, thing: str, kept: str
) -> None:
    assert liking(said) == (thing, kept)
    assert LIKING.search(kept)  # so it answers "do I like …?"


@pytest.mark.parametrize(
    "said", ["I'm not tired", "not today", "I like jazz", "I used to live here"]
)
def test_other_sentences_are_no_liking(said: str) -> None:
    assert liking(said) is None


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I love my dog", "The owner loves the owner's dog."),
        ("I hate my commute", "The owner hates the owner's commute."),
        ("I don't like my boss", "The owner doesn't like the owner's boss."),
        ("we love our garden", None),
    ],
)
def test_a_liking_of_something_of_the_owners_says_whose_it_is(said: str, kept: str | None) -> None:
    """Before: "The owner loves my dog." was kept: "my" read later is nobody's (or the pet's)."""
    from shelldon.contracts.ops import Remember
    from support.offline_pet import one_turn

    _, ops = one_turn(said)
    contents = [op.content for op in ops if isinstance(op, Remember)]
    assert not any(" my " in f" {c} " or " our " in f" {c} " for c in contents), contents
    if kept is not None:
        assert contents == [kept], contents


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("im obsessed w taylor swift rn", "taylor swift"),
        ("i'm literally obsessed with pottery", "pottery"),
        ("im so into knitting", "knitting"),
        ("i stan bts", "bts"),
    ],
)
def test_a_liking_said_in_slang_is_kept_as_a_liking(said: str, thing: str) -> None:
    """The eleventh pass: "im obsessed w taylor swift rn" was "Ooh! How was it?", nothing kept."""
    reply, ops = one_turn(said)
    assert any(isinstance(op, Remember) and f"loves {thing}" in op.content for op in ops), ops
    assert thing in reply, reply


@pytest.mark.parametrize("said", ["im into it", "i'm obsessed with this", "i'm addicted to you"])
def test_a_liking_of_a_pronoun_is_not_kept(said: str) -> None:
    _, ops = one_turn(said)
    assert not any(isinstance(op, Remember) for op in ops), ops


def test_a_second_liking_of_someone_is_kept_beside_the_first() -> None:
    """The seventeenth pass: "she's into italian food" after "she loves orchids and jazz" was
    kept under the same entry's name, so the orchids were replaced."""
    shown = [Shown("wife ingrid likes", "people", body="The owner's wife Ingrid loves orchids.")]
    name, content = beside(
        "people", "wife ingrid likes", "The owner's wife Ingrid loves jazz.", shown
    )
    assert name == "wife ingrid likes" and "orchids" in content and "jazz" in content
    by_title = [Shown("wife ingrid likes", "people")]  # its words are not in the prompt
    name, content = beside(
        "people", "wife ingrid likes", "The owner's wife Ingrid loves jazz.", by_title
    )
    assert name != "wife ingrid likes" and "jazz" in content
    changed = "The owner's wife Ingrid doesn't like orchids anymore."
    assert beside("people", "wife ingrid likes", changed, shown) == ("wife ingrid likes", changed)


def test_two_likings_by_pronoun_both_stay_in_memory() -> None:
    pet = Pet()
    pet.say("hi, I'm Tom")
    pet.say("my sister is called Ines")
    pet.say("she loves pottery")
    pet.say("and she's into salsa dancing")
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "pottery" in kept and "salsa dancing" in kept, pet.memory
