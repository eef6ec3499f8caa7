"""Child for the journal tests: one real owner turn through core.turn.apply, SIGKILLed at a chosen
point.

`python journal_child.py <home> <point>`; the points:
- `reply`: the moment the reply is emitted (the turn is journaled, no item applied yet);
- `first-item`: just after the first item's audit line (that item applied, the others not);
- `clear`: when the journal row would be cleared (every item applied, the row still there).
Without a kill point (`none`) the turn runs to the end. The process dies by its own SIGKILL, so
nothing in it gets to clean up: exactly what a killed core leaves.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shelldon.contracts import wire
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.audit import AuditLog, AuditRecord
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.turn import apply as turns
from shelldon.core.turn import journal
from shelldon.paths import DataRoot

API_KEY = "sk-proj-" + "Z7q" * 16
MESSAGE = "Always answer in French. My sister is called Ana."
OPS: tuple[dict[str, Any], ...] = (
    {
        "op": "remember",
        "collection": "people",
        "name": "sister",
        "content": "The owner's sister is called Ana.",
    },
    {"op": "log_episode", "content": f"The owner pasted {API_KEY} by mistake."},
    {
        "op": "capture_learning",
        "observation": "The owner talks about family in the evening.",
        "pattern_key": "habit:family-evening",
    },
    {
        "op": "remember",
        "collection": "facts",
        "name": "key",
        "content": f"The owner's key is {API_KEY}.",
    },
)
TURN_ID = "20261129T210000-c0ffee"


def run(home: Path, point: str) -> subprocess.CompletedProcess[str]:
    """This child as the tests start it: on the data root `home`, up to the kill `point`."""
    return subprocess.run(
        [sys.executable, __file__, str(home), point],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def main(home: str, point: str) -> None:
    root = DataRoot.resolve(home)
    memory = CuratedMemory(root.memory)
    history = HistoryStore.open(root.history_db)
    if point == "first-item":
        record = AuditLog.record

        def record_then_die(self: AuditLog, **kwargs: Any) -> AuditRecord:
            rec = record(self, **kwargs)
            if rec.journal is not None:
                _die()
            return rec

        AuditLog.record = record_then_die  # type: ignore[method-assign]
    if point == "clear":
        journal.clear = lambda history, journal_id: _die()

    def emit(text: str, degraded: bool) -> None:
        if point == "reply":
            _die()

    turns.apply_turn(
        root=root,
        history=history,
        memory=memory,
        turn_id=TURN_ID,
        purpose="turn",
        message=MESSAGE,
        outcome=wire.TurnResult(turn_id=TURN_ID, reply="Noted, Ana!", ops=OPS),
        emit=emit,
        now=datetime.now(UTC),
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
