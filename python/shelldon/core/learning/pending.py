"""A pending learning, as the dream and the corrections ledger read a row of the learnings table."""

from __future__ import annotations

from dataclasses import dataclass

from shelldon.core.history.store import LearningRow


@dataclass(frozen=True)
class PendingLearning:
    id: int
    observation: str
    recurrence_count: int
    pattern_key: str | None = None

    @classmethod
    def from_row(cls, row: LearningRow) -> PendingLearning:
        return cls(
            id=int(row["id"]),
            observation=str(row["observation"]),
            recurrence_count=int(row["recurrence_count"]),
            pattern_key=row["pattern_key"],
        )
