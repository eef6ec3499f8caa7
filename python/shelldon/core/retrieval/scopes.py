"""Two scopes of curated memory, ranked together: the global one and a project's.

The global scope is the data root's `memory/` (what applies everywhere: the pet's own tree). A
project's scope is `<project>/.shelldon/memory`: the same tree, written through the same gate,
with the same limits and its own MEMORY.md and history.jsonl. `select_scoped` ranks the entries
of both in one ranking (`core.retrieval.rank.select_entries` with `scopes`), so each shown entry
carries its scope's label ("project:facts/build", "global:preferences/tabs"). Trust orders them
as it orders one tree: a project's rule outranks a global inference, and the other way round.

Names across scopes: "project:facts/x" or "global:facts/x" names one scope's entry; a bare
"facts/x" (or a stem) is looked up in the project first, then the global scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from shelldon.core.memory.entry import Entry
from shelldon.core.memory.reader import MemoryReader, shown_name
from shelldon.core.retrieval.rank import MemorySelection, select_entries

PROJECT: Final = "project"
GLOBAL: Final = "global"
SCOPE_NAMES: Final = (PROJECT, GLOBAL)
PROJECT_MEMORY: Final = Path(".shelldon") / "memory"


def project_memory_root(project: Path) -> Path:
    """Where a project's memory tree lives."""
    return project / PROJECT_MEMORY


@dataclass(frozen=True)
class Scope:
    """One scope's tree. `base` resolves its entries' relative `depends_on` paths (the project
    directory for a project, the data root for the global scope)."""

    name: str
    memory: MemoryReader
    base: Path | None = None


def split_scope(name: str) -> tuple[str | None, str]:
    """("project", "facts/x") from "project:facts/x"; (None, name) when it names no scope."""
    head, sep, rest = name.strip().partition(":")
    if sep and head in SCOPE_NAMES:
        return head, rest
    return None, name.strip()


def find_scoped(scopes: Sequence[Scope], name: str) -> tuple[Scope, Entry]:
    """The entry `name` names, and its scope: a scoped name in that scope only, a bare one in
    the first scope that holds it. Raises LookupError naming what is missing or ambiguous."""
    wanted, rest = split_scope(name)
    errors: list[str] = []
    for scope in scopes:
        if wanted is not None and scope.name != wanted:
            continue
        try:
            return scope, scope.memory.find_entry(rest)
        except LookupError as exc:
            errors.append(str(exc))
    if wanted is not None and wanted not in {s.name for s in scopes}:
        raise LookupError(f"no {wanted} memory here")
    ambiguous = [e for e in errors if "ambiguous" in e]
    raise LookupError(ambiguous[0] if ambiguous else f"no entry named {shown_name(name)}")


def scoped_entries(scopes: Sequence[Scope]) -> tuple[list[Entry], list[str]]:
    """Every entry of every scope, and its scope's name (parallel lists)."""
    entries: list[Entry] = []
    labels: list[str] = []
    for scope in scopes:
        found = scope.memory.entries()
        entries.extend(found)
        labels.extend([scope.name] * len(found))
    return entries, labels


def select_scoped(
    scopes: Sequence[Scope],
    query: str,
    now: datetime,
    *,
    paths: Sequence[str] = (),
    keep_ranked: bool = False,
) -> MemorySelection:
    """Rank every scope's entries together against `query` (4 in full within 3,000 characters,
    12 by title, the rest counted), each labelled with its scope."""
    entries, labels = scoped_entries(scopes)
    return select_entries(
        entries,
        query,
        now,
        paths=paths,
        scopes=labels,
        scope_bases={s.name: s.base for s in scopes},
        keep_ranked=keep_ranked,
    )
