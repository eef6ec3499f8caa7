"""Family answered from family relations only, and a passing complaint about the day never read
back as a fact (shelldon.broker.offline_kin through broker.offline_topics and broker.offline).
Before the fifteenth pass a teacher's "ugh, the kids were loud today" (her pupils) was said back
to "what do you know about my family?" beside her mum, and so was "a nurse on a children's
ward"; a loss was "tell me about them" of a wife."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_kin import complaint, object_pronoun, of_family, several_asked
from support.offline_pet import Pet, talked_to


@pytest.mark.parametrize(
    ("complained", "job"),
    [
        ("ugh, the kids were loud today", "I teach chemistry at a high school"),
        ("the children were a nightmare this afternoon", "I teach year 4"),
        ("the patients were hard work today, ugh", "I'm a nurse on a children's ward"),
        ("ugh the customers were so rude tonight", "I cook at a tapas bar"),
    ],
)
def test_family_is_the_owners_relations_never_a_complaint_about_the_day(
    complained: str, job: str
) -> None:
    pet = talked_to(job, "my mum lives in Galway")
    heard = pet.say(complained)
    assert heard not in ("Tell me more!", "I hear you.", "Okay!"), heard  # a hard day, met
    assert not any(complained.split()[-2] in body for body, _ in pet.memory.values())
    family = pet.say("what do you know about my family?")
    assert "Galway" in family, family
    for word in ("kids", "children", "patients", "customers", "loud", "nightmare", "rude"):
        assert word not in family.casefold(), family


def test_what_names_a_relation_as_the_owners() -> None:
    assert of_family("my mum lives in Galway")
    assert of_family("The owner's granddaughter Lily turns 7 on 3 March.")
    assert of_family("I have two kids, Leo and Mia")
    assert not of_family("Ugh, the kids were loud today.")
    assert not of_family("You work as a nurse on a children's ward.")
    assert complaint("ugh, the kids were loud today")
    assert not complaint("my son is visiting today")
    assert not complaint("my mum lives in Galway")


@pytest.mark.parametrize(
    ("line", "pronoun"),
    [
        ("I feel a bit lonely since my wife passed", "her"),
        ("I feel a bit empty since my husband passed", "him"),
        ("my mum passed away in the winter and I miss her", "her"),
        ("my grandad passed away yesterday", "him"),
    ],
)
def test_a_loss_is_said_of_her_or_him(line: str, pronoun: str) -> None:
    assert object_pronoun(line) == pronoun
    pet = talked_to()
    reply = pet.say(line)
    assert f"about {pronoun}" in reply and "about them" not in reply, reply


def test_a_loss_of_two_or_of_a_pet_is_them() -> None:
    assert object_pronoun("my mum and dad both died") is None
    assert object_pronoun("my dog died last week") is None
    pet = talked_to()
    both = pet.say("my mum and dad both passed")  # a loss, never "Tell your mum congratulations"
    assert "sorry" in both and "about them" in both and "congrat" not in both.casefold(), both
    exams = pet.say("my son and daughter both passed their exams")
    assert "sorry" not in exams, exams


@pytest.mark.parametrize(
    ("first", "second", "asked", "one", "other"),
    [
        ("my sister Anna lives in Galway", "my sister Beth lives in York",
         "what do you know about my sisters?", "Anna", "Beth"),
        ("my brother Olu works at the port", "my brother Tunde works at a bank",
         "tell me about my brothers", "Olu", "Tunde"),
        ("my friend Hana loves jazz", "my friend Gus loves rugby",
         "what do you remember about my friends?", "Hana", "Gus"),
        ("my son Finn is 6", "my son Rory is 9", "what do you know about my sons?", "Finn", "Rory"),
        ("my dog Bramble is 3", "my dog Pip is 11", "tell me about my dogs", "Bramble", "Pip"),
        ("my sister is called Anna", "my sister is called Beth", "who are my sisters?",
         "Anna", "Beth"),
    ],
)  # fmt: skip
def test_two_relations_of_one_kind_are_two_entries_and_both_are_named(
    first: str, second: str, asked: str, one: str, other: str
) -> None:
    """The sixteenth pass: "my sister Beth lives in York" after "my sister Anna lives in Galway"
    was kept as people/sister home as Anna had been, so Anna's entry was lost, and "what do you
    know about my sisters?" named Beth alone."""
    pet = Pet(rules=True)
    pet.say("hi, I'm Ade")
    pet.say(first)
    pet.say(second)
    for filler in ("the bus was late", "it rained", "ok", "hm", "right", "sure", "fine"):
        pet.say(filler)  # both leave the recent window: memory alone holds them
    bodies = [body for body, _ in pet.memory.values()]
    assert any(one in b for b in bodies) and any(other in b for b in bodies), pet.memory
    reply = pet.say(asked)
    assert one in reply and other in reply, reply


def test_a_correction_of_a_name_still_revises_the_one_entry() -> None:
    """Two of a kind is no correction: "actually my sister is called Bethany" puts the one
    name right, and "my sister Ana" said twice is one sister."""
    pet = Pet(rules=True)
    pet.say("my sister is called Beth")
    pet.say("actually my sister is called Bethany")
    assert [body for body, _ in pet.memory.values()] == ["The owner's sister is called Bethany."]
    assert several_asked("what do you know about my sisters?") == "sister"
    assert several_asked("what do you know about my sister?") is None
