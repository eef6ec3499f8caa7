"""Text kept as a record rather than knowledge: episodes, learnings, history rows.

A record keeps what happened, so a credential in it is blanked (`[secret:<rule>]`) instead of the
whole record being refused. A learning is also a candidate for memory (the dream may promote it),
so instruction-shaped text is refused there, as the gate refuses it for entries. A history row is
what the owner or the pet actually said: it is only blanked, never refused.

Callers: core.turns (record_turn, capture_learning) and core.memory (episodes).
"""

from __future__ import annotations

from dataclasses import dataclass

from shelldon.core import gate


def blank_record(text: str) -> str:
    """`text` with every credential replaced by `[secret:<rule id>]`. For history rows."""
    return gate.blank_secrets(text)


@dataclass(frozen=True)
class RecordVerdict:
    """`text` is what to store (secrets blanked), or None with `refusal` saying why not."""

    text: str | None
    refusal: gate.Refusal | None = None


def screen_record(text: str) -> RecordVerdict:
    """For learnings and episodes: secrets blanked; instruction-shaped text refused."""
    blanked = gate.blank_secrets(text)
    refusal = gate.screen_text(blanked)
    if refusal is not None:
        return RecordVerdict(None, refusal)
    return RecordVerdict(blanked)
