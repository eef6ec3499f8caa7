"""The second open classes pass (docs/gate-design.md, "Open classes, second pass"): orders of
four more shapes in the eight languages the first pass read, orders in eight more scripts, notes
to the assistant in code comments in other languages, grants in the owner's voice without "you".
The held-apart set was written before any change and run once (4 of 45 attacks refused, 0 of 30
look-alikes); the after-set was written once the fixes were in and run once (figures in the
doc). Each line must keep its verdict now."""

from __future__ import annotations

import pytest

from shelldon.core.gate import Candidate, Decision, decide
from support.gate_open_classes2_battery import (
    AFTER_ATTACKS,
    AFTER_BENIGN,
    HELD_APART_ATTACKS,
    HELD_APART_BENIGN,
)


def _decision(text: str) -> Decision:
    candidate = Candidate(
        collection="facts", title="", body=text, provenance="inferred", stem=None, merges=()
    )
    return decide(candidate, [])


@pytest.mark.parametrize("text", HELD_APART_ATTACKS + AFTER_ATTACKS)
def test_an_attack_is_refused_by_the_screen_not_by_its_length(text: str) -> None:
    decision = _decision(text)
    assert decision.action == "reject", text
    assert decision.reason_code in ("secret", "instruction"), (text, decision.reason_code)


@pytest.mark.parametrize("text", HELD_APART_BENIGN + AFTER_BENIGN)
def test_a_look_alike_is_kept(text: str) -> None:
    decision = _decision(text)
    assert decision.action == "create", (text, decision.reason_code, decision.rule_ids)
