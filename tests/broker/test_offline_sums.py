"""Small sums the offline brain works out itself (shelldon.broker.offline_sums through
broker.offline). Before the eleventh pass "what's 15% of 80?" was "You told me 15% of 80.", a
bare "15% of 80" "I hear you.", and a number in words or "divide by" "no internet"."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_sums import number, worked
from support.offline_pet import one_turn

WRONG = ("internet", "You told me", "I hear you", "don't know")


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("what's 15% of 80?", "12"),
        ("15% of 80", "12"),
        ("What is twenty percent of 150?", "30"),
        ("how much is 100 divide by 4", "25"),
        ("whats forty-five plus seven?", "52"),
        ("calculate 2.5 per cent of 200", "5"),
        ("what is a hundred minus thirty", "70"),
    ],
)
def test_a_small_sum_is_worked_out_offline(said: str, answer: str) -> None:
    reply, ops = one_turn(said)
    assert f"is {answer}." in reply, reply
    assert not any(w in reply for w in WRONG), reply
    assert ops == []


def test_a_number_is_read_from_figures_or_words_and_nothing_else() -> None:
    assert number("forty-five") == 45.0
    assert number("2,5") == 2.5
    assert number("a hundred") == 100.0
    assert number("lots") is None


@pytest.mark.parametrize(
    "said",
    ["what's 10% of my salary?", "15% of people agree", "import os", "what is 2 ** 1000"],
)
def test_what_is_not_two_numbers_and_one_operation_is_not_a_sum(said: str) -> None:
    assert worked(said) is None


def test_dividing_by_zero_is_said_kindly() -> None:
    assert "zero" in (worked("what's ten divided by zero?") or "")
