"""Core batches recall's stem index after a turn's reply (core.server run_turn,
core.history.recall).

Core runs in-process with a real data root and stores; only the worker is replaced, by a runner
that returns a fixed reply without ops.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from shelldon.contracts import wire
from shelldon.contracts.languages import OwnerLanguages
from shelldon.core.history import recall
from shelldon.core.runner import WorkerRunner
from shelldon.core.server import CoreService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot


class ReplyingRunner(WorkerRunner):
    def spawn(
        self,
        turn_id: str,
        purpose: wire.TurnPurpose,
        message: str,
        dream_directive: str = "",
        *,
        deadline_s: float | None = None,
        owner_languages: OwnerLanguages | None = None,
    ) -> wire.TurnResult | wire.TurnFailed:
        return wire.TurnResult(turn_id=turn_id, reply="Nice.", ops=())


def _unindexed(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return recall.unindexed_rows(conn)
    finally:
        conn.close()


def test_the_batch_is_written_after_the_reply_once_a_window_of_rows_is_waiting(
    tmp_path: Path,
) -> None:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    layout.prepare(root)
    service = CoreService(Stores.open(root), ReplyingRunner(root, turn_deadline_s=5.0))
    at_reply: list[int] = []

    def emit(reply: wire.Reply) -> None:
        at_reply.append(_unindexed(root.history_db))

    turns = recall.STEM_BATCH_ROWS // 2
    for i in range(turns):
        service.run_turn("turn", f"the otter visited {i}", emit=emit)
        after = _unindexed(root.history_db)
        assert after == (0 if i == turns - 1 else 2 * (i + 1)), (i, after)
    # Each reply left before its turn's batch: the last one found a whole window unindexed.
    assert at_reply == [2 * (i + 1) for i in range(turns)]
    service.index_history(at_least=1)  # as at shutdown: nothing left
    assert _unindexed(root.history_db) == 0
