"""A curated entry's front matter: who said it, how sure we are, when, and what it replaced.

Layout (readable by a person, parsed without a YAML dependency)::

    ---
    title: José
    collection: people
    provenance: owner
    confidence: 0.9
    created: 2026-11-29T21:00:00Z
    modified: 2026-11-29T21:00:00Z
    last_confirmed: 2026-11-29T21:00:00Z
    supersedes: []
    superseded_by:
    status: active
    depends_on: []
    tags: []
    format: 2
    ---
    the body, markdown

Scalars are `key: value` on one line; lists are JSON arrays of strings. Parsing is tolerant:
a file without front matter, or with a block that does not parse, is read with defaults and
provenance `inferred` (the least trusted), logged, never raised. A single bad value falls back
to that field's default. Unknown keys are ignored so older code reads newer files.

Format versions (`format:`, last key): an entry written without it is version 1 (the releases
before the key existed). Parsing upgrades the raw keys step by step (`_UPGRADES[n]` turns version n
into n + 1) before reading the fields, and rendering always writes FORMAT_VERSION, so an old entry
is upgraded on disk the next time the write path rewrites it, not eagerly (docs/storage.md: an
eager rewrite of every entry would change each file's hash under the audit log, and undo of the
changes before it would then refuse with a conflict). `Entry.format` says what the file held.
- 2: the `format` key itself; no field changed (version 1 parses to the same fields).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from shelldon.clock import parse_iso
from shelldon.contracts.provenance import PROVENANCES, Provenance

log = logging.getLogger(__name__)

# "retired": moved to the archive to make room in a full collection (core.memory.room).
Status = Literal["active", "superseded", "retired"]
STATUSES: tuple[Status, ...] = ("active", "superseded", "retired")
FENCE = "---"
DEFAULT_CONFIDENCE = 0.5
FORMAT_VERSION: Final = 2
FORMAT_KEY: Final = "format"
UNVERSIONED_FORMAT: Final = 1  # an entry without the key
# The tag of what a turn that ended unverified taught (core.learning.reflection): retrieval weighs
# it under every confirmed entry; a later write that is not unverified confirms it and drops the
# tag.
UNVERIFIED_TAG: Final = "unverified"

_LIST_KEYS = ("supersedes", "depends_on", "tags")
_TIME_KEYS = ("created", "modified", "last_confirmed")
_KEY_ORDER = (
    "title",
    "collection",
    "provenance",
    "confidence",
    "created",
    "modified",
    "last_confirmed",
    "supersedes",
    "superseded_by",
    "status",
    "depends_on",
    "tags",
)


@dataclass(frozen=True)
class EntryMeta:
    title: str = ""
    collection: str = ""
    provenance: Provenance = "inferred"
    confidence: float = DEFAULT_CONFIDENCE
    created: str = ""
    modified: str = ""
    last_confirmed: str = ""
    supersedes: tuple[str, ...] = ()
    superseded_by: str = ""
    status: Status = "active"
    depends_on: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    meta: EntryMeta
    body: str
    # Where it was read from: "<collection>/<stem>" (empty for an entry not yet on disk).
    stem: str = ""
    collection: str = ""
    # True when the front matter was missing or unparseable and defaults were used.
    defaulted: bool = field(default=False, compare=False)
    # The front matter's format version as read (rendering always writes FORMAT_VERSION).
    format: int = field(default=FORMAT_VERSION, compare=False)
    # Read from memory/archive/<collection>/ (superseded and retired entries live there, off the
    # worker's hot path), not from the collection's own directory.
    archived: bool = field(default=False, compare=False)


def _one_line(value: str) -> str:
    return " ".join(value.split())


def render_entry(meta: EntryMeta, body: str) -> str:
    """Front matter then body. Scalars are flattened to one line so the block always re-parses."""
    values: dict[str, str] = {
        "title": _one_line(meta.title),
        "collection": _one_line(meta.collection),
        "provenance": meta.provenance,
        "confidence": repr(float(min(1.0, max(0.0, meta.confidence)))),
        "created": _one_line(meta.created),
        "modified": _one_line(meta.modified),
        "last_confirmed": _one_line(meta.last_confirmed),
        "superseded_by": _one_line(meta.superseded_by),
        "status": meta.status,
    }
    for key in _LIST_KEYS:
        values[key] = json.dumps([str(v) for v in getattr(meta, key)], ensure_ascii=False)
    lines = [FENCE]
    lines += [f"{key}: {values[key]}".rstrip() for key in _KEY_ORDER]
    lines.append(f"{FORMAT_KEY}: {FORMAT_VERSION}")
    lines.append(FENCE)
    text = "\n".join(lines) + "\n" + body
    return text if text.endswith("\n") else text + "\n"


def _split(text: str) -> tuple[list[str], str] | None:
    """(front-matter lines, body) or None when the text has no complete block. Lines end at
    "\n" only: str.splitlines would also break at U+0085/U+2028, which JSON lists keep raw."""
    if not text.startswith(FENCE + "\n") and not text.startswith(FENCE + "\r\n"):
        return None
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") == FENCE:
            block = [line.rstrip("\r") for line in lines[1:index]]
            return block, "\n".join(lines[index + 1 :])
    return None


def _parse_list(raw: str) -> tuple[str, ...]:
    value = json.loads(raw) if raw else []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a JSON array of strings")
    return tuple(value)


def _parse_time(raw: str) -> str:
    if raw:
        parse_iso(raw)
    return raw


def _v1_to_v2(raw: dict[str, str]) -> dict[str, str]:
    """Version 2 only added the format key: every version-1 field reads the same."""
    return raw


# _UPGRADES[n]: the raw front matter of version n, as version n + 1 would hold it.
_UPGRADES: Final[dict[int, Callable[[dict[str, str]], dict[str, str]]]] = {1: _v1_to_v2}


def _format_of(raw: dict[str, str], source: str) -> int:
    value = raw.pop(FORMAT_KEY, None)
    if value is None:
        return UNVERSIONED_FORMAT
    try:
        version = int(value)
        if version < 1:
            raise ValueError(value)
    except ValueError:
        log.warning("%s: front matter format %r unreadable; read as version 1", source, value[:20])
        return UNVERSIONED_FORMAT
    if version > FORMAT_VERSION:
        log.info(
            "%s: front matter format %d is newer than %d; known keys read",
            source,
            version,
            FORMAT_VERSION,
        )
    return version


def upgrade_front_matter(raw: dict[str, str], version: int) -> dict[str, str]:
    """Raw `key: value` pairs of `version`, upgraded to FORMAT_VERSION one step at a time."""
    for step in range(version, FORMAT_VERSION):
        raw = _UPGRADES[step](dict(raw))
    return raw


def parse_entry(text: str, *, source: str = "<entry>") -> Entry:
    """Parse an entry; never raises on content. `source` only names the file in log lines."""
    split = _split(text)
    if split is None:
        if text.startswith(FENCE):
            log.warning("%s: front matter not closed; read as inferred with defaults", source)
        return Entry(EntryMeta(), text, defaulted=True, format=UNVERSIONED_FORMAT)
    block, body = split
    raw: dict[str, str] = {}
    for line in block:
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            log.warning("%s: front matter line unparseable; read as inferred with defaults", source)
            return Entry(EntryMeta(), body, defaulted=True, format=UNVERSIONED_FORMAT)
        raw[key.strip()] = value.strip()
    version = _format_of(raw, source)
    raw = upgrade_front_matter(raw, version)
    meta = EntryMeta()
    updates: dict[str, object] = {}
    for key, value in raw.items():
        try:
            if key in ("title", "collection", "superseded_by"):
                updates[key] = value
            elif key == "provenance":
                if value not in PROVENANCES:
                    raise ValueError(f"unknown provenance {value[:20]!r}")
                updates[key] = value
            elif key == "status":
                if value not in STATUSES:
                    raise ValueError(f"unknown status {value[:20]!r}")
                updates[key] = value
            elif key == "confidence":
                number = float(value)
                if not math.isfinite(number) or not 0.0 <= number <= 1.0:
                    raise ValueError("confidence outside 0..1")
                updates[key] = number
            elif key in _TIME_KEYS:
                updates[key] = _parse_time(value)
            elif key in _LIST_KEYS:
                updates[key] = _parse_list(value)
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            log.warning("%s: front matter %s ignored (%s); default used", source, key, exc)
    meta = replace(meta, **updates)  # type: ignore[arg-type]
    return Entry(meta, body, format=version)
