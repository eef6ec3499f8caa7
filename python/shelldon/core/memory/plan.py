"""A memory write before and after: the op validated and resolved to its target file (before any
disk access), what a writer adds to it, and what the writer reports back.

Write targets are a closed set: `about.md`, `summary.md`, `episodes.md` (fixed names in the root)
and `<collection>/<stem>.md` whose parent must be the collection directory. `DIRECTIVE.md` is
named nowhere here: no op and no name can reach it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from shelldon import _native
from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    MAX_DEPENDS_ON,
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
MAX_TAG_CHARS = 64
MAX_PATH_CHARS = 200  # a `depends_on` path (contracts.ops.DependedPath)


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
    # The owner's words the write came from (the gate's Candidate.heard): an owner turn's message.
    heard: str = ""


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
            _checked_text(tag, "tag", max_chars=MAX_TAG_CHARS)
        return PlannedWrite(op, "append", root / "episodes.md", content, prov, turn_id)
    if isinstance(op, Remember):
        if not isinstance(op.collection, str) or op.collection not in COLLECTION_NAMES:
            raise MemoryOpError("remember: unknown collection")
        name = _checked_text(op.name, "name", max_chars=MAX_NAME_CHARS)
        content = _checked_text(op.content, "content")
        check_depends_on(op.depends_on)
        if prov != "owner":
            disguise = disguised_name(name)
            if disguise is not None:
                raise MemoryOpError(f"remember: name {disguise}")
            if (hidden := hidden_characters(content)) is not None:
                raise MemoryOpError(f"remember: content {hidden}")
        try:
            stem = _native.filename_stem(name)
        except ValueError:
            raise MemoryOpError("remember: name has no usable filename characters") from None
        if stem.casefold() in _DEVICE_NAMES:
            raise MemoryOpError(
                f"remember: name {stem!r} is a device name Windows reserves (a copy of the "
                "memory tree there could not hold it): pick another"
            )
        directory = collection_dir(root, op.collection)
        target = directory / f"{stem}.md"
        # Belt and braces: the stem cannot contain a separator, and this makes it structural.
        if target.parent != directory or target.name.casefold() == "directive.md":
            raise MemoryOpError("remember: target escapes its collection")
        return PlannedWrite(
            op, "replace", target, content, prov, turn_id, collection=op.collection, stem=stem
        )
    raise MemoryOpError(f"not a memory op: {type(op).__name__}")


# Names Windows keeps for devices, whatever the extension ("con.md" is CON there): an entry so
# named could not be copied off the card to a Windows machine or a share it mounts. The fourth red
# team round (docs/gate-design.md) found "con", "nul", "COM1" and "lpt9" stored as entries.
_DEVICE_NAMES = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in "0123456789\u00b9\u00b2\u00b3"]
)

_SEPARATORS = re.compile(r"[\W_]+")


def entry_key(stem: str) -> str:
    """What names one entry in a collection: the stem case-folded, every run of separators
    (spaces, "-", "_", punctuation) as one. "Build-Notes", "build notes" and "build_notes" are
    one entry (docs/agents.md, "Names that differ only by case or separators")."""
    return _SEPARATORS.sub("-", stem.casefold()).strip("-")


_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")  # the scripts whose letters pass for each other
_WORD = re.compile(r"[^\W\d_]+")


def disguised_name(name: str) -> str | None:
    """Why `name` would show as another name, or None. An entry's name is its stem and its
    title, shown side by side with the owner's in every listing: a writer below the owner may
    not pick one that reads as something it is not. Four ways: an invisible formatting
    character (a bidi override, a zero-width joiner), a letter or digit in a compatibility form
    (fullwidth "Ｆｏｏ", the ligature "ﬁ": the stem keeps them, NFC, so "Ｆｏｏ" and "foo" were
    two entries that read alike), a phonetic letter or small capital ("ᴅocs"), and one word
    written in two of Latin, Greek and Cyrillic (Greek omicrons in "fοο")."""
    for c in name:
        if unicodedata.category(c) == "Cf":
            return f"holds an invisible formatting character (U+{ord(c):04X})"
        if c.isalnum() and unicodedata.normalize("NFKC", c) != c:
            return f"holds {c!r}, a compatibility form of {unicodedata.normalize('NFKC', c)!r}"
        if c.isalpha() and _phonetic(c):
            return f"holds {c!r}, a phonetic letter that reads as an ordinary one"
    for word in _WORD.findall(name):
        scripts = {unicodedata.name(c, "").partition(" ")[0] for c in word}
        mixed = sorted(scripts.intersection(_SCRIPTS))
        if len(mixed) > 1:
            return f"mixes {' and '.join(s.title() for s in mixed)} letters in {word!r}"
    return None


# Characters that spell text no reader sees ("ASCII smuggling"): Unicode tag characters outside
# an emoji's tag sequence (the flag of Scotland is U+1F3F4, tags, U+E007F), runs of variation
# selectors (a byte each), a variation selector on a letter, and the standalone Hangul fillers.
_EMOJI_TAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
_TAG = re.compile("[\U000e0000-\U000e007f]")
_SELECTOR = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_SELECTOR_RUN = re.compile(f"[{_SELECTOR}]{{2,}}|[^\\W\\d_][{_SELECTOR}]")
_FILLERS = re.compile("[\u3164\uffa0]")


def hidden_characters(text: str) -> str | None:
    """Why `text` carries text no reader sees, or None. A writer below the owner may not store
    it: a model reads what a person reviewing the memory cannot (tags spell ASCII, variation
    selectors a byte each), and the gate's checks read the visible letters. An ideographic
    variation selector after a Han character and an emoji's presentation selector (❤️, ℹ️) stay."""
    if text.isascii():
        return None
    if _TAG.search(_EMOJI_TAG_SEQUENCE.sub("", text)):
        return "holds Unicode tag characters (invisible text)"
    if any(not _on_a_symbol(m.group(0)) for m in _SELECTOR_RUN.finditer(text)):
        return "holds variation selectors that carry no visible character (invisible text)"
    if _FILLERS.search(text):
        return "holds a Hangul filler (an invisible letter)"
    return None


def _on_a_symbol(match: str) -> bool:
    """One selector after a letter of no alphabet words are spelt in here: a Han variant glyph
    ("葛󠄀"), a letter-like emoji ("ℹ️"). After a Latin, Greek or Cyrillic letter it spells
    nothing anyone sees."""
    return len(match) == 2 and unicodedata.name(match[0], "").partition(" ")[0] not in _SCRIPTS


def _phonetic(c: str) -> bool:
    """A letter of the phonetic extensions, a small capital or a script form ("ᴅocs", "ʀelease",
    "ɡit" read as "docs", "release", "git"). The IPA letters that orthographies use (Azerbaijani
    ə, the ɛ and ɔ of Ewe or Lingala) are letters, not disguises: they stay."""
    name = unicodedata.name(c, "")
    return 0x1D00 <= ord(c) <= 0x1DBF or "SMALL CAPITAL" in name or "LETTER SCRIPT" in name


def check_depends_on(paths: object) -> None:
    """At most MAX_DEPENDS_ON paths, each a line of at most MAX_PATH_CHARS: the bound an op's
    schema states, held for every writer (an op built in code skips msgspec's checks, and the
    agent face and the CLI pass their paths as extras). An entry's front matter lists them all,
    so an unbounded list made an entry the reader will not load (over its 1 MB) and took minutes
    to screen. Raises MemoryOpError."""
    if not isinstance(paths, tuple | list):
        raise MemoryOpError("depends_on must be a list of paths")
    if len(paths) > MAX_DEPENDS_ON:
        raise MemoryOpError(f"depends_on: at most {MAX_DEPENDS_ON} files ({len(paths)} given)")
    for path in paths:
        text = _checked_text(path, "depends_on path", max_chars=MAX_PATH_CHARS)
        if any(ord(c) < 0x20 for c in text):
            raise MemoryOpError("depends_on path contains a control character")
        if (hidden := hidden_characters(text)) is not None:  # a path is never invisible text
            raise MemoryOpError(f"depends_on path {hidden}")


def check_extras(extras: EntryExtras) -> None:
    """The bounds of what a writer adds to an op (tags, depends_on). Raises MemoryOpError."""
    if not isinstance(extras.tags, tuple | list) or len(extras.tags) > MAX_TAGS:
        raise MemoryOpError(f"tags must be at most {MAX_TAGS} strings")
    for tag in extras.tags:
        if hidden := hidden_characters(_checked_text(tag, "tag", max_chars=MAX_TAG_CHARS)):
            raise MemoryOpError(f"tag {hidden}")
    check_depends_on(extras.depends_on)


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
