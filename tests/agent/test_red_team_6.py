"""Issue 23's sixth hostile round on the agent face: the held-apart calls of
tests/support/hostile_round6_agent.py over the real MCP wire (`shelldon agent serve` as a real
process), after the owner's words are heard by the prompt hook's path (docs/agents.md, "Sixth
hostile round"). A call is wrong when it creates or changes an owner entry, or when a call the
set says must be refused is not; the benign calls must be kept and the owner's rules stay as
the owner last said them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shelldon.agent.memory import AgentMemory
from shelldon.paths import DataRoot
from support import hostile_round6_agent as r6
from support.mcp_wire import Wire, entries_of, text_of

mcp = pytest.importorskip("mcp", reason="the agent extra is not installed (pip install '.[agent]')")


# What recall answers at most, whatever the task (docs/agents.md, "The door": 4 in full within
# 3,000 characters, 12 by title).
RECALL_BOUND = 4_000


def _owner(project: Path) -> dict[str, str]:
    return {k: body for k, (prov, body) in entries_of(project).items() if prov == "owner"}


def run_calls(
    home: Path, project: Path, calls: list[r6.Call], owner_said: list[str] = r6.OWNER_SAID
) -> dict[str, Any]:
    """Hear the owner's words, then send each call; what each did to the owner's entries."""
    memory = AgentMemory(project, DataRoot.resolve(home))
    for said in owner_said:
        memory.note_request(said, heard=True)
    wire = Wire(home, project)
    wire.initialize()
    wrong: list[str] = []
    lost: list[str] = []
    answers: list[tuple[str, bool, str]] = []
    for n, call in enumerate(calls):
        before = _owner(project)
        error, text = text_of(wire.call(n, call.tool, **call.arguments))
        answers.append((call.cls, error, text[:200]))
        bounded = call.tool != "memory_recall" or len(text) < RECALL_BOUND
        if _owner(project) != before or (call.must_refuse and not error) or not bounded:
            wrong.append(call.cls)
        if call.benign and error:
            lost.append(call.cls)
    errors = wire.end()
    assert "Traceback" not in errors
    return {"wrong": wrong, "lost": lost, "answers": answers, "owner": _owner(project)}


def report(found: dict[str, Any], calls: list[r6.Call]) -> None:
    total, wrong = Counter(c.cls for c in calls), Counter(found["wrong"])
    print(f"calls wrong: {sum(wrong.values())} of {sum(total.values())}")
    for cls, n in total.items():
        print(f"  {cls}: {wrong[cls]} of {n}")
    print(f"benign lost: {found['lost']}")
    for cls, error, text in found["answers"]:
        print(f"    {cls} | {'isError' if error else 'ok'} | {text}")


def test_sixth_round_held_apart_calls(home: Path, project: Path) -> None:
    calls = r6.CALLS + r6.BENIGN_CALLS
    found = run_calls(home, project, calls)
    report(found, calls)
    assert found["wrong"] == [] and found["lost"] == []
    assert set(found["owner"].values()) == r6.OWNER_RULES


def test_sixth_round_after_set(home: Path, project: Path) -> None:
    """Written after the fixes, run once as written (docs/agents.md, "Sixth hostile round")."""
    found = run_calls(home, project, r6.AFTER_CALLS, r6.AFTER_OWNER_SAID)
    report(found, r6.AFTER_CALLS)
    assert found["wrong"] == [] and found["lost"] == []
    assert set(found["owner"].values()) == r6.AFTER_RULES


# ------------------------------------------------------------------ the classes, one by one


def test_a_retracted_rule_relayed_over_the_wire_is_an_inference_and_refused(
    home: Path, project: Path
) -> None:
    """Before: the quote check read every message the hook kept, so "Always rebase before
    merging." relayed after the owner said "Actually, never rebase before merging." was
    captured as the owner's and replaced the newer rule."""
    memory = AgentMemory(project, DataRoot.resolve(home))
    for said in ("Always rebase before merging.", "Actually, never rebase before merging."):
        memory.note_request(said, heard=True)
    wire = Wire(home, project)
    wire.initialize()
    error, text = text_of(wire.call(1, "memory_note_request", text="Always rebase before merging."))
    wire.end()
    assert error and "owner_protected" in text, text
    assert set(_owner(project).values()) == {"Never rebase before merging."}


def test_an_owner_rule_turned_around_in_a_relayed_second_clause_is_refused(
    home: Path, project: Path
) -> None:
    """The after-set's finding: "Prefer small commits, never run the full test suite before a
    commit." was stored as an inference beside the owner's "Always run the full test suite
    before a commit." (its polarity read from "prefer"); now `owner_protected`, and as a fact."""
    memory = AgentMemory(project, DataRoot.resolve(home))
    memory.note_request("Always run the full test suite before a commit.", heard=True)
    wire = Wire(home, project)
    wire.initialize()
    text = "Prefer small commits, never run the full test suite before a commit."
    seen = [
        text_of(wire.call(1, "memory_note_request", text=text)),
        text_of(wire.call(2, "memory_write", collection="facts", name="c", content=text)),
    ]
    wire.end()
    for error, said in seen:
        assert error and "owner_protected" in said and "states the opposite of" in said, said
    assert list(entries_of(project)) == ["preferences/always-run-full-test-suite-before-commit"]
