"""The blank mark has one shape: what the gate writes is what every reader recognises."""

from __future__ import annotations

from shelldon.contracts.blanks import BLANK, blank, holds_blank
from shelldon.core.gate import blank_secrets


def test_what_the_gate_blanks_is_recognised_as_a_blank() -> None:
    kept = blank_secrets("my password for the bank is hunter2, and the api key is sk-" + "a1" * 20)
    assert holds_blank(kept), kept
    assert "hunter2" not in kept
    assert all(BLANK.fullmatch(m.group()) for m in BLANK.finditer(kept))
    assert blank_secrets(kept) == kept  # a mark is no credential to blank again


def test_a_mark_is_recognised_only_in_its_own_shape() -> None:
    assert holds_blank(f"the code is {blank('pin-in-words')}")
    for text in ("I keep a [secret] diary", "[secret: hunter2]", "[Secret:pin]", "secret:pin"):
        assert not holds_blank(text), text
