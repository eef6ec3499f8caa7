"""The kill drill (tests/support/drill.py): nothing acknowledged is lost, nothing is left torn.

The short form runs in `just test`; the long form (`just drill`, at least 200 kills) runs only
when asked for with `-m drill`. docs/reliability.md has the figures of the last long run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon import _native
from shelldon.contracts.ops import Remember
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.paths import DataRoot
from support.drill import Acked, Report, run_drill, verify
from support.processes import dead_pid

SHORT_KILLS = 12
LONG_KILLS = int(os.environ.get("SHELLDON_DRILL_KILLS", "200"))


def _drill(kills: int) -> Report:
    report, talker = run_drill(kills)
    report = verify(DataRoot.resolve(), talker.acked, report)
    print(report.summary())
    assert report.acked > kills, "the client hardly talked"
    assert report.lost == [], f"acknowledged turns missing from history: {report.lost[:5]}"
    assert report.torn == [], report.torn
    assert report.bad_audit_lines == [], report.bad_audit_lines
    assert report.journal_left == 0
    assert report.integrity == "ok"
    return report


def test_kill_drill_short(run_dir: Path) -> None:
    _drill(SHORT_KILLS)


@pytest.mark.drill
def test_kill_drill_long(run_dir: Path) -> None:
    _drill(LONG_KILLS)


def test_the_drills_checks_catch_each_fault(home: Path) -> None:
    """verify() on a data root with one of each fault planted: each is reported."""
    root = DataRoot.resolve(str(home))
    memory = CuratedMemory(root.memory)
    memory.apply_memory_op(Remember(collection="facts", name="tea", content="The owner likes tea."))
    with HistoryStore.open(root.history_db) as history:
        history.journal_turn("t-kept", "hello", "hi", datetime.now(UTC))
        history.journal_turn("t-changed", "hello", "hi", datetime.now(UTC))
    acked = [
        Acked("t-kept", "hello", "hi"),
        Acked("t-changed", "hello", "a reply that was not stored"),
        Acked("t-never-stored", "hello", "hi"),
    ]
    root.state.mkdir(parents=True, exist_ok=True)
    (root.state / f".scheduler.json{_native.TEMP_MARKER}{dead_pid()}-0").write_text("{")
    (root.state / "scheduler.json").write_text('{"version": 1, "sp')
    (root.memory / "facts" / "torn.md").write_text("---\ntitle: torn\nprovenance: owner\n")
    (root.memory / "episodes.md").write_text("## 2026-11-29T21:00:00Z\nwalked\n\n## 2026-1")
    with (root.memory / "history.jsonl").open("a") as fh:
        fh.write('{"id": "torn"')
    report = verify(root, acked, Report())
    assert [a.turn_id for a in report.lost] == ["t-changed", "t-never-stored"]
    assert len(report.torn) == 4, report.torn
    assert len(report.bad_audit_lines) == 1 and report.audit_lines == 1  # the whole one
