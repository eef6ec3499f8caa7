"""What a turn's application returns: one verdict per op, the turn's outcome.

A leaf, so the services that run turns (the reflection, the telegram chat, the server) can read a
turn's result without importing the turn's applier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from shelldon.core.reasons import ReasonCode

Outcome = Literal["ok", "degraded", "spawn_failed"]


@dataclass(frozen=True)
class OpVerdict:
    """What became of one proposed op (or of one owner rule)."""

    index: int  # position in the brain's ops; -1 for an owner rule
    op: str
    action: str  # create | update | skip | reject | append | captured | ...
    reason_code: ReasonCode
    reason: str
    target: str | None = None


@dataclass(frozen=True)
class TurnOutcome:
    turn_id: str
    reply: str
    degraded: bool
    outcome: Outcome
    recorded: bool
    verdicts: tuple[OpVerdict, ...] = field(default=())
