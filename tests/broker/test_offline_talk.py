"""The offline brain's conversation rules (broker.offline_talk) one by one; the conversation set
(test_offline_conversations.py) measures them together."""

from __future__ import annotations

import itertools

import pytest

from shelldon.broker.offline import to_second_person, to_third_person
from shelldon.broker.offline_talk import (
    clauses,
    correction,
    feeling,
    feeling_reply,
    repertoire,
    said_name,
    turn_seed,
)
from support.offline_pet import NOW, Pet, talked_to


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I love green tea but I hate coffee", ["I love green tea", "I hate coffee"]),
        ("I enjoy jazz and my husband loves opera", ["I enjoy jazz", "my husband loves opera"]),
        ("I like cats, but I'm allergic to them", ["I like cats", "I'm allergic to them"]),
        (
            "I live in Porto with my wife Maria and our two kids",
            ["I live in Porto with my wife Maria and our two kids"],
        ),
        ("My sister and I live in Porto", ["My sister and I live in Porto"]),
        ("Sorry, my birthday is actually June 3", ["Sorry, my birthday is actually June 3"]),
    ],
)
def test_a_sentence_is_split_where_a_new_subject_starts(sentence: str, expected: list[str]) -> None:
    assert clauses(sentence) == expected


def test_person_shifting_goes_both_ways_in_every_clause() -> None:
    assert to_third_person("I love tea and our dog loves me") == (
        "The owner loves tea and the owner's dog loves the owner."
    )
    assert to_second_person("I told you about my trip") == "you told me about your trip."
    assert to_second_person("you are my best friend") == "I am your best friend."
    assert to_second_person("We moved to Valencia with our kids") == (
        "you moved to Valencia with your kids."
    )


@pytest.mark.parametrize(
    ("said", "fact", "corrected"),
    [
        ("Actually my birthday is on March 15, not 14", "my birthday is on March 15", True),
        ("I just moved to Bristol", "I live in Bristol", True),
        ("We moved to Valencia last month", "I live in Valencia", True),
        ("I live in Bergen now", "I live in Bergen", True),
        ("I'm not a morning person", "I'm not a morning person", False),
        ("my birthday is May 3", "my birthday is May 3", False),
    ],
)
def test_corrections_and_moves(said: str, fact: str, corrected: bool) -> None:
    assert correction(said) == (fact, corrected)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Hi! I'm Marta", "Marta"),
        ("I'm Marta", "Marta"),
        ("Jonas here", "Jonas"),
        ("hey, Priya here!", "Priya"),
        ("Call me Al from now on", "Al"),
        ("please call me kate", "Kate"),
        ("I'm tired", None),
        ("I'm Sorry", None),
        ("I'm French", None),
        ("I'm a nurse", None),
        # a name, then the one the owner goes by: the second is what they are called
        ("hi! I'm Marguerite but everyone calls me Maggie", "Maggie"),
        ("I'm Robert, but call me Bob", "Bob"),
        ("my name is Elizabeth, Liz for short", "Liz"),
        ("I'm Alexander but my friends call me Alex", "Alex"),
        ("I'm Jo but call me later", None),
    ],
)
def test_names_said(said: str, name: str | None) -> None:
    assert said_name(said) == name


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I'm sad today", "low"),
        ("I feel exhausted", "tired"),
        ("long shift yesterday", "tired"),
        ("I had a rough day at work", "tired"),
        ("I passed my exam!", "done"),
        ("I'm good, thanks", "mild"),
        ("I'm not tired", None),
        ("I'm bad at cooking", None),
        ("I live in Porto", None),
        # an interjection before the feeling is not the feeling ("ugh" alone still is a low one)
        ("ugh, I'm so tired today", "tired"),
        ("sigh. I'm exhausted", "tired"),
        ("oof, feeling lonely tonight", "low"),
        ("phew, I'm so happy it's over", "high"),
        ("ugh", "low"),
        ("ugh my back hurts", "low"),
        ("ah, I'm not tired", None),
    ],
)
def test_feelings(said: str, kind: str | None) -> None:
    assert feeling(said) == kind


def test_the_repertoire_answers_and_varies_by_the_turn_not_by_chance() -> None:
    assert "remind" in (repertoire("What can you do?", 0) or "")
    jokes = {repertoire("tell me a joke", turn_seed("tell me a joke", n)) for n in range(12)}
    assert len(jokes) > 1  # varied over a chat
    assert repertoire("tell me a joke", 7) == repertoire("tell me a joke", 7)  # never random
    assert "Dogs" in (repertoire("Do you like dogs?", 0) or "")
    assert repertoire("I love tea", 0) is None  # "I love you" is offline_praise's (ninth pass)
    assert repertoire("where do I live?", 0) is None


def test_i_was_said_back_is_you_were() -> None:
    """ "…when I was a kid" was said back "when you was a kid"."""
    assert to_second_person("I rode horses when I was a kid") == (
        "you rode horses when you were a kid."
    )
    assert to_second_person("I wasn't late") == "you weren't late."


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I'm so happy today!!", "high"),
        ("feeling so excited", "high"),
        ("I got promoted", "done"),
        ("I passed my exam", "done"),
    ],
)
def test_joy_is_shared_and_only_what_was_achieved_is_praised(said: str, kind: str) -> None:
    """ "I'm so happy today!!" was answered "Well done" or "I'm proud of you": a mood is no
    achievement."""
    assert feeling(said) == kind
    replies = {feeling_reply(kind, seed) for seed in range(3)}
    praised = any("Well done" in r or "proud" in r for r in replies)
    assert praised == (kind == "done"), replies


def test_you_are_is_said_as_a_person_says_it() -> None:
    """Facts were said back "you are 35 years old", "You are a nurse": now "you're", except
    where English cannot contract it (at the end: "that's who you are")."""
    assert to_second_person("I'm allergic to peanuts") == "you're allergic to peanuts."
    assert to_second_person("The owner is a nurse") == "you're a nurse."
    assert to_second_person("that's who I am") == "that's who you are."


def test_a_run_of_questions_is_not_answered_with_the_same_opening() -> None:
    """Eighth pass, class (b): the recall's wording is chosen by the openings the pet said last,
    not by dice, so asked back six things in a row no opening comes twice in a row and none
    three times; the same turns give the same words (the lines are written apart from the
    audit sets)."""
    facts = (
        "I work as a baker",
        "my brother is called Omar",
        "I live in Turin",
        "my favourite colour is teal",
        "my cat is called Pip",
        "I'm allergic to shellfish",
    )
    questions = (
        "what's my job?",
        "what's my brother called?",
        "where do I live?",
        "what's my favourite colour?",
        "what's my cat called?",
        "what am I allergic to?",
    )

    def replies() -> list[str]:
        pet = Pet(now=NOW, zone="UTC", rules=True)
        for fact in facts:
            pet.say(fact)
        return [pet.say(q) for q in questions]

    said = replies()
    openings = [" ".join(r.split()[:4]) for r in said]
    assert all(a != b for a, b in itertools.pairwise(openings)), said
    assert max(openings.count(o) for o in openings) <= 2, said
    assert replies() == said


def test_three_questions_it_cannot_answer_in_a_row_get_three_replies() -> None:
    pet = Pet()
    pet.say("hello")
    said = [pet.say(q) for q in ("what's my shoe size?", "what's my star sign?", "what's my pin?")]
    said = [s for s in said if s.startswith("I don't know that yet")]
    assert len(set(said)) == len(said), said  # the same gap reply twice read like a form


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("yesterday I was very sad because I miss my family", "low"),
        ("I confess I have been rather anxious about her", "low"),
        ("lately I've been so tired", "tired"),
        ("to be honest I'm really happy here", "high"),
    ],
)
def test_a_feeling_after_a_time_or_a_hedge_is_still_a_feeling(said: str, kind: str) -> None:
    """The eleventh pass: "yesterday I was very sad …" was "Mm-hm, I'm listening."."""
    assert feeling(said) == kind


CHEER = ("yay", "congrat", "exciting", "wonderful", "proud", "okay!", "got it")


@pytest.mark.parametrize(
    "said",
    [
        "my grandma passed last spring too, it's been a hard year",
        "my dad passed in 2019",
        "she passed peacefully on sunday",
        "i keep expecting him at the door",
        "the house is so quiet without her",
    ],
)
def test_a_death_said_as_passed_or_missed_is_grief(said: str) -> None:
    """The twelfth pass: "my grandma passed last spring" was "Yay for your grandma! You must be
    so happy for them." (passed, as an exam)."""
    assert feeling(said) == "grief"
    pet = Pet()
    pet.say("hi, I'm Ellen")
    reply = pet.say(said)
    assert "sorry" in reply.casefold() and not any(c in reply.casefold() for c in CHEER), reply


@pytest.mark.parametrize(
    "said", ["my son passed his driving test", "i passed my exam", "my sister passed!!"]
)
def test_an_exam_passed_is_no_grief(said: str) -> None:
    assert feeling(said) != "grief"


def test_what_is_kept_beside_a_loss_is_said_back_quietly() -> None:
    """The twelfth pass: "I'm so sorry for your loss. … Okay! Your dog was 14. I'll keep that in
    mind.", and the next line "Okay! Your dog was a beagle."."""
    breezy = ("Okay!", "Got it", "Good to know", "Noted in my little shell", "Oh, your")
    for age in range(10, 17):  # other turns, other seeds: every wording the pet might pick
        pet = Pet()
        pet.say("hi, I'm Ellen")
        first = pet.say(f"my dog died yesterday. he was {age}")
        assert "sorry" in first.casefold() and str(age) in first and pet.ops, first
        second = pet.say("he was a beagle")
        assert "beagle" in second and pet.ops, second
        for reply in (first, second):
            assert not any(b in reply for b in breezy), reply


@pytest.mark.parametrize(
    "said", ["sorry, i'm not much fun today", "im not myself lately", "i'm a bit of a mess"]
)
def test_a_low_day_said_of_oneself_is_heard_and_never_kept(said: str) -> None:
    """The twelfth pass: "sorry, i'm not much fun today" was kept ("Good to know: you're not
    much fun today.")."""
    assert feeling(said) == "low"
    pet = Pet()
    pet.say("hi, I'm Ellen")
    pet.say(said)
    assert pet.ops == []


@pytest.mark.parametrize("said", ["ngl im lowkey panicking", "i'm freaking out"])
def test_panic_is_a_low_feeling(said: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Tom")
    reply = pet.say(said)
    assert any(w in reply.casefold() for w in ("sorry", "hug", "here for")), reply


@pytest.mark.parametrize(
    "said",
    [
        "i have 3 exams this week and i havent started revising",
        "i still haven't started my essay",
        "im so behind on my coursework",
    ],
)
def test_being_behind_with_what_is_due_is_a_worry_never_a_fact(said: str) -> None:
    """The twelfth pass: "… i havent started revising" was "Good to know: you haven't started
    revising."."""
    assert feeling(said) == "low"
    pet = Pet()
    pet.say("hi, I'm Tom")
    pet.say(said)
    assert pet.ops == []


def test_a_correction_by_the_persons_name_revises_what_was_kept_of_them() -> None:
    """The twelfth pass: "actually devi lives in york now, not leeds" (Devi, the sister) was "I
    hear you." and "where does my sister live?" still said Leeds."""
    pet = Pet(rules=True)
    pet.say("hi, I'm Priya")
    pet.say("my sister is called Devi and she lives in Leeds")
    pet.say("actually devi lives in york now, not leeds")
    assert [op.content for op in pet.ops] == ["The owner's sister Devi lives in York."]
    reply = pet.say("where does my sister live?")
    assert "York" in reply and "Leeds" not in reply, reply


@pytest.mark.parametrize(
    "said", ["a patient passed away tonight, it was hard", "one of my residents died today"]
)
def test_a_loss_at_work_is_met_gently_not_as_someone_loved(said: str) -> None:
    """The twelfth pass: a night nurse's "a patient passed away tonight" was "Losing someone you
    love is so hard."."""
    pet = Pet()
    pet.say("hi, I'm Priya")
    reply = pet.say(said)
    assert "sorry" in reply.casefold() and "someone you love" not in reply, reply
    assert not any(c in reply.casefold() for c in CHEER) and pet.ops == [], reply


@pytest.mark.parametrize(
    ("said", "name"),
    [  # the fourteenth pass: a greeting by the time of day, then the name, in one line
        ("evening, I'm Oskar", "Oskar"),
        ("afternoon, it's Nadia", "Nadia"),
        ("morning all, Priya here", "Priya"),
        ("Good afternoon! Kwame here", "Kwame"),
        ("good morning, it's raining", None),
        ("evening, it's Monday", None),
        ("it's Nadia", None),  # without a greeting: anyone at the door
    ],
)
def test_a_greeting_then_a_name_gives_the_name(said: str, name: str | None) -> None:
    assert said_name(said) == name
    if name is None:
        return
    pet = Pet()
    reply = pet.say(said)
    assert f"Nice to meet you, {name}!" in reply and "What's your name" not in reply, reply
    assert "?" not in reply.split("Nice to meet you")[0], reply  # the greeting asks nothing


def test_a_line_typed_in_lower_case_is_said_back_to_the_owner() -> None:
    """The fourteenth pass, through the real processes: "i love iced lattes" in the window was
    said back as "I love iced lattes." (the pet's own liking)."""
    assert to_second_person("i love iced lattes") == "you love iced lattes."
    assert (
        to_second_person("i'm a nurse and i've got a cat") == "you're a nurse and you've got a cat."
    )


@pytest.mark.parametrize(
    ("said", "called"),
    [
        ("hi! I'm Marguerite but everyone calls me Maggie", "Maggie"),
        ("I'm Robert, but call me Bob", "Bob"),
    ],
)
def test_the_name_the_owner_goes_by_is_kept_and_asked_for(said: str, called: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert called in reply and [op.content for op in pet.ops] == [f"The owner's name is {called}."]
    assert called in pet.say("what do people call me?")
