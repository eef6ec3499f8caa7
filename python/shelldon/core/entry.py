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
    ---
    the body, markdown

Scalars are `key: value` on one line; lists are JSON arrays of strings. Parsing is tolerant:
a file without front matter, or with a block that does not parse, is read with defaults and
provenance `inferred` (the least trusted), logged, never raised. A single bad value falls back
to that field's default. Unknown keys are ignored so older code reads newer files.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field, replace
from typing import Literal

from shelldon.clock import parse_iso
from shelldon.contracts.provenance import PROVENANCES, Provenance

log = logging.getLogger(__name__)

Status = Literal["active", "superseded"]
STATUSES: tuple[Status, ...] = ("active", "superseded")
FENCE = "---"
DEFAULT_CONFIDENCE = 0.5

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


def parse_entry(text: str, *, source: str = "<entry>") -> Entry:
    """Parse an entry; never raises on content. `source` only names the file in log lines."""
    split = _split(text)
    if split is None:
        if text.startswith(FENCE):
            log.warning("%s: front matter not closed; read as inferred with defaults", source)
        return Entry(EntryMeta(), text, defaulted=True)
    block, body = split
    raw: dict[str, str] = {}
    for line in block:
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            log.warning("%s: front matter line unparseable; read as inferred with defaults", source)
            return Entry(EntryMeta(), body, defaulted=True)
        raw[key.strip()] = value.strip()
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
    return Entry(meta, body)
