"""Play between the owner and the pet (shelldon.broker.offline_banter through broker.offline).
Before the fourteenth pass a groan at the pet's joke was "Tell me more!" or "Okay!", a riddle the
owner told "I can't look that up", a complaint about the pet "That sounds rough. Sending you a
small hug." or "Okay!", and praise with a comparison "Mm-hm, I'm listening."."""

from __future__ import annotations

import pytest

from support.offline_pet import talked_to

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("lmaooo thats terrible", ("groan", "terrible")),
        ("hahaha thats so bad", ("groan", "terrible")),
        ("ugh that's so cheesy", ("groan", "terrible")),
        ("lol ok that one was good", ("glad", "laugh")),
        ("haha that's actually funny", ("glad", "laugh")),
    ],
)
def test_a_laugh_or_a_groan_at_its_joke_is_taken_as_play(said: str, words: tuple[str, ...]) -> None:
    pet = talked_to("tell me a joke")
    reply = pet.say(said)
    assert reply not in BLAND and any(w in reply.casefold() for w in words), reply
    assert pet.ops == []


@pytest.mark.parametrize(
    "said",
    [
        "what do you call a fish with no eyes? a fsh",
        "Why did the tester cross the road? to check both sides lol",
        "what did the ocean say to the beach? nothing, it just waved",
    ],
)
def test_a_riddle_the_owner_tells_is_laughed_at(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert any(w in reply for w in ("Haha", "Hehe")) and "look that up" not in reply, reply
    assert pet.ops == []


def test_a_question_that_is_no_riddle_is_not_laughed_at() -> None:
    reply = talked_to().say("why did you say that? I'm confused")
    assert "Haha" not in reply and "Hehe" not in reply, reply


@pytest.mark.parametrize(
    "said",
    [
        "you never remember anything tbh",
        "u never remember anything lol",
        "I'm annoyed, you got my dad's city wrong last time",
        "you got my daughter's town wrong earlier",
        "you forgot my sister's name again",
        "you keep forgetting what I tell you",
        "you muddled my son's name last week",  # the after-set's first run: "Okay!"
    ],
)
def test_a_complaint_about_the_pet_is_owned_up_to(said: str) -> None:
    reply = talked_to().say(said)
    assert "sorry" in reply.casefold() or "ouch" in reply.casefold(), reply
    assert "hug" not in reply and reply not in BLAND, reply


def test_praise_with_a_comparison_is_thanked_and_the_secret_kept() -> None:
    pet = talked_to()
    reply = pet.say("you're a better listener than Margit, dont tell her")
    assert "thank" in reply.casefold() and "secret" in reply, reply
    assert "thank" in pet.say("you're a good listener, better than my brother").casefold()
    assert pet.ops == []
