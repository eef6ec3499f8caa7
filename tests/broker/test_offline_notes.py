"""Lines typed as notes (shelldon.broker.offline_notes through broker.offline). Before the
twelfth pass "packing list so far: passport, …" was "Mm-hm, I'm listening.", "kids: mia 7 and
leo 4" "Tell me more!", "mia has swimming thurs 5pm" "Mm-hm, I'm listening." (nothing kept), and
"planning a trip to portugal!!" "Planning a trip to? I'm happy keeping you company while you
do."."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_notes import joined, note, read
from shelldon.contracts.ops import Remember
from support.offline_pet import Pet


def _kept(pet: Pet) -> list[str]:
    return [op.content for op in pet.ops if isinstance(op, Remember)]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "packing list so far: passport, adapter, sunscreen, hiking boots",
            "The owner's packing list is: passport, adapter, sunscreen, hiking boots.",
        ),
        ("kids: mia 7 and leo 4", "The owner's kids are: Mia (7) and Leo (4)."),
        ("shopping list: eggs, my pills", "The owner's shopping list is: eggs, the owner's pills."),
        ("mia has swimming thurs 5pm", "Mia has swimming on Thursday at 5pm."),
        ("leo has football on saturdays", "Leo has football on Saturdays."),
        ("my girl has ballet tuesdays at 4", "The owner's girl has ballet on Tuesdays at 4."),
        ("planning a trip to rome in may", "The owner is planning a trip to Rome in May."),
        ("we booked a holiday to crete", "The owner is planning a holiday to Crete."),
        (
            "revision timetable: organic mon, physical wed",
            "The owner's revision timetable is: organic mon, physical wed.",
        ),
    ],
)  # fmt: skip
def test_a_note_is_kept_as_the_owner_typed_it(said: str, kept: str) -> None:
    found = note(said)
    assert found is not None and found.keep[2] == kept, found
    assert "the owner" not in found.reply.casefold(), found


@pytest.mark.parametrize(
    "said",
    [
        "my stepdad has been in hospital since friday",
        "she has work tuesday",
        "leo has a dentist appointment on friday",
        "update: mum is fine",
        "i have an exam on wednesday",
        "tom has had a cold since monday",
    ],
)
def test_a_line_that_is_no_note_is_left_to_the_rules(said: str) -> None:
    assert note(said) is None


def test_a_trip_and_its_dates_are_one_note_kept_and_asked_of() -> None:
    assert joined(
        ["planning a trip to portugal!!", "lisbon 12-16 may then porto till the 20th"]
    ) == ["planning a trip to portugal: lisbon 12-16 may then porto till the 20th"]
    pet = Pet()
    pet.say("hi, I'm Kofi")
    reply = pet.say("planning a trip to portugal!! lisbon 12-16 may then porto till the 20th")
    assert "Portugal" in reply and "?" not in reply, reply
    assert _kept(pet) == [
        "The owner is planning a trip to Portugal: Lisbon 12-16 May then Porto till the 20th."
    ]
    pet.say("im going with my partner sam")
    assert "Lisbon" in pet.say("do you know where im going in may?")
    weather = pet.say("whats the weather in lisbon in may")
    assert "internet" in weather and "planning" not in weather, weather


def test_a_parents_fragments_answer_later_questions() -> None:
    """The eleventh pass left "kids: mia 7 and leo 4" unread, so "how old is mia" had nothing."""
    pet = Pet()
    pet.say("hi. I'm Sam")
    pet.say("kids: mia 7 and leo 4")
    pet.say("mia has swimming thurs 5pm")
    assert _kept(pet) == ["Mia has swimming on Thursday at 5pm."]
    assert "7" in pet.say("how old is mia")


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "contract law exam is on wednesday at 9am",
            "my contract law exam is on wednesday at 9am",
        ),
        ("im tom btw, 2nd year law at leeds uni", "im tom btw, I study law at leeds uni"),
        ("I'm a law student", "I study law"),
        ("i do nights at a warehouse in slough", "i work nights at a warehouse in slough"),
        ("i'm a student nurse", "i'm a student nurse"),
        ("the exam is on monday", "the exam is on monday"),
    ],
)  # fmt: skip
def test_an_event_or_a_study_typed_short_is_read_as_the_owners(said: str, meant: str) -> None:
    assert read(said) == meant


def test_a_study_said_as_a_year_is_kept_and_told_back() -> None:
    pet = Pet()
    pet.say("hello")
    pet.say("im tom btw, 2nd year law at leeds uni")
    assert any("law" in k for k in _kept(pet)), _kept(pet)
    assert "law" in pet.say("what do i study again?")


def test_a_study_typed_short_with_more_after_it_is_read_whole() -> None:
    """After the fixes ("final year chemistry at bristol uni, dissertation due friday" was
    "Okay!" with nothing kept): the study is a line of its own."""
    assert joined(["final year chemistry at bristol uni, dissertation due friday"]) == [
        "final year chemistry at bristol uni",
        "dissertation due friday",
    ]
    pet = Pet()
    pet.say("hello")
    pet.say("I'm Noor")
    pet.say("final year chemistry at bristol uni, dissertation due friday")
    assert "chemistry" in pet.say("what do i study?")


def test_a_long_list_is_counted_not_said_back_word_for_word() -> None:
    """After the fixes: "packing list so far: passport, adapter, sunscreen, hiking boots" was
    said back whole (the owner's words echoed)."""
    found = note("packing list so far: passport, adapter, sunscreen, hiking boots")
    assert found is not None and "4 things" in found.reply and "adapter" not in found.reply
    assert "adapter" in found.keep[2]
