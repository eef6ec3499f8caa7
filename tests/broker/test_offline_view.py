"""The prompt as the offline brain sees it (broker.offline_view): a question that names someone
("what does ines do") is also asked by who they are to the owner, typed in lower case too, and
for a name kept beside its relation ("The owner's brother Lars lives in Bergen.")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        (("my wife is called Ines", "my wife is a baker"), "what does ines do", "baker"),
        (("my uncle Bo lives in Hull", "my uncle is a welder"), "what does bo do", "welder"),
        (("my niece Ada lives in Derby", "my niece is a student"), "what does Ada do", "student"),
        (("my gf is called Zoe", "my gf is a pilot"), "what does zoe do", "pilot"),
    ],
)
def test_a_question_by_name_is_asked_by_relation(
    told: tuple[str, ...], asked: str, answer: str
) -> None:
    pet = Pet(now=datetime(2026, 12, 9, 17, tzinfo=UTC), rules=True)
    pet.say("hi")
    for line in told:
        pet.say(line)
    reply = pet.say(asked)
    assert answer in reply, reply
    assert " is called " not in reply
