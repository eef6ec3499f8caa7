"""An idea asked for someone (shelldon.broker.offline_gifts through broker.offline). Before the
thirteenth pass "any idea what I should get him?" about a partner who is a chef was "I don't know
that yet. Tell me and I'll remember."."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet

GAP = ("don't know that yet", "Tell me and I'll remember", "bigger brain", "for fun")


@pytest.mark.parametrize(
    ("first", "asked", "word"),
    [
        ("my partner is called Tom, he's a chef", "any idea what I should get him?", "kitchen"),
        ("my wife Mel loves gardening", "what could I get Mel for christmas?", "plant"),
        ("my brother is called Ash, he plays guitar", "any ideas what to buy him?", "gig"),
        ("my best friend is Jo, she loves climbing", "what should I get her?", "chalk"),
        ("my dad is called Ray, he's an electrician", "gift ideas for my dad?", "work"),
    ],
)
def test_an_idea_comes_from_what_it_keeps_of_them(first: str, asked: str, word: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Nell")
    pet.say(first)
    reply = pet.say(asked)
    assert not any(g in reply for g in GAP), reply
    assert word in reply and "You told me" in reply and "?" in reply, reply
    assert pet.ops == [], pet.ops


@pytest.mark.parametrize(
    "asked",
    ["any gift ideas for my mum?", "what should I do for Ben's party?", "what could I send her?"],
)
def test_knowing_nothing_of_them_it_asks_what_they_like(asked: str) -> None:
    pet = Pet()
    pet.say("my sister is called Ada")
    reply = pet.say(asked)
    assert not any(g in reply for g in GAP), reply
    assert "into" in reply and reply.endswith(("?", "fun.", "well.")), reply


@pytest.mark.parametrize("asked", ["what do I do for work?", "what should I make for dinner?"])
def test_a_question_about_no_one_is_left_to_the_other_rules(asked: str) -> None:
    pet = Pet()
    pet.say("my partner is called Tom, he's a chef")
    assert "You told me your partner" not in pet.say(asked)


def test_an_idea_draws_on_likings_said_with_a_pronoun() -> None:
    """The seventeenth pass: "she loves orchids and jazz" after "my wife is called …" was not
    found for "get her" ("What is your wife into lately?"); two things known are both thought of."""
    pet = Pet()
    pet.say("hi, I'm Dev")
    pet.say("my husband is called Arun")
    pet.say("he loves cycling and strong coffee")
    pet.say("work was busy")
    pet.say("oh and he's really into old maps lately")
    pet.say("the weather is grim")  # the liking further back than three lines
    pet.say("made soup for dinner")
    reply = pet.say("any ideas what I should get him?")
    assert "cycling" in reply and "maps" in reply, reply
    assert "What is your husband into" not in reply, reply


def test_a_pronoun_is_never_read_as_someone_named_after_it() -> None:
    """A liking said with "she" early in the window is never given to a daughter named later."""
    pet = Pet()
    pet.say("hi, I'm Dev")
    pet.say("my wife is called Rana")
    pet.say("she loves hiking")
    pet.say("the weather is grim")
    pet.say("made soup for dinner")
    pet.say("oh and she's into board games")
    pet.say("work was long")
    pet.say("the bus was late")
    pet.say("my daughter Zoe is 6 and she's mad about horses")  # the pet's last words name her
    reply = pet.say("what could I get Zoe for her birthday?")
    assert "board games" not in reply and "hiking" not in reply, reply
