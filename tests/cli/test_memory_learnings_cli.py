"""`shelldon memory learnings`: the pending learnings and what the next dream will look at, read
from history.db read-only (the file is unchanged by it)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from shelldon.contracts.ops import CaptureLearning
from shelldon.core.history.store import HistoryStore
from shelldon.core.learning.corrections import CorrectionLedger
from shelldon.core.learning.rules import capture_owner_rules
from shelldon.core.memory.lifecycle import CuratedMemory

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def learnings(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "memory", "learnings", "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_pending_learnings_and_what_the_next_dream_looks_at(home: Path) -> None:
    (home / "memory").mkdir(parents=True, exist_ok=True)
    store = HistoryStore.open(home / "history.db")
    try:
        for _ in range(3):
            store.capture_learning("The owner usually drinks jasmine tea.", "habit:tea", NOW)
        store.capture_learning("The owner likes being called Bobby.", "name:bobby", NOW)
        corrected = "The owner is a plumber."
        store.capture_learning(corrected, "identity:plumber", NOW)
        resolved = store.capture_learning("The owner hums.", "habit:hum", NOW)
        assert resolved is not None
        store.resolve_learning(resolved, "pruned")
    finally:
        store.close()
    ledger = CorrectionLedger(home / "state")
    ledger.note_turn("t1", "I'm a plumber", [CaptureLearning(corrected, "identity:plumber")])
    ledger.note_turn("t2", "No, that's wrong, forget it.", [])
    capture_owner_rules(CuratedMemory(home / "memory"), "Never call me Bobby.", turn_id="t3")
    db = home / "history.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()

    done = learnings(home)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3, lines  # the pruned one is not pending
    assert lines[0].startswith("#1\tseen 3x\tnext dream\tThe owner usually drinks jasmine tea.")
    bobby = next(line for line in lines if "Bobby" in line)
    plumber = next(line for line in lines if "plumber" in line)
    assert "held back" in bobby and "held back" in plumber
    assert "3 pending; the next dream looks at 1 of them" in done.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_no_history_yet(home: Path) -> None:
    done = learnings(home)
    assert done.returncode == 0, done.stderr
    assert "no pending learnings" in done.stdout
    assert not (home / "history.db").exists()
