"""What the owner says to the pet about the pet (shelldon.broker.offline_praise through
broker.offline): praise, love, rudeness, sending it away and an apology are answered as the pet,
and nothing is kept. Before the ninth pass "you're adorable", "good job buddy", "shut up", "love
ya" and "sorry, didnt mean that" were "Tell me more!", "Okay!" or "I hear you."."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_praise
from support.offline_pet import one_turn

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("said", "said_back"),
    [
        # the class, as the tuning set names it
        ("you're brilliant", offline_praise.PRAISED),
        ("good boy", offline_praise.PRAISED),
        ("well done shelldon", offline_praise.PRAISED),
        ("love ya", offline_praise.LOVED),
        ("ily", offline_praise.LOVED),
        ("you suck", offline_praise.OWNED_UP),
        ("you're pretty annoying tbh", offline_praise.OWNED_UP),
        ("go away", offline_praise.SPACE),
        ("my bad, sorry", offline_praise.FORGIVEN),
        ("sorry for being mean", offline_praise.FORGIVEN),
        # written after the module, never tuned on
        ("ur such a sweetie", None),
        ("great work today buddy!", offline_praise.PRAISED),
        ("what a clever little guy", offline_praise.PRAISED),
        ("i really love you 🥰", offline_praise.LOVED),
        ("you're kind of useless lol", offline_praise.OWNED_UP),
        ("ugh you're so dumb", None),
        ("leave me alone pls", offline_praise.SPACE),
        ("i didnt mean it", offline_praise.FORGIVEN),
        ("oops sorry about earlier", offline_praise.FORGIVEN),
    ],
)
def test_a_line_to_the_pet_about_the_pet_is_answered_as_the_pet(
    said: str, said_back: tuple[str, ...] | None
) -> None:
    reply, ops = one_turn(said)
    assert ops == [], ops  # how the owner feels about the pet is no fact about the owner
    assert reply not in BLAND, reply
    if said_back is not None:
        assert reply in said_back, reply


@pytest.mark.parametrize(
    "said",
    [
        "sorry, bad day",  # a feeling with an opener, not an apology to the pet
        "you're wrong, my dog is called Max",  # a correction
        "I love your jokes and I love tea",
        "good morning",
        "I love you guys at work",
        "you're right",
        "do you love me?",  # a question about the pet's life: offline_chat's
    ],
)
def test_a_line_that_only_opens_like_one_is_not_read_as_one(said: str) -> None:
    assert offline_praise.regard(said, 0) is None


def test_the_same_words_twice_get_other_words() -> None:
    first = offline_praise.regard("you're awesome", 0)
    again = offline_praise.regard("you're awesome", 0, [first or ""])
    assert first is not None and again is not None and again != first


@pytest.mark.parametrize(
    ("said", "said_back"),
    [  # the after-set's classes (text-speak, "jk"), in lines of their own
        ("ur boring", offline_praise.OWNED_UP),
        ("u r so clever", offline_praise.PRAISED),
        ("jk ur the best", offline_praise.PRAISED),
        ("just kidding, i love you", offline_praise.LOVED),
    ],
)
def test_text_speak_and_a_joke_taken_back(said: str, said_back: tuple[str, ...]) -> None:
    """ "ur annoying" and "jk love u" were "I hear you." and "Okay!" on the after-set's first
    run (the ninth pass)."""
    reply, ops = one_turn(said)
    assert reply in said_back and ops == [], reply
