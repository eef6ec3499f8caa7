"""Which curated entries a turn's prompt carries, and how: ranked retrieval within a fixed budget.

The Rust `Ranker` orders every active entry against the turn (shared words over title, tags and
body; shared file paths; times trust, recency, confidence and staleness; ties by id). Then:

- up to `FULL_MAX` (4) entries in full, within `FULL_BUDGET_CHARS` (3,000) characters, taken in
  rank order among entries that share something with the turn or that the owner stated (an
  owner's rule applies to every turn); an entry that does not fit the remaining budget is listed
  by title instead and the next one is tried;
- the next `TITLE_MAX` (12) by title;
- the rest counted, in words, so the prompt never silently drops anything.

A turn that asks about the owner as a whole ("what do you know about me?") shares no word with
any entry, so it is read as asking about "owner", the word entries about the owner hold; one that
asks what the owner likes of a kind ("what do I like to drink?") is also ranked by the kind's
everyday words (contracts.kinds).

An entry learnt from a turn that ended unverified (tagged "unverified", core.learning.reflection)
comes after every confirmed entry, whatever its score. Superseded entries are never offered. The
worker calls `select_entries` while assembling the prompt; it only reads (the depended-on files'
mtimes for staleness).

Two scopes (a project's memory beside the global one, `core.retrieval.scopes`) are ranked together
in one call: `scopes` labels each entry, its id becomes "<scope>:<collection>/<stem>", and each
scope's relative `depends_on` paths resolve from its own base. Nothing else changes: trust, not
scope, orders them, so a project's rule outranks a global inference and a global rule a project's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from shelldon._native import RankEntry, Ranker
from shelldon.clock import parse_iso
from shelldon.contracts.provenance import rank
from shelldon.core.memory.entry import UNVERIFIED_TAG, Entry
from shelldon.core.retrieval.query import query_tokens
from shelldon.core.words import tokens

FULL_MAX = 4
FULL_BUDGET_CHARS = 3000
TITLE_MAX = 12

# A path-looking token in the owner's words: has a slash, or ends in a short extension.
_PATH = re.compile(r"(?<![\w/.~-])(?:[~.]?[\w.-]*/)*[\w-]+(?:/|\.[A-Za-z0-9]{1,8})(?![\w/])")


def paths_in(text: str) -> list[str]:
    """File paths named in free text ("src/main.rs", "notes.md"), normalised."""
    return sorted({normalise_path(m) for m in _PATH.findall(text)} - {""})


def normalise_path(path: str) -> str:
    path = path.strip()
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


@dataclass(frozen=True)
class Shown:
    """An entry as the prompt shows it."""

    id: str
    collection: str
    title: str
    body: str
    provenance: str
    confidence: float
    score: float
    relevance: float
    stale_files: tuple[str, ...] = ()
    scope: str = ""  # "project" / "global" when two scopes were ranked together, else ""
    unverified: bool = False  # learnt from a turn that ended unverified

    @property
    def stale(self) -> bool:
        return bool(self.stale_files)

    def label(self) -> str:
        note = f"{self.provenance}, confidence {self.confidence:.2f}"
        if self.unverified:
            note += ", unverified"
        if self.stale_files:
            note += f"; may be stale: {', '.join(self.stale_files)} changed since last confirmed"
        return note

    def render_full(self) -> str:
        return f"### {self.title} ({self.id}; {self.label()})\n{self.body.strip()}\n"

    def render_title(self) -> str:
        stale = "; may be stale" if self.stale_files else ""
        return f"- {self.title} ({self.id}; {self.provenance}{stale})"


@dataclass(frozen=True)
class MemorySelection:
    """What the prompt carries: entries in full, entries by title, and how many were left out."""

    full: tuple[Shown, ...] = ()
    titled: tuple[Shown, ...] = ()
    rest: int = 0  # ranked but neither shown nor listed: counted in the text, never dropped
    # Every entry in rank order, only when asked for (`shelldon memory why`): a turn needs none.
    ranked: tuple[Shown, ...] = field(default=(), repr=False)

    @property
    def total(self) -> int:
        return len(self.full) + len(self.titled) + self.rest

    def render(self) -> str:
        """The prompt section's text ('' when memory holds no entries)."""
        if self.total == 0:
            return ""
        parts = [s.render_full() for s in self.full]
        if self.titled:
            heading = "Also in memory (titles only):" if self.full else "In memory (titles only):"
            parts.append("\n".join([heading, *(s.render_title() for s in self.titled)]) + "\n")
        if self.rest:
            noun = "entry" if self.rest == 1 else "entries"
            parts.append(f"{self.rest} more {noun} not shown.\n")
        return "\n".join(parts)


def stale_files(
    depends_on: Iterable[str], last_confirmed: datetime | float, base: Path | None
) -> tuple[str, ...]:
    """Depended-on files changed (or gone) since `last_confirmed` (a time or epoch seconds);
    relative paths from `base`."""
    confirmed = (
        last_confirmed.timestamp() if isinstance(last_confirmed, datetime) else last_confirmed
    )
    out: list[str] = []
    for raw in depends_on:
        path = Path(raw).expanduser()
        if not path.is_absolute():
            if base is None:
                continue
            path = base / path
        try:
            if path.stat().st_mtime > confirmed:
                out.append(raw)
        except OSError:
            out.append(raw)
    return tuple(sorted(out))


def _ts(value: datetime) -> float:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def parse_time(raw: str) -> datetime:
    """A front-matter timestamp; empty or unreadable is the epoch (oldest, and so never fresh)."""
    try:
        return parse_iso(raw)
    except ValueError:
        return datetime.fromtimestamp(0, UTC)


def entry_id(entry: Entry) -> str:
    """'<collection>/<stem>': unique in the tree, and the ranker's tie-break."""
    return f"{entry.collection}/{entry.stem}"


def entry_title(entry: Entry) -> str:
    """The front matter's title, else the body's first line, else the id."""
    if entry.meta.title.strip():
        return entry.meta.title.strip()
    for line in entry.body.splitlines():
        if line.strip():
            return line.strip().lstrip("#").strip()[:80]
    return entry_id(entry)


# The unverified mark as ranking sees it: a tag, kept among the tag terms (core.retrieval.terms).
_UNVERIFIED_TERM = tokens(UNVERIFIED_TAG)[0]


class EntryTerms(NamedTuple):
    """One active entry as ranking needs it: what the prompt shows and the stemmed terms it is
    ranked on. Core computes it once per version of the entry (core.retrieval.terms keeps them in
    history.db); a worker reads them instead of parsing and tokenising the tree every turn. A
    named tuple: a worker builds one per entry per turn, and a tuple is the cheapest record."""

    id: str
    collection: str
    title: str
    body: str
    provenance: str
    confidence: float
    updated: float  # epoch seconds: the later of modified and last_confirmed
    last_confirmed: float  # epoch seconds
    depends_on: tuple[str, ...]
    title_terms: tuple[str, ...]
    tag_terms: tuple[str, ...]
    body_terms: tuple[str, ...]
    scope: str = ""  # set when two scopes are ranked together (core.retrieval.scopes)

    @classmethod
    def of(cls, entry: Entry, scope: str = "") -> EntryTerms:
        confirmed = _ts(parse_time(entry.meta.last_confirmed))
        return cls(
            id=f"{scope}:{entry_id(entry)}" if scope else entry_id(entry),
            collection=entry.collection,
            title=entry_title(entry),
            body=entry.body,
            provenance=entry.meta.provenance,
            confidence=float(entry.meta.confidence),
            updated=max(_ts(parse_time(entry.meta.modified)), confirmed),
            last_confirmed=confirmed,
            depends_on=tuple(entry.meta.depends_on),
            title_terms=tuple(tokens(entry_title(entry))),
            tag_terms=tuple(t for tag in entry.meta.tags for t in tokens(tag)),
            body_terms=tuple(tokens(entry.body)),
            scope=scope,
        )


def active_terms(entries: Sequence[Entry], scopes: Sequence[str] | None = None) -> list[EntryTerms]:
    """The entries ranking offers (superseded ones never are), with their terms; `scopes`,
    parallel to `entries`, labels each one's scope."""
    labels = list(scopes) if scopes is not None else [""] * len(entries)
    if len(labels) != len(entries):
        raise ValueError("scopes must label every entry")
    return [
        EntryTerms.of(e, s)
        for e, s in zip(entries, labels, strict=True)
        if e.meta.status != "superseded"
    ]


def select_entries(
    entries: Sequence[Entry],
    query: str,
    now: datetime,
    *,
    paths: Sequence[str] = (),
    base: Path | None = None,
    scopes: Sequence[str] | None = None,
    scope_bases: Mapping[str, Path | None] | None = None,
    full_max: int = FULL_MAX,
    budget_chars: int = FULL_BUDGET_CHARS,
    title_max: int = TITLE_MAX,
    keep_ranked: bool = False,
) -> MemorySelection:
    """Rank `entries` against the turn's `query` (and file `paths`) and fit them to the budget.

    `base` resolves relative `depends_on` paths for the staleness check (the data root).
    `scopes`, parallel to `entries`, labels each one's scope; `scope_bases` gives a scope its own
    base (default `base`). `keep_ranked` also returns every entry in rank order.
    """
    return select_terms(
        active_terms(entries, scopes),
        query,
        now,
        paths=paths,
        base=base,
        scope_bases=scope_bases,
        keep_ranked=keep_ranked,
        full_max=full_max,
        budget_chars=budget_chars,
        title_max=title_max,
    )


def select_terms(
    active: Sequence[EntryTerms],
    query: str,
    now: datetime,
    *,
    paths: Sequence[str] = (),
    base: Path | None = None,
    scope_bases: Mapping[str, Path | None] | None = None,
    full_max: int = FULL_MAX,
    budget_chars: int = FULL_BUDGET_CHARS,
    title_max: int = TITLE_MAX,
    keep_ranked: bool = False,
) -> MemorySelection:
    """`select_entries` over terms already computed (core.retrieval.terms)."""
    if not active:
        return MemorySelection()
    bases = scope_bases or {}
    stale = [
        stale_files(e.depends_on, e.last_confirmed, bases.get(e.scope, base))
        if e.depends_on
        else ()
        for e in active
    ]
    unverified = [_UNVERIFIED_TERM in e.tag_terms for e in active]
    ranker = Ranker(
        [
            RankEntry(
                id=e.id,
                title=e.title_terms,
                tags=e.tag_terms,
                body=e.body_terms,
                paths=[normalise_path(p) for p in e.depends_on],
                trust=rank(e.provenance),
                confidence=e.confidence,
                updated=e.updated,
                stale=bool(stale[i]),
                unverified=unverified[i],
            )
            for i, e in enumerate(active)
        ]
    )
    query_paths = sorted({normalise_path(p) for p in paths} | set(paths_in(query)))
    order = ranker.rank(query_tokens(query), query_paths, _ts(now), len(active))
    # What a turn that ended unverified taught never outranks a confirmed entry: the ranker
    # weighs it down (UNVERIFIED_FACTOR), and a stable partition puts it after every confirmed one.
    order.sort(key=lambda r: unverified[r[0]])

    def shown(i: int, score: float, relevance: float) -> Shown:
        e = active[i]
        return Shown(
            id=e.id,
            collection=e.collection,
            title=e.title,
            body=e.body,
            provenance=e.provenance,
            confidence=e.confidence,
            score=score,
            relevance=relevance,
            stale_files=stale[i],
            scope=e.scope,
            unverified=unverified[i],
        )

    # Shown is built only for the entries the prompt shows or lists: the rest are counted.
    full: list[Shown] = []
    titled: list[Shown] = []
    rest = 0
    used = 0
    for i, score, relevance in order:
        if len(full) >= full_max or used >= budget_chars:
            if len(titled) < title_max:
                titled.append(shown(i, score, relevance))
            else:
                rest += 1
            continue
        entry = shown(i, score, relevance)
        eligible = relevance > 0.0 or entry.provenance == "owner"
        size = len(entry.render_full())
        if eligible and used + size <= budget_chars:
            full.append(entry)
            used += size
        elif len(titled) < title_max:
            titled.append(entry)
        else:
            rest += 1
    ranked = (
        tuple(shown(i, score, relevance) for i, score, relevance in order) if keep_ranked else ()
    )
    return MemorySelection(full=tuple(full), titled=tuple(titled), rest=rest, ranked=ranked)
