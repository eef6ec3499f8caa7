"""Making room in a full collection instead of refusing: the policy, pure (no I/O).

The spec caps each kind (40 active entries) and the index, and the caps stay. A pet that stops
learning after its fortieth fact is not what a person expects, so when the gate answers
`collection_full` (or `index_full`) the write path (`core.memory.writer`) makes room, in order:

1. **route**: a model's fact that is plainly about a person ("Ana's sister…", "my mother…")
   goes to `people/`, one that says what someone likes to `preferences/`, so a full `facts/` is
   not where everything stops (`route`; the routed write makes room there in turn). The model's
   own choice stands while its collection has room;
2. **consolidate**: the new fact is folded into the most related entry of the same kind and
   provenance (`consolidation_target`), when the two share enough words and the merged text
   stays short enough to be shown in full;
3. **retire**: the stalest inferred entry that is low-trust and was never confirmed again is
   moved to the archive (`retirement_candidate`). Owner and observed entries are never retired
   automatically;
4. **archive the fact itself** when nothing can go: it is kept in the archive (retired), where
   `memory list --all`, the archive search and undo still reach it. Nothing refused for room
   vanishes without a trace.

"Never recalled" is read as "never confirmed again since written": the worker's reads are
read-only by design and leave no trace a later write could count, and a per-turn write of what
was shown would cost the storage budget per turn. An entry the conversation comes back to is
confirmed (a duplicate or a near duplicate moves `last_confirmed`), and consolidation confirms
the entry it grows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from shelldon._native import similarity_batch
from shelldon.core.memory.entry import Entry

# Word-set similarity (Dice over content tokens, the gate's measure) from which a new fact is
# "about the same thing" as an entry and folds into it. Below the gate's near duplicate (0.75):
# these are two facts, kept side by side in one entry.
RELATED = 0.3
# A consolidated entry stays small enough for four of them to be shown in full (3,000
# characters, core.retrieval.rank), with room for the title line.
CONSOLIDATED_MAX_CHARS = 700
# Retirement spares anything at least this sure (an inference starts at 0.5; observed 0.8).
LOW_TRUST = 0.8
OWNER_RULE_TAG = "owner-rule"

# Reason codes of the audit lines making room writes.
CONSOLIDATED: Final = "consolidated"
RETIRED: Final = "retired"
ARCHIVED: Final = "archived"

_RELATION = re.compile(
    r"\b(?:sister|brother|sibling|mother|mom|mum|father|dad|parents?|wife|husband|partner|"
    r"girlfriend|boyfriend|fianc[eé]e?|son|daughter|kids?|children|child|baby|grand(?:ma|pa|"
    r"mother|father|parents?|kids?|children|son|daughter)|aunt|uncle|cousin|niece|nephew|"
    r"friends?|colleagues?|coworkers?|boss|neighbou?rs?|roommates?|mentor)s?\b",
    re.IGNORECASE,
)
_LIKING = re.compile(
    r"\b(?:likes?|loves?|enjoys?|prefers?|favou?rites?|hates?|dislikes?|(?:a |big )?fan of|"
    r"passionate about)\b",
    re.IGNORECASE,
)


def route(collection: str, body: str) -> str:
    """The kind a model's fact belongs to. Only `facts` is re-routed (the model's catch-all):
    a person's relation to someone makes it a `people` entry, a liking a `preferences` one."""
    if collection != "facts":
        return collection
    if _RELATION.search(body):
        return "people"
    if _LIKING.search(body):
        return "preferences"
    return collection


def _spared(entry: Entry) -> bool:
    return entry.meta.provenance == "owner" or OWNER_RULE_TAG in entry.meta.tags


def consolidation_target(
    body: str, provenance: str, entries: Sequence[Entry], collection: str
) -> Entry | None:
    """The active entry of `collection` a new fact folds into: same provenance (never the
    owner's), related (similarity at least RELATED), and the merged text still short. The most
    related wins; ties by stem."""
    pool = [
        e
        for e in entries
        if e.collection == collection
        and not e.archived
        and e.meta.status == "active"
        and e.meta.provenance == provenance
        and not _spared(e)
        and len(e.body.strip()) + len(body.strip()) + 1 <= CONSOLIDATED_MAX_CHARS
    ]
    if not pool:
        return None
    scores = similarity_batch(body, [e.body for e in pool])
    # The highest score, then the alphabetically first stem. The key holds the stem itself: a
    # tuple built from it per candidate (the negated letters, as before) was resized from ten
    # slots to the stem's length, and CPython keeps each freed one on the free list of its
    # size, which only an exact-size tuple takes back: ~2,000 a size, 1.3 MB of core kept
    # over a 2,500-turn soak (docs/performance.md, "The free lists a key filled").
    best = min(
        ((s.score, e) for s, e in zip(scores, pool, strict=True) if s.score >= RELATED),
        key=lambda pair: (-pair[0], pair[1].stem),
        default=None,
    )
    return best[1] if best else None


def consolidated_body(old: str, new: str) -> str:
    """The entry's text with the new fact after it, one fact per line."""
    return f"{old.rstrip()}\n{new.strip()}"


def retirement_candidate(entries: Sequence[Entry], collection: str) -> Entry | None:
    """The entry of `collection` that goes to the archive to make room: inferred, low-trust and
    never confirmed again, the stalest first (oldest `last_confirmed`, then the least sure, then
    by stem). None when every entry is the owner's, observed, sure or confirmed."""
    pool = [
        e
        for e in entries
        if e.collection == collection
        and not e.archived
        and e.meta.status == "active"
        and e.meta.provenance == "inferred"
        and not _spared(e)
        and e.meta.confidence < LOW_TRUST
        and _never_confirmed(e)
    ]
    if not pool:
        return None
    return min(pool, key=lambda e: (e.meta.last_confirmed, e.meta.confidence, e.stem))


def _never_confirmed(entry: Entry) -> bool:
    confirmed, created = entry.meta.last_confirmed, entry.meta.created
    return not confirmed or not created or confirmed <= created
