"""`memory_reflect`: a turn's digest, the facts proposed from it, and the gate's verdicts.

What a reflection proposes comes from a `Proposer` (digest, existing entries → facts). The one
given here, `facts_carried`, takes the facts the digest itself carries: the host (the coding
agent, which ran the turn) wrote them, so no model is asked. A proposer that asks the configured
provider chain to draw facts from the digest's request, commands and report plugs in through
`reflect(..., propose=...)` without changing anything else. Whichever proposes, at most
`MAX_FACTS` are taken and each goes through the one gate as an inference, in one audit unit
("reflect-…"), so the whole reflection is undone at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shelldon.contracts.digest import MAX_FACTS, Digest, ProposedFact
from shelldon.contracts.ops import Remember
from shelldon.core.entry import Entry
from shelldon.core.memory import CuratedMemory, EntryExtras, MemoryOpError

Proposer = Callable[[Digest, Sequence[Entry]], Sequence[ProposedFact]]


def facts_carried(digest: Digest, existing: Sequence[Entry]) -> Sequence[ProposedFact]:
    """The facts the digest carries, as the host wrote them."""
    return digest.facts


@dataclass(frozen=True)
class FactVerdict:
    name: str
    action: str
    reason_code: str
    reason: str
    stem: str | None = None


@dataclass(frozen=True)
class Reflection:
    unit: str
    verdicts: tuple[FactVerdict, ...]

    @property
    def kept(self) -> int:
        return sum(v.action in ("create", "update") for v in self.verdicts)

    def render(self) -> str:
        if not self.verdicts:
            return "nothing proposed from this digest"
        lines = [
            f"{v.name}: {v.action} ({v.reason_code}) {v.reason}"
            + (f" [project:{v.stem}]" if v.stem and v.action in ("create", "update") else "")
            for v in self.verdicts
        ]
        lines.append(f"{self.kept} of {len(self.verdicts)} kept [unit {self.unit}]")
        return "\n".join(lines)


def reflect(
    memory: CuratedMemory, digest: Digest, *, unit: str, propose: Proposer = facts_carried
) -> Reflection:
    """Propose facts from `digest` and let the gate decide each (at most MAX_FACTS), all under
    the audit `unit`."""
    proposed = list(propose(digest, memory.entries()))
    verdicts: list[FactVerdict] = []
    for index, fact in enumerate(proposed):
        if index >= MAX_FACTS:
            verdicts.append(
                FactVerdict(fact.name, "reject", "over_cap", f"past the {MAX_FACTS}-fact cap")
            )
            continue
        op = Remember(collection=fact.collection, name=fact.name, content=fact.content)
        try:
            applied = memory.apply_memory_op(
                op,
                provenance="inferred",
                unit=unit,
                extras=EntryExtras(depends_on=fact.depends_on),
            )
        except MemoryOpError as exc:
            verdicts.append(FactVerdict(fact.name, "reject", "invalid", str(exc)))
            continue
        stem = f"{fact.collection}/{applied.stem}" if applied.stem else None
        verdicts.append(
            FactVerdict(fact.name, applied.action, applied.reason_code, applied.reason, stem)
        )
    return Reflection(unit, tuple(verdicts))
