"""Core's read-write handles on the data root: history.db and the memory tree.

Core is their only writer; it opens them once at start-up and hands them, typed, to what needs
them (the turn loop in core.server, the dream in core.dream.service), and closes them at its stop
(`close`): history.db's last clean close checkpoints the WAL and removes -wal and -shm. Left to the
garbage collector at exit it may never close: a connection thread still serving a client holds the
store, and sqlite then sees no close at all."""

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

    def close(self) -> None:
        """Close history.db (once serving has ended and the turn in flight is drained)."""
        self.history.close()
