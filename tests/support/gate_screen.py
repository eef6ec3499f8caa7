"""What the class tests of the gate's passes ask of `gate.screen_text` (tests/core/gate/
test_gate_screen_*.py): which instruction rules refused a text."""

from __future__ import annotations

from shelldon.core import gate


def refused_by(text: str) -> tuple[str, ...]:
    """The rules that refused `text` as instruction-shaped; fails when it was not so refused."""
    refusal = gate.screen_text(text)
    assert refusal is not None and refusal.code == "instruction", text
    return refusal.rule_ids
