"""A reply's opening word said once a turn (shelldon.broker.offline_sentences.openers_once through
broker.offline). Before the fifteenth pass "i'm Dana, I teach chemistry at a high school" was
"Nice to meet you, Dana! Nice! I'll remember that. …", a stammer."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_sentences import openers_once
from support.offline_pet import Pet


@pytest.mark.parametrize(
    "line",
    [
        "i'm Dana, I teach chemistry at a high school",
        "I'm Tomasz, I repair boilers for a living",
        "my name is Ruth and I teach piano",
    ],
)
def test_a_name_and_a_job_in_one_line_say_nice_once(line: str) -> None:
    pet = Pet()
    pet.say("hey there")
    reply = pet.say(line)
    assert reply.count("Nice") <= 1, reply


def test_an_opener_said_again_is_left_off() -> None:
    assert openers_once(["Nice to meet you, Dana!", "Nice! I'll remember that."]) == [
        "Nice to meet you, Dana!",
        "I'll remember that.",
    ]
    assert openers_once(["Oh, your mum lives in Cork.", "Okay! Noted."]) == [
        "Oh, your mum lives in Cork.",
        "Okay! Noted.",
    ]
