"""The one vocabulary of reason codes: closed, each code spelled somewhere in the product, and a
code read back from a record that is not in it is never trusted as one."""

from __future__ import annotations

import re
from pathlib import Path

from shelldon.core.reasons import REASON_CODES, reason_code

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "shelldon"


def test_every_code_is_used_by_the_product() -> None:
    """A code nobody writes is a dead word: the vocabulary is what the writers say."""
    text = "\n".join(p.read_text() for p in PACKAGE.rglob("*.py") if p.name != "reasons.py")
    unused = sorted(c for c in REASON_CODES if c and not re.search(rf"[\"']{c}[\"']", text))
    assert unused == [], "remove them from core/reasons.py"


def test_an_unknown_code_read_back_is_unknown() -> None:
    assert reason_code("secret") == "secret"
    assert reason_code("made-up; DROP TABLE") == "unknown"
    assert "unknown" in REASON_CODES
