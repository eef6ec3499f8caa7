"""Undoing a dream's learning resolutions. Its file changes are the audit's own undo
(`CuratedMemory.undo_unit("dream-<n>")`); what it did to the learnings table is read back from
the same audit lines and reverted here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shelldon.core.dream.model import dream_unit
from shelldon.core.history.store import HistoryStore

# One audit line as JSON (core.memory.audit's AuditRecord.to_json(), or a line the dream wrote).
AuditLine = Mapping[str, object]


def dream_resolutions(audit_lines: Iterable[AuditLine], n: int) -> list[tuple[int, str]]:
    """The learning resolutions dream-<n> applied, from its audit lines: [(id, status)]."""
    unit = dream_unit(n)
    out: list[tuple[int, str]] = []
    for line in audit_lines:
        if line.get("unit") != unit or line.get("op") != "resolve_learning":
            continue
        if line.get("action") != "resolved":
            continue
        parts = str(line.get("target") or "").split(":")
        if len(parts) == 3 and parts[0] == "learning" and parts[1].isdigit():
            out.append((int(parts[1]), parts[2]))
    return out


def undo_dream_learnings(audit_lines: Iterable[AuditLine], n: int, history: HistoryStore) -> int:
    """Put back to pending the learnings dream-<n> resolved (only those still in the state the
    dream left them in). Returns how many were reopened."""
    reopened = 0
    for learning_id, status in reversed(dream_resolutions(audit_lines, n)):
        if history.reopen_learning(learning_id, status):
            reopened += 1
    return reopened
