"""Every reason code a decision about a write can carry: one closed vocabulary.

The gate, the turn's applier, the dream, the reflection, the storage checks and the audit log all
name why they did what they did with one of these. Tests and the audit key on the codes; the
prose beside them is for people. A new code goes here, and mypy then finds every place that
spells one that is not.
"""

from __future__ import annotations

from typing import Literal, cast, get_args

ReasonCode = Literal[
    "",
    "already_resolved",
    "apply_failed",
    "archived",
    "bad_merge",
    "cap",
    "captured",
    "collection_full",
    "confirmed",
    "consolidated",
    "created",
    "dream_only",
    "duplicate",
    "empty",
    "forgotten",
    "improved",
    "index_full",
    "instruction",
    "invalid",
    "lower_provenance",
    "malformed",
    "merge_too_small",
    "merged",
    "near_duplicate",
    "not_found",
    "not_in_dream",
    "not_pending",
    "op_cap",
    "over_cap",
    "owner_corrected",
    "owner_entry",
    "owner_protected",
    "owner_restated",
    "parser_dropped",
    "past",
    "promoted",
    "promotion_without_write",
    "pruned",
    "recorded",
    "refused",
    "reminder",
    "repeat",
    "retired",
    "revised",
    "secret",
    "store_unavailable",
    "superseded",
    "token_cap",
    "too_far",
    "too_long",
    "too_many_ops",
    "too_short",
    "torn",
    "torn_entry",
    "undo",
    "unknown",
    "unknown_entry",
    "unknown_id",
    "unknown_op",
    "unknown_zone",
    "value_updated",
    "write_failed",
]

REASON_CODES: frozenset[str] = frozenset(get_args(ReasonCode))


def reason_code(text: str) -> ReasonCode:
    """A code read back from a record (the audit log, the journal): an unknown one is kept as
    "unknown" rather than trusted as a member of the vocabulary."""
    return cast(ReasonCode, text) if text in REASON_CODES else "unknown"
