"""Two scopes, one ranking: a project's memory beside the global one (core.retrieval.scopes)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.contracts.ops import Remember
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras
from shelldon.core.retrieval.scopes import (
    GLOBAL,
    PROJECT,
    Scope,
    find_scoped,
    project_memory_root,
    select_scoped,
    split_scope,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _write(memory: CuratedMemory, name: str, text: str, provenance: str, **extras: object) -> str:
    op = Remember(collection="facts", name=name, content=text)
    applied = memory.apply_memory_op(op, provenance=provenance, extras=EntryExtras(**extras))  # type: ignore[arg-type]
    assert applied.action == "create", applied.reason
    assert applied.stem is not None
    return applied.stem


@pytest.fixture
def trees(tmp_path: Path) -> tuple[CuratedMemory, CuratedMemory, list[Scope]]:
    project = tmp_path / "project"
    project.mkdir()
    home = tmp_path / "home"
    proj = CuratedMemory(project_memory_root(project))
    glob = CuratedMemory(home / "memory")
    return proj, glob, [Scope(PROJECT, proj, project), Scope(GLOBAL, glob, home)]


def test_a_project_rule_outranks_a_global_inference(
    trees: tuple[CuratedMemory, CuratedMemory, list[Scope]],
) -> None:
    proj, glob, scopes = trees
    _write(glob, "test runner", "The test suite runs with pytest and the -x flag.", "inferred")
    _write(
        proj, "test command", "Always run the test suite through tox, never bare pytest.", "owner"
    )
    selection = select_scoped(scopes, "how do I run the test suite", NOW)
    assert [s.id for s in selection.full] == [
        "project:facts/test-command",
        "global:facts/test-runner",
    ]
    assert [s.scope for s in selection.full] == [PROJECT, GLOBAL]
    # Trust orders the scopes, not the scope itself: a global rule outranks a project inference.
    _write(proj, "lint runner", "The linter runs with ruff over the whole test suite.", "inferred")
    _write(glob, "lint rule", "Always run the linter before the test suite.", "owner")
    order = [s.id for s in select_scoped(scopes, "run the linter", NOW).full]
    assert order.index("global:facts/lint-rule") < order.index("project:facts/lint-runner")


def test_each_shown_entry_is_labelled_with_its_scope(
    trees: tuple[CuratedMemory, CuratedMemory, list[Scope]],
) -> None:
    proj, glob, scopes = trees
    # The same stem in both trees stays two entries, told apart by their scope.
    _write(proj, "build", "The project builds with make release in the top directory.", "owner")
    _write(glob, "build", "Builds on this workstation use eight parallel jobs.", "inferred")
    text = select_scoped(scopes, "build", NOW).render()
    assert "(project:facts/build; owner" in text
    assert "(global:facts/build; inferred" in text


def test_depends_on_resolves_from_each_scopes_own_base(
    trees: tuple[CuratedMemory, CuratedMemory, list[Scope]],
) -> None:
    proj, _, scopes = trees
    project_dir = scopes[0].base
    assert project_dir is not None
    schema = project_dir / "schema.json"
    schema.write_text("{}")
    old = datetime.now(UTC).timestamp() - 60
    os.utime(schema, (old, old))  # written well before the entry was confirmed
    _write(
        proj,
        "regen",
        "After changing schema.json run the code generator again.",
        "inferred",
        depends_on=("schema.json",),
    )
    # Found from the project's directory (from any other base it would be missing, so stale).
    [fresh] = select_scoped(scopes, "schema", datetime.now(UTC)).full
    assert not fresh.stale
    later = datetime.now(UTC).timestamp() + 60
    os.utime(schema, (later, later))  # changed since it was confirmed: may be stale
    [changed] = select_scoped(scopes, "schema", datetime.now(UTC)).full
    assert changed.stale_files == ("schema.json",)


def test_names_across_scopes(trees: tuple[CuratedMemory, CuratedMemory, list[Scope]]) -> None:
    proj, glob, scopes = trees
    _write(proj, "build", "The project builds with make release in the top directory.", "owner")
    _write(glob, "build", "Builds on this workstation use eight parallel jobs.", "inferred")
    _write(glob, "editor", "The owner edits code in a terminal editor with vim keys.", "inferred")
    assert split_scope("global:facts/x") == (GLOBAL, "facts/x")
    assert split_scope("facts/x") == (None, "facts/x")
    scope, entry = find_scoped(scopes, "global:facts/build")
    assert (scope.name, entry.body.startswith("Builds on")) == (GLOBAL, True)
    assert find_scoped(scopes, "facts/build")[0].name == PROJECT  # bare: the project first
    assert find_scoped(scopes, "editor")[0].name == GLOBAL
    with pytest.raises(LookupError, match="no entry"):
        find_scoped(scopes, "project:editor")
