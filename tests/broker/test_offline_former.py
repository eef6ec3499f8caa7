"""A job the owner did once (shelldon.broker.offline_former through broker.offline). Before the
fourteenth pass "retired welder, 40 years at the shipyard" was congratulated ("How are you
celebrating?") and nothing kept, "ex-teacher" was taken for a name, and "what did I used to do?"
was a gap in memory."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_former import asked, said
from support.offline_pet import Pet, talked_to

BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


@pytest.mark.parametrize(
    ("line", "kept", "question", "answer"),
    [
        ("retired welder, 40 years at the shipyard", "retired welder", "what did I used to do?",
         "welder"),
        ("I'm a retired bus driver", "retired bus driver", "what was my old job?", "bus driver"),
        ("ex-teacher, now I run a little bakery", "used to be a teacher",
         "what was I before the bakery?", "teacher"),
        ("former nurse, did twenty years on the wards", "used to be a nurse",
         "where did I used to work?", "nurse"),
        ("I used to be in the army before all this", "in the army", "what did I do before?",
         "army"),
        ("I was a postman for 30 years", "used to be a postman", "what did I use to do?",
         "postman"),
    ],
)  # fmt: skip
def test_a_former_job_is_kept_as_the_past_and_asked_back(
    line: str, kept: str, question: str, answer: str
) -> None:
    pet = talked_to()
    reply = pet.say(line)
    assert "ongratulations" not in reply and "celebrat" not in reply and reply not in BLAND, reply
    assert "Nice to meet you" not in reply, reply
    assert any(kept in body for body, _ in pet.memory.values()), pet.memory
    assert asked(question)
    pet.bury()
    back = pet.say(question)
    assert answer in back and "don't know" not in back, back


def test_the_work_of_now_beside_the_past_is_kept_apart() -> None:
    pet = talked_to("ex-teacher, now I run a little bakery")
    bodies = [body for body, _ in pet.memory.values()]
    assert "The owner used to be a teacher." in bodies, bodies
    assert any("bakery" in b and "teacher" not in b for b in bodies), bodies
    assert "bakery" in pet.say("what's my job?")


@pytest.mark.parametrize(
    "line", ["I'm an ex-smoker", "my ex-wife lives in Hull", "I'm retired", "I retired early"]
)
def test_no_job_is_no_former_job(line: str) -> None:
    assert said(line, 0, line) is None


def test_nothing_known_of_before_is_asked_for() -> None:
    pet = Pet()
    pet.say("hi, I'm Ros")
    reply = pet.say("what did I used to do for work?")
    assert "before" in reply and pet.ops == [], reply


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I used to work at the post office for twenty years",
         "The owner used to work at the post office for twenty years."),
        ("I worked at the mill for 30 years", "The owner used to work at the mill for 30 years."),
        ("I used to work in a bank", "The owner used to work in a bank."),
    ],
)  # fmt: skip
def test_a_place_worked_at_before_is_the_former_job_and_answered_past_the_window(
    said: str, kept: str
) -> None:
    """The sixteenth pass: "I used to work at the post office for twenty years" was said back
    whole ("Once upon a time you used to work at …") and kept by its first words, so "where did I
    used to work?" past the window was not answered from the former job."""
    pet = Pet(rules=True)
    reply = pet.say(said)
    assert [body for body, _ in pet.memory.values()] == [kept], pet.memory
    assert ("facts", "former job") in pet.memory
    assert "used to work" not in reply, reply
    pet.say("I used to work out every day")  # a habit of before, no work
    for filler in ("the bus was late", "it rained", "ok", "hm", "right", "sure", "fine"):
        pet.say(filler)
    answer = pet.say("where did I used to work?")
    assert kept.removeprefix("The owner used to work ").rstrip(".") in answer, answer
