"""Questions about the owner by topic (broker.offline_topics), played through the real prompt and
brain: here, plans. A plan is not kept in memory (a reminder is the owner's to ask for), so "what
are my plans?" is answered from what the window and recall hold."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet, talked_to

NOT_KNOWN = ("don't know that yet", "Tell me and I'll remember")


@pytest.mark.parametrize(
    "asked",
    [
        "what are my plans?",
        "do I have any plans?",
        "where am I going?",
        "what am I up to this weekend?",
    ],
)
def test_a_plan_told_is_what_the_plans_question_answers(asked: str) -> None:
    """Before: "I don't know that yet. Tell me and I'll remember." a line after the plan."""
    reply = talked_to("I'm going to Lisbon next week", "we're seeing my parents on sunday").say(
        asked
    )
    assert "Lisbon next week" in reply and "parents" in reply, reply
    assert not any(words in reply for words in NOT_KNOWN), reply


def test_no_plan_told_asks_for_one_and_keeps_nothing() -> None:
    pet = talked_to("my sister is called Ana")
    reply = pet.say("what are my plans?")
    assert "haven't told me about any plans" in reply, reply
    assert pet.ops == []


@pytest.mark.parametrize("asked", ["what am I doing wrong?", "what am I doing with my life"])
def test_a_question_with_doing_that_is_no_plan_is_not_answered_with_plans(asked: str) -> None:
    reply = talked_to("I'm going to Lisbon next week").say(asked)
    assert "Lisbon" not in reply, reply


@pytest.mark.parametrize("asked", ["what are my hobbies?", "what do I do for fun?"])
def test_hobbies_are_the_likings_of_things_done(asked: str) -> None:
    """Before: "I don't know that yet." after "I love hiking and photography"."""
    reply = talked_to("I love hiking and photography", "I like sushi", "I love my dog").say(asked)
    assert "hiking and photography" in reply, reply
    assert "sushi" not in reply and "dog" not in reply, reply


def test_no_hobby_told_asks_for_one() -> None:
    assert "what you do for fun" in talked_to("I like sushi").say("what are my hobbies?")


@pytest.mark.parametrize(
    "asked",
    ["can you suggest dinner?", "any dinner ideas?", "what should I have for dinner?",
     # the tenth pass: "whats for dinner tonight" was "my offline brain has no internet"
     "whats for dinner tonight", "so what's for lunch?"],
)  # fmt: skip
def test_a_meal_asked_for_in_other_words_is_suggested_from_the_owners_food(asked: str) -> None:
    """Before: "what should I have for dinner?" asked what the owner does for fun; the others got
    "I don't know that yet" or a musing."""
    reply = talked_to("my favourite food is lasagne").say(asked)
    assert "lasagne" in reply, reply


@pytest.mark.parametrize("dish", ["lasagne", "pad thai", "moussaka"])
def test_a_loved_thing_named_as_nothing_else_is_a_dinner_idea(dish: str) -> None:
    """The eleventh pass: "i love lasagne" was not a food ("I don't know what you like to eat
    yet"), since no word of it is on the food list."""
    pet = Pet()
    pet.say("hi, I'm Sam")
    pet.say(f"i love {dish}")
    reply = pet.say("what should i make for dinner?")
    assert f"How about {dish}?" in reply, reply


@pytest.mark.parametrize("liked", ["my dog", "Taylor Swift", "reading", "my sister's cat"])
def test_a_loved_person_pet_or_pastime_is_never_dinner(liked: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Sam")
    pet.say(f"i love {liked}")
    reply = pet.say("what should i have for dinner?")
    assert "How about" not in reply, reply


@pytest.mark.parametrize(
    "liked", ["i love iced lattes", "I really like a good cappuccino", "I love matcha"]
)
def test_a_coffee_shop_drink_liked_is_suggested(liked: str) -> None:
    """The fourteenth pass, talking to the real pet: "i love iced lattes", then "what should i
    drink rn" got "I don't know what you like to drink yet" (contracts.kinds had no latte)."""
    pet = talked_to(liked)
    reply = pet.say("what should i drink rn")
    assert "don't know" not in reply and any(
        w in reply for w in ("latte", "cappuccino", "matcha")
    ), reply


def test_a_question_about_a_day_finds_what_was_said_of_that_day() -> None:
    """The nineteenth pass: "what am I doing on Thursday?" after "I've got an interview on
    Thursday …" was "You haven't told me about any plans yet."; what was said of the day is the
    answer, whoever it was said of, and a day nothing was said of is still a gap."""
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I have a job interview on Thursday at a bakery")
    pet.say("my brother is coming over on Sunday")
    answer = pet.say("what am I doing on Thursday?")
    assert "interview" in answer and "bakery" in answer, answer
    answer = pet.say("anything on sunday?")
    assert "brother" in answer and "coming over" in answer, answer
    answer = pet.say("what am I up to on Monday?")
    assert "interview" not in answer and "brother" not in answer, answer
