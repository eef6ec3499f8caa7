"""A question to the pet about itself and its memory (shelldon.broker.offline_self, and
broker.offline's "what do you remember?"), as an owner asks in the first days. Before the ninth
pass "do you remember me?" was "I don't know that yet. Tell me and I'll remember." with the
owner's name in memory, "can you forget things?" was a forget request for "things", "do you have
internet?" and "where do you live?" a "big question for a pocket pet", and "who are you" as the
first line said who the pet is twice."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_self
from shelldon.worker.prompt import HistoryRow
from support.offline_pet import Pet, one_turn

GAP = ("don't know that yet", "Tell me and I'll remember", "big question", "never thought")


def _known_pet() -> Pet:
    pet = Pet()
    pet.say("hello")
    pet.say("I'm Wren")
    pet.say("I work as a postman")
    return pet


@pytest.mark.parametrize(
    "asked",
    [
        # the class, as the tuning set names it
        "do you know who i am?",
        "remember me?",
        # written after the module, never tuned on
        "do you still remember me",
        "who am i?",
        "so do you recognise me?",
        "have we met before?",
    ],
)
def test_do_you_remember_me_says_the_owners_name_and_what_it_keeps(asked: str) -> None:
    pet = _known_pet()
    reply = pet.say(asked)
    assert "Wren" in reply and "postman" in reply, reply
    assert pet.ops == []


def test_do_you_remember_me_with_nothing_known_asks_the_name() -> None:
    reply, ops = one_turn("do you remember me?")
    assert "name" in reply and not any(g in reply for g in GAP), reply
    assert ops == []


@pytest.mark.parametrize(
    "asked",
    [
        "what have you remembered so far?",
        "whats in your memory",
        # written after the fix, never tuned on
        "what do you remember?",
        "so what have you learnt?",
        "what have you got on me",
    ],
)
def test_what_do_you_remember_lists_what_it_keeps(asked: str) -> None:
    pet = _known_pet()
    reply = pet.say(asked)
    assert "Wren" in reply and "postman" in reply, reply


def test_asked_twice_in_other_words_it_answers_in_other_words() -> None:
    pet = _known_pet()
    first = pet.say("do you know who i am?")
    again = pet.say("remember me?")
    assert first != again and "Wren" in again
    listed = pet.say("what have you remembered so far?")
    assert pet.say("whats in your memory") != listed


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("do you forget stuff?", offline_self.FORGETTING),
        ("can you forget things?", offline_self.FORGETTING),
        ("how do i make you forget something", offline_self.FORGETTING),
        ("are you online?", offline_self.OFFLINE),
        ("can you go on the internet", offline_self.OFFLINE),
        ("do you have wifi?", offline_self.OFFLINE),
        ("can you google it", offline_self.OFFLINE),
        ("where do you live", offline_self.HOME),
        ("where are you?", offline_self.HOME),
        ("where do you stay?", offline_self.HOME),
    ],
)
def test_a_question_about_the_pet_gets_its_own_answer_and_no_op(
    asked: str, said: tuple[str, ...]
) -> None:
    reply, ops = one_turn(asked)
    assert reply in said, reply
    assert ops == []  # "can you forget things?" proposed a forget for "things" before


@pytest.mark.parametrize(
    "said",
    [
        "can you forget my car?",  # a forget request, still
        "forget that my car is red",
        "where do you think I should live?",
        "do you remember my sister's name?",  # memory's to answer
        "are you online shopping again",
    ],
)
def test_a_line_that_only_opens_like_one_is_not_read_as_one(said: str) -> None:
    assert offline_self.answer(said, "Wren", ["You work as a postman."], 0) is None


def test_who_are_you_as_the_first_line_says_who_the_pet_is_once() -> None:
    reply, _ = one_turn("who are you", recent=())
    assert reply.count("your pocket pet") == 1, reply
    assert "What's your name?" in reply
    again, _ = one_turn("who are you", recent=(HistoryRow(1, "owner", "hi"),))
    assert "your pocket pet" in again


@pytest.mark.parametrize(
    ("asked", "said"),
    [  # the after-set's classes, in lines of their own
        ("r u connected to the internet", offline_self.OFFLINE),
        ("can you erase memories?", offline_self.FORGETTING),
        ("could u remove something i said", offline_self.FORGETTING),
    ],
)
def test_text_speak_and_other_verbs_for_the_same_questions(
    asked: str, said: tuple[str, ...]
) -> None:
    reply, ops = one_turn(asked)
    assert reply in said and ops == [], reply


@pytest.mark.parametrize("asked", ["do u remember what i said?", "do you remember anything"])
def test_do_you_remember_what_i_said_lists_what_it_keeps(asked: str) -> None:
    pet = _known_pet()
    reply = pet.say(asked)
    assert "postman" in reply, reply
