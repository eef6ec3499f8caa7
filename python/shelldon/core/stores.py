"""Core's read-write handles on the data root: history.db and the memory tree.

Core is their only writer; it opens them once at start-up and hands them, typed, to what needs
them (the turn loop in core.server, the dream in core.dream.service)."""

from __future__ import annotations

from dataclasses import dataclass

from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.paths import DataRoot


@dataclass(frozen=True)
class Stores:
    root: DataRoot
    history: HistoryStore
    memory: CuratedMemory

    @classmethod
    def open(cls, root: DataRoot) -> Stores:
        return cls(
            root=root,
            history=HistoryStore.open(root.history_db),
            memory=CuratedMemory(root.memory),
        )
