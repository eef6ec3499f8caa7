"""The mark a credential leaves where it was blanked: one home for its shape.

Core keeps what happened (history rows, episodes, learnings) with each credential replaced by
`[secret:<rule id>]` (core.gate.screen.blank_secrets); the gate reads its own marks as no
credential; the offline brain, asked what the owner once told it, says the secret was not kept
instead of reading the mark back ("your bank password is [secret:password-in-words]").
"""

from __future__ import annotations

import re

BLANK = re.compile(r"\[secret:[a-z0-9-]+\]")


def blank(rule_id: str) -> str:
    """The mark for a credential the rule `rule_id` found."""
    return f"[secret:{rule_id}]"


def holds_blank(text: str) -> bool:
    """Whether a credential was blanked out of `text`."""
    return "[secret:" in text and BLANK.search(text) is not None
