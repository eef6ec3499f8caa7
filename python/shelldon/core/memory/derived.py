"""What the pet derived from an entry: the facts its reflection wrote after the turn that wrote it.

A reflection runs after a turn of real work (core.learning.service) and writes under the audit unit
"reflect-<turn id>", beside the turn's own "turn-<turn id>". A fact it wrote then may restate the
owner's words ("For 'I work as a nurse at …', …"), so when the owner forgets an entry, or undoes
the turn, what was derived from it goes too (core.commands): the owner's words never outlive
their entry in a fact the pet inferred. Read from the audit log alone: no new field on an entry,
nothing for an older tree to migrate.

Only what the pet wrote is followed: an owner entry is never removed because it came later.
"""

from __future__ import annotations

from collections.abc import Iterable

from shelldon.core.memory.audit import AuditRecord

TURN_UNIT = "turn-"
REFLECT_UNIT = "reflect-"
_WROTE = frozenset({"create", "update"})


def reflect_unit_of(turn_unit: str) -> str | None:
    """ "turn-<id>" → "reflect-<id>"; None for any other unit."""
    if not turn_unit.startswith(TURN_UNIT):
        return None
    return REFLECT_UNIT + turn_unit[len(TURN_UNIT) :]


def turn_unit_of(reflect_unit: str) -> str | None:
    """ "reflect-<id>" → "turn-<id>"; None for any other unit."""
    if not reflect_unit.startswith(REFLECT_UNIT):
        return None
    return TURN_UNIT + reflect_unit[len(REFLECT_UNIT) :]


def derived_targets(records: Iterable[AuditRecord], target: str) -> list[str]:
    """The entries ("facts/x.md") a reflection wrote, not the owner, after a turn that wrote
    `target`, newest last; `target` itself never."""
    rows = list(records)
    reflects = {
        unit
        for r in rows
        if r.target == target and r.action in _WROTE and (unit := reflect_unit_of(r.unit))
    }
    found: list[str] = []
    for r in rows:
        if (
            r.unit in reflects
            and r.action in _WROTE
            and r.target
            and r.target != target
            and r.provenance != "owner"
            and r.target not in found
        ):
            found.append(r.target)
    return found
