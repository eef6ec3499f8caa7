"""A meal or a bake suggested from the owner's diet, or from a dish someone of theirs makes well
(shelldon.broker.offline_meals, through broker.offline_topics and the real prompt and brain).
Before the nineteenth pass "what's for dinner tonight, any ideas?" after "I'm a vegetarian" was
"I don't know what you like to eat yet."."""

from __future__ import annotations

from support.offline_pet import Pet

CHATTER = ("nice weather", "my dog Rex is snoring", "lol", "ok", "hmm", "busy day")


def test_a_dinner_idea_fits_the_diet_said_past_the_window() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I don't eat meat")
    for chatter in CHATTER:
        pet.say(chatter)
    answer = pet.say("what's for dinner tonight, any ideas?")
    assert "don't eat meat" in answer, answer
    assert "know what you like" not in answer, answer


def test_a_bake_fits_a_gluten_free_owner() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I'm coeliac")
    answer = pet.say("what should I bake this weekend?")
    assert "gluten-free" in answer or "flourless" in answer, answer


def test_a_dish_a_relation_makes_well_is_an_idea() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("my nan makes the best shepherd's pie")
    answer = pet.say("any dinner ideas?")
    assert "shepherd's pie" in answer, answer


def test_a_liking_still_comes_before_the_diet() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I'm vegan")
    pet.say("I love tofu katsu")
    answer = pet.say("what should I cook tonight?")
    assert "tofu katsu" in answer, answer


def test_a_diet_said_with_an_article_is_kept_as_the_diet() -> None:
    """ "I'm a vegetarian" was an identity learnt ("A vegetarian, good to know."), no entry for
    a later question to find."""
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I'm a vegetarian")
    assert any("vegetarian" in body for body, _ in pet.memory.values()), pet.memory
