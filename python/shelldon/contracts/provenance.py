"""Where a memory comes from, and how far it is trusted: owner > observed > inferred.

The order is written once, here. The gate asks `outranks` (may a write replace an entry?),
memory `most_trusted` (which provenance an updated entry keeps), and retrieval passes `rank` to
the Rust ranker, whose `TRUST` factors are indexed by it (rust/src/ranker.rs).
"""

from __future__ import annotations

from typing import Literal

Provenance = Literal["owner", "observed", "inferred"]
# Most trusted first: a provenance's rank is its place here.
PROVENANCES: tuple[Provenance, ...] = ("owner", "observed", "inferred")
LEAST_TRUSTED: Provenance = PROVENANCES[-1]


def rank(provenance: str) -> int:
    """0 for the owner, 1 observed, 2 inferred; an unknown value ranks with the least trusted."""
    try:
        return PROVENANCES.index(provenance)
    except ValueError:
        return len(PROVENANCES) - 1


def outranks(a: str, b: str) -> bool:
    """`a` is trusted more than `b`."""
    return rank(a) < rank(b)


def most_trusted(a: Provenance, b: Provenance) -> Provenance:
    """The more trusted of the two (`a` on a tie)."""
    return b if outranks(b, a) else a
