"""The gate's vocabulary: what a write proposes (`Candidate`), what is stored (`ExistingEntry`),
the thresholds (`Limits`), and the answer (`Decision`) with its reason codes and flags."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from shelldon.contracts.provenance import Provenance
from shelldon.core.reasons import ReasonCode

Action = Literal["create", "update", "skip", "reject"]
Status = Literal["active", "superseded", "retired"]

# Reason codes, one per branch. The audit log and tests key on these; the prose is for people.
SECRET: Final = "secret"
INSTRUCTION: Final = "instruction"
TOO_SHORT: Final = "too_short"
TOO_LONG: Final = "too_long"
BAD_MERGE: Final = "bad_merge"
OWNER_PROTECTED: Final = "owner_protected"
LOWER_PROVENANCE: Final = "lower_provenance"
DUPLICATE: Final = "duplicate"
NEAR_DUPLICATE: Final = "near_duplicate"
COLLECTION_FULL: Final = "collection_full"
INDEX_FULL: Final = "index_full"
CREATED: Final = "created"
MERGED: Final = "merged"
OWNER_RESTATED: Final = "owner_restated"
REVISED: Final = "revised"
IMPROVED: Final = "improved"
CONFIRMED: Final = "confirmed"
VALUE_UPDATED: Final = "value_updated"

# Flags (Decision.flags): hints for the caller beyond the action.
FLAG_COLLECTION_FULL = "collection_full"
FLAG_INDEX_FULL = "index_full"


class Candidate(msgspec.Struct, frozen=True, kw_only=True):
    """A proposed write.

    `stem` names an existing entry when the writer addresses one (a Remember op's name, a CLI
    edit); None lets the gate find the entry it repeats, if any. `merges` says "this consolidates
    entries X, Y" (stems in the same collection): they are superseded by the new entry, and a merge
    that does not grow the collection passes the cap.
    """

    collection: str
    title: str
    body: str
    provenance: Provenance = "inferred"
    stem: str | None = None
    merges: tuple[str, ...] = ()
    confidence: float | None = None
    # The owner's own words this write came from (the owner turn's message), if any: the one
    # source a write below the owner may take the owner's or the pet's name from.
    heard: str = ""


class ExistingEntry(msgspec.Struct, frozen=True, kw_only=True):
    """The gate's view of a stored entry (core.memory builds it from shelldon.core.memory.entry)."""

    stem: str
    collection: str
    title: str
    body: str
    provenance: Provenance = "inferred"
    status: Status = "active"
    confidence: float | None = None


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The gate's thresholds. The defaults are the project's; tests and the dream narrow them."""

    min_words: int = 3
    # Four entries share 3,000 characters in the prompt: one entry may take at most half of that.
    max_body_chars: int = 1500
    max_title_chars: int = 120
    collection_cap: int = 40
    # A full collection keeps a new inference in its archive (core.memory.room) only while the
    # archive holds fewer than this: past it, the write is refused (`collection_full`). What the
    # owner said is always kept. Without it a writer in a loop (a coding agent's memory_write)
    # grew the archive and every later write's cost without end.
    archive_cap: int = 400
    # Dice similarity of content tokens at or above which two texts state the same fact.
    near_duplicate: float = 0.75
    # Two texts whose only difference is a swapped value (a veto fired, at most
    # `contradiction_swaps` content words differ each way) from this similarity up state the
    # same subject with different values: "always reply in English" / "... in French".
    contradiction: float = 0.5
    contradiction_swaps: int = 2
    # Collections where owner rules live: there a restated rule with a new value supersedes.
    rule_collections: tuple[str, ...] = ("preferences",)
    index_max_lines: int = 200
    index_max_bytes: int = 25_000
    # MEMORY.md (core.memory.index): a 4-line header, a "… N more" line when cut, and per entry
    # "- [title](collection/stem.md) — provenance, YYYY-MM-DD": about 40 bytes around the names.
    index_reserved_lines: int = 6
    index_reserved_bytes: int = 300
    index_line_overhead: int = 40


DEFAULT_LIMITS = Limits()


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """What to do with a candidate, and why.

    `target` is the stem the action applies to: the entry to update, the duplicate that made
    the candidate redundant, or the owner entry a refused write would have revised; None for a
    create (the caller names new entries and must not reuse a
    stem listed in `supersedes`). `supersedes` lists stems the caller marks superseded (kept).
    `rule_ids` names the safety rules that fired, for the audit log.
    """

    action: Action
    reason_code: ReasonCode
    reason: str
    target: str | None = None
    supersedes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()
