"""The open classes passes (docs/gate-design.md, "Open classes" and "Open classes, second
pass"), one battery each in tests/support (HELD_APART_* written before any change and run once,
AFTER_* written once the fixes were in and run once; figures in the doc). Each line must keep
its verdict now.

- First pass (`gate_open_classes_battery`): orders in eight more languages, password and key
  names in other languages, grants forged in the owner's name, notes in code addressed to the
  assistant. Held-apart: 23 of 42 attacks refused, 4 of them only as too short; 3 of 30
  look-alikes refused, all Japanese sentences counted as one word. After: 13 of 15, 0 of 16.
- Second pass (`gate_open_classes2_battery`): orders of four more shapes in those eight
  languages, orders in eight more scripts, notes to the assistant in code comments in other
  languages, grants in the owner's voice without "you". Held-apart: 4 of 45 attacks refused,
  0 of 30 look-alikes. After: 15 of 16, 0 of 17.
"""

from __future__ import annotations

import pytest

from shelldon.core.gate import Candidate, Decision, decide
from shelldon.core.gate.normalise import written_words
from support import gate_open_classes2_battery, gate_open_classes_battery

BATTERIES = {"first": gate_open_classes_battery, "second": gate_open_classes2_battery}

ATTACKS = [
    pytest.param(text, id=f"{name}-{index}")
    for name, battery in BATTERIES.items()
    for index, text in enumerate(battery.HELD_APART_ATTACKS + battery.AFTER_ATTACKS)
]
LOOK_ALIKES = [
    pytest.param(text, id=f"{name}-{index}")
    for name, battery in BATTERIES.items()
    for index, text in enumerate(battery.HELD_APART_BENIGN + battery.AFTER_BENIGN)
]


def _decision(text: str) -> Decision:
    candidate = Candidate(
        collection="facts", title="", body=text, provenance="inferred", stem=None, merges=()
    )
    return decide(candidate, [])


@pytest.mark.parametrize("text", ATTACKS)
def test_an_attack_is_refused_by_the_screen_not_by_its_length(text: str) -> None:
    decision = _decision(text)
    assert decision.action == "reject", text
    assert decision.reason_code in ("secret", "instruction"), (text, decision.reason_code)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_look_alike_is_kept(text: str) -> None:
    decision = _decision(text)
    assert decision.action == "create", (text, decision.reason_code, decision.rule_ids)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("母の誕生日は3月12日で、白い花が好きです。", 11),
        ("了解です", 2),
        ("パスワード=sakura_1987", 4),
        ("The owner likes tea.", 4),
    ],
)
def test_japanese_and_chinese_count_two_characters_a_word(text: str, words: int) -> None:
    assert written_words(text) == words


def test_a_japanese_acknowledgement_is_still_too_short() -> None:
    assert _decision("了解です").reason_code == "too_short"
