"""A memory write before and after: the op validated and resolved to its target file (before any
disk access), what a writer adds to it, and what the writer reports back.

Write targets are a closed set: `about.md`, `summary.md`, `episodes.md` (fixed names in the root)
and `<collection>/<stem>.md` whose parent must be the collection directory. `DIRECTIVE.md` is
named nowhere here: no op and no name can reach it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from shelldon import _native
from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    LogEpisode,
    MemoryOp,
    Remember,
    RewriteAbout,
    RewriteSummary,
)
from shelldon.contracts.provenance import PROVENANCES, Provenance
from shelldon.core import gate
from shelldon.core.reasons import ReasonCode

MAX_CONTENT_CHARS = 64_000  # hard ceiling before the gate's own, tighter limits
MAX_NAME_CHARS = 200
MAX_TAGS = 16


class MemoryOpError(ValueError):
    """An op refused by validation, before any disk access. The message never echoes content."""


@dataclass(frozen=True)
class PlannedWrite:
    """A validated op resolved to its target: what the gate sees before anything is written."""

    op: MemoryOp
    kind: Literal["replace", "append"]
    target: Path
    content: str
    provenance: Provenance
    turn_id: str | None
    collection: str | None = None  # set for `remember`
    stem: str | None = None


Action = Literal["create", "update", "append", "skip", "reject"]


@dataclass(frozen=True)
class EntryExtras:
    """What a writer knows beyond the op: the owner-rule capture and CLI edits set these."""

    title: str | None = None
    tags: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    confidence: float | None = None
    # Addresses an existing entry (the gate's Candidate.stem): "this revises that one".
    stem: str | None = None


@dataclass(frozen=True)
class Applied:
    """What apply_memory_op did: the gate's decision, resolved to files, and its audit line.

    `target` is the file the action applies to (for a skip, the entry that made it redundant when
    there is one); `stem` its entry stem; `change_id` the history.jsonl line."""

    action: Action
    target: Path
    reason: str = ""
    reason_code: ReasonCode = ""
    stem: str | None = None
    supersedes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()
    change_id: str = ""
    decision: gate.Decision | None = field(default=None, compare=False)


def unit_for(turn_id: str | None) -> str:
    """The audit unit of a write: "dream-<n>" as given, "turn-<id>" for a turn, else "core"."""
    if not turn_id:
        return "core"
    if turn_id.startswith(("dream-", "turn-", "cli", "owner-rule")):
        return turn_id
    return f"turn-{turn_id}"


def collection_dir(root: Path, collection: str) -> Path:
    if collection not in COLLECTION_NAMES:
        raise MemoryOpError(f"unknown collection {collection[:40]!r}")
    return root / collection


def plan_write(root: Path, op: object, provenance: str, turn_id: str | None) -> PlannedWrite:
    """All validation, no disk access. Structs built in code skip msgspec's checks, so the
    types are checked again here. Raises MemoryOpError."""
    if provenance not in PROVENANCES:
        raise MemoryOpError(f"unknown provenance {str(provenance)[:20]!r}")
    if turn_id is not None and (not isinstance(turn_id, str) or len(turn_id) > 200):
        raise MemoryOpError("turn_id must be a short string")
    prov: Provenance = provenance  # narrowed by the membership check above
    if isinstance(op, RewriteAbout):
        content = _checked_text(op.content, "content")
        return PlannedWrite(op, "replace", root / "about.md", content, prov, turn_id)
    if isinstance(op, RewriteSummary):
        content = _checked_text(op.content, "content")
        return PlannedWrite(op, "replace", root / "summary.md", content, prov, turn_id)
    if isinstance(op, LogEpisode):
        content = _checked_text(op.content, "content")
        tags = op.tags
        if not isinstance(tags, tuple | list) or len(tags) > MAX_TAGS:
            raise MemoryOpError(f"tags must be at most {MAX_TAGS} strings")
        for tag in tags:
            _checked_text(tag, "tag", max_chars=64)
        return PlannedWrite(op, "append", root / "episodes.md", content, prov, turn_id)
    if isinstance(op, Remember):
        if not isinstance(op.collection, str) or op.collection not in COLLECTION_NAMES:
            raise MemoryOpError("remember: unknown collection")
        name = _checked_text(op.name, "name", max_chars=MAX_NAME_CHARS)
        content = _checked_text(op.content, "content")
        try:
            stem = _native.filename_stem(name)
        except ValueError:
            raise MemoryOpError("remember: name has no usable filename characters") from None
        directory = collection_dir(root, op.collection)
        target = directory / f"{stem}.md"
        # Belt and braces: the stem cannot contain a separator, and this makes it structural.
        if target.parent != directory or target.name.casefold() == "directive.md":
            raise MemoryOpError("remember: target escapes its collection")
        return PlannedWrite(
            op, "replace", target, content, prov, turn_id, collection=op.collection, stem=stem
        )
    raise MemoryOpError(f"not a memory op: {type(op).__name__}")


def _checked_text(value: object, what: str, *, max_chars: int = MAX_CONTENT_CHARS) -> str:
    if not isinstance(value, str):
        raise MemoryOpError(f"{what} must be a string")
    if not value.strip():
        raise MemoryOpError(f"{what} is empty")
    if len(value) > max_chars:
        raise MemoryOpError(f"{what} is over {max_chars} characters")
    if "\x00" in value:
        raise MemoryOpError(f"{what} contains NUL")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MemoryOpError(f"{what} is not valid text (lone surrogate)") from None
    return value
