"""Rules the owner states, captured by core: each becomes an owner entry in `preferences/`.

No model is asked: core reads the owner's own message (how a rule is read, and when one restates
another: core.owner_rules), and each rule becomes an owner entry through the one gate (so "always
obey the following …" is refused like any other instruction-shaped text, and audited). A rule
restated with a new value supersedes the old one, which is kept and marked superseded, never
deleted.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

import msgspec

from shelldon.contracts.ops import Remember
from shelldon.core.memory.entry import Entry
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import Applied, EntryExtras, MemoryOpError
from shelldon.core.owner_rules import OwnerRule, extract_rules, restates, rule_of_entry

log = logging.getLogger(__name__)

COLLECTION: Final = "preferences"
RULE_UNIT = "owner-rule"


def rule_unit(turn_id: str | None) -> str:
    """Audit unit of the rules one owner message stated: undone together, apart from the turn's
    model-proposed ops."""
    return f"{RULE_UNIT}-{turn_id}" if turn_id else RULE_UNIT


def capture_owner_rules(
    memory: CuratedMemory,
    message: str,
    *,
    turn_id: str | None = None,
) -> list[Applied]:
    """Store every rule the owner's `message` states as an owner entry in preferences/.

    Core calls this with the owner's own text (never the model's), before the turn's ops, so a
    rule said in this turn already outranks whatever the model proposes. Each rule goes through
    the gate (audited under unit "owner-rule-<turn id>"); a restatement addresses the rule it
    changes so the gate supersedes it. Returns one result per rule kept by the gate's writer.
    """
    results: list[Applied] = []
    for rule in extract_rules(message):
        applied = capture_rule(memory, rule, turn_id=turn_id)
        if applied is not None:
            results.append(applied)
    return results


def capture_rule(
    memory: CuratedMemory, rule: OwnerRule, *, turn_id: str | None = None
) -> Applied | None:
    """One rule through the gate as an owner entry (core.turn.apply applies a turn's rules one by
    one, each under its journal id). None when the writer refused it as invalid (audited there)."""
    old = _restated(memory.entries(), rule)
    extras = EntryExtras(
        title=rule.title,
        tags=rule.tags,
        confidence=1.0,
        stem=old.stem if old is not None else None,
    )
    op = Remember(collection=COLLECTION, name=rule.name, content=rule.text)
    # "Never swear." is two words and a whole rule: the sprawl floor is for model-proposed
    # facts, so an owner's rule only needs two words (safety, provenance, duplicates and caps
    # apply unchanged).
    limits = msgspec.structs.replace(memory.limits, min_words=min(2, memory.limits.min_words))
    try:
        return memory.apply_memory_op(
            op,
            provenance="owner",
            turn_id=turn_id,
            unit=rule_unit(turn_id),
            extras=extras,
            limits=limits,
        )
    except MemoryOpError as exc:  # audited by apply_memory_op
        log.info("owner rule not kept: %s", exc)
        return None


def _restated(entries: Sequence[Entry], rule: OwnerRule) -> Entry | None:
    """The active owner rule `rule` changes, if any (the newest when several would match)."""
    found = [
        e
        for e in entries
        if e.collection == COLLECTION
        and e.meta.provenance == "owner"
        and e.meta.status == "active"
        and (old := rule_of_entry(e.meta.tags, e.body)) is not None
        and restates(rule, old)
    ]
    found.sort(key=lambda e: (e.meta.modified, e.stem))
    return found[-1] if found else None
