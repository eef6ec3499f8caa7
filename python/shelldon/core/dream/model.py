"""What every part of the dream shares: its limits, the learnings it is offered, its audit unit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

DREAM_UNIT_PREFIX = "dream-"

AuditFn = Callable[[Mapping[str, str]], None]
"""Writes one audit line: unit, op, action, reason_code, reason, target (`AuditLog.note`)."""


def dream_unit(n: int) -> str:
    """The audit unit of the n-th dream: what `shelldon undo dream-<n>` reverts."""
    return f"{DREAM_UNIT_PREFIX}{n}"


@dataclass(frozen=True)
class DreamLimits:
    max_learnings: int = 20  # offered in one directive
    max_observation_chars: int = 300
    max_ops: int = 48  # applied per dream (2 per promotion + summary); the rest is stopped
    max_tokens: int = 3000  # estimated tokens of the ops applied (4 bytes of JSON per token)
    max_noop_streak: int = 3  # consecutive ops that change nothing: the brain is looping
    max_note_chars: int = 280
    recent_messages: int = 12
    max_recent_chars: int = 2400
    max_full_listed: int = 40  # entries listed per full collection
    deadline_s: float = 60.0


DEFAULT_LIMITS = DreamLimits()


@dataclass(frozen=True)
class FullCollection:
    """A collection at its cap (or the index at its limit): the dream asks for merges there."""

    collection: str
    count: int
    cap: int
    entries: tuple[tuple[str, str], ...] = ()  # (stem, title)
