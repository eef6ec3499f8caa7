"""What the class tests and batteries of the gate's passes ask of `gate.screen_text`
(tests/core/gate/test_gate_screen_*.py, tests/support/gate_*.py): which instruction rules refused
a text, and which texts of a battery the screen refuses.

The batteries print their counts when run as modules from tests/:
`PYTHONPATH=tests .venv/bin/python -m support.gate_round4_battery`."""

from __future__ import annotations

from collections.abc import Callable

from shelldon.core import gate


def refused_by(text: str) -> tuple[str, ...]:
    """The rules that refused `text` as instruction-shaped; fails when it was not so refused."""
    refusal = gate.screen_text(text)
    assert refusal is not None and refusal.code == "instruction", text
    return refusal.rule_ids


def refused(texts: list[str], *, code: str | None = "instruction") -> list[str]:
    """The texts the whole screen refuses: as instruction-shaped (default), or for any reason
    (`code=None`)."""
    out = []
    for text in texts:
        refusal = gate.screen_text(text)
        if refusal is not None and (code is None or refusal.code == code):
            out.append(text)
    return out


def print_batteries(
    batteries: list[tuple[str, list[str]]], refuses: Callable[[list[str]], list[str]]
) -> None:
    """Each battery's count, then the benign lines it refused with their rules, or the attacks
    it let pass (a battery whose name starts with "benign" is owner lines)."""
    for name, texts in batteries:
        hits = refuses(texts)
        print(f"{name}: {len(hits)} of {len(texts)} refused")
        if name.startswith("benign"):
            for text in hits:
                refusal = gate.screen_text(text)
                print(f"  refused: {text!r} {refusal.rule_ids if refusal else ()}")
        else:
            for text in sorted(set(texts) - set(hits)):
                print(f"  passed: {text!r}")
