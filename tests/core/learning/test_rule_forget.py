"""Forgetting the newest owner rule brings back the one it superseded."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from shelldon.core.learning.rules import capture_owner_rules
from shelldon.core.memory.lifecycle import CuratedMemory
from support.clock import TickingClock

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _active_rules(mem: CuratedMemory) -> list[str]:
    return [
        e.stem for e in mem.entries() if e.collection == "preferences" and e.meta.status == "active"
    ]


def test_forgetting_the_newest_call_me_rule_brings_back_the_one_it_superseded(
    home: Path,
) -> None:
    mem = CuratedMemory(home / "memory", clock=TickingClock(NOW))
    capture_owner_rules(mem, "Call me Sam.", turn_id="t1")
    capture_owner_rules(mem, "Actually, call me Alex.", turn_id="t2")
    assert _active_rules(mem) == ["call-me-alex"]

    forgotten = mem.forget("call-me-alex")

    assert _active_rules(mem) == ["call-me-sam"]
    sam = mem.find_entry("preferences/call-me-sam")
    assert sam.meta.superseded_by == ""
    index = (home / "memory" / "MEMORY.md").read_text()
    assert "superseded by call-me-alex" not in index
    # One change, undone as one: Alex is back and Sam superseded again.
    mem.undo_change(forgotten.id)
    assert _active_rules(mem) == ["call-me-alex"]
    assert mem.find_entry("preferences/call-me-sam").meta.status == "superseded"


def test_forgetting_an_entry_that_superseded_nothing_revives_nothing(home: Path) -> None:
    mem = CuratedMemory(home / "memory", clock=TickingClock(NOW))
    capture_owner_rules(mem, "Call me Sam. Never use emoji.", turn_id="t1")
    mem.forget("call-me-sam")
    assert _active_rules(mem) == ["never-use-emoji"]
