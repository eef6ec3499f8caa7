"""`shelldon memory why | stats | history` as real processes against a data root and a project."""

from __future__ import annotations

from pathlib import Path

from shelldon.contracts.ops import Remember
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras
from shelldon.core.retrieval.scopes import project_memory_root
from support.cli import memory_cli as memory


def remember(mem: CuratedMemory, name: str, text: str, provenance: str = "inferred") -> None:
    op = Remember(collection="facts", name=name, content=text)
    assert mem.apply_memory_op(op, provenance=provenance).action in ("create", "update")  # type: ignore[arg-type]


def test_why_shows_where_each_entry_lands_and_the_scores_parts(home: Path, tmp_path: Path) -> None:
    glob = CuratedMemory(home / "memory")
    remember(glob, "editor", "The owner edits code in a terminal editor with vim keys.")
    project = tmp_path / "proj"
    project.mkdir()
    remember(
        CuratedMemory(project_memory_root(project)),
        "regen",
        "After editing schema.json run tools/regen.py to rebuild the generated module.",
        "owner",
    )
    result = memory(home, "why", "edit schema.json and rebuild", "--project", str(project))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("1. in full  project:facts/regen  score ")
    assert "relevance" in lines[0]
    assert lines[1].startswith("   shares: ") and "schema" in lines[1] and "rebuild" in lines[1]
    assert lines[2].startswith("   weighed by: owner, confidence 1.00")
    assert any("global:facts/editor" in line for line in lines)
    assert lines[-1].endswith("0 counted")
    # Without --project only the global memory is ranked.
    alone = memory(home, "why", "edit schema.json and rebuild")
    assert "project:" not in alone.stdout and "global:facts/editor" in alone.stdout
    bad = memory(home, "why", "x", "--project", str(tmp_path / "nope"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a directory" in bad.stderr


def test_stats_counts_entries_caps_and_decisions(home: Path) -> None:
    glob = CuratedMemory(home / "memory")
    remember(glob, "tea", "The owner drinks green tea every single morning.")
    glob.apply_memory_op(
        Remember(collection="facts", name="key", content="The key is sk-proj-" + "Z7q" * 16)
    )
    result = memory(home, "stats")
    assert result.returncode == 0, result.stderr
    assert "entries: 1 active, 0 superseded (facts 1/40," in result.stdout
    assert "provenance: inferred 1" in result.stdout
    assert "decisions: 2 (create 1, reject 1)" in result.stdout
    assert "refused: secret 1" in result.stdout


def test_history_shows_an_entrys_earlier_versions(home: Path) -> None:
    glob = CuratedMemory(home / "memory")
    remember(glob, "tea", "The owner drinks green tea every single morning.")
    [entry] = glob.entries()
    path = glob.entry_path(entry)
    op = Remember(
        collection="facts", name="tea", content="The owner drinks black tea every morning."
    )
    glob.apply_memory_op(op, provenance="owner", extras=EntryExtras(stem="tea"))
    assert "black tea" in path.read_text()
    result = memory(home, "history", "facts/tea")
    assert result.returncode == 0, result.stderr
    assert "remember create" in result.stdout and "remember update" in result.stdout
    assert "| The owner drinks green tea every single morning." in result.stdout
    missing = memory(home, "history", "facts/nothing")
    assert missing.returncode == 1 and "no recorded change" in missing.stderr
