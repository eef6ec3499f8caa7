"""What a reflection keeps: the proposed facts of one turn's digest, through the one gate.

Shared by the pet (core.learning.service, after a turn of real work) and the agent face
(`memory_reflect`). Whoever proposed them, at most `MAX_FACTS` are taken and each is decided by
the gate, all under one audit unit, so the whole reflection is undone at once. Each fact is:

- `observed` when it names (`observed_from`) a command the digest holds with a known exit code:
  a command the host saw run, a reminder that fired, a tool's result. Otherwise `inferred`: the
  model's inference stays an inference.
- tagged "unverified" when the turn ended unverified (`Digest.verified is False`): kept, but
  retrieval weighs it under every confirmed entry (rust/src/ranker.rs, UNVERIFIED_FACTOR); a
  later confirmed write of the same fact drops the mark.
- one use of its procedure (`procedure`) in the skills ledger (core.learning.skills): proven in two
  verified turns, it becomes a skill. The use keeps the fact's text only when the gate kept the
  fact (a refused secret is kept nowhere), and a key the safety screen refuses notes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shelldon.clock import iso, utc_now
from shelldon.contracts.digest import MAX_FACTS, Digest, ProposedFact
from shelldon.contracts.ops import Remember
from shelldon.contracts.provenance import Provenance
from shelldon.core import gate
from shelldon.core.learning.skills import SkillBook, Use
from shelldon.core.memory.entry import UNVERIFIED_TAG
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras, MemoryOpError
from shelldon.core.reasons import ReasonCode

MAX_EXISTING = 40  # entry titles a digest shows (what memory already holds)


@dataclass(frozen=True)
class FactVerdict:
    name: str
    action: str
    reason_code: ReasonCode
    reason: str
    stem: str | None = None
    provenance: str = "inferred"


@dataclass(frozen=True)
class Reflection:
    unit: str
    verdicts: tuple[FactVerdict, ...]
    promoted: tuple[str, ...] = ()  # skills this reflection proved

    @property
    def kept(self) -> int:
        return sum(v.action in ("create", "update") for v in self.verdicts)

    def render(self, scope: str = "project") -> str:
        if not self.verdicts:
            return "nothing proposed from this digest"
        lines = [
            f"{v.name}: {v.action} ({v.reason_code}) {v.reason}"
            + (
                f" [{scope}:{v.stem}; {v.provenance}]"
                if v.stem and v.action in ("create", "update")
                else ""
            )
            for v in self.verdicts
        ]
        lines.append(f"{self.kept} of {len(self.verdicts)} kept [unit {self.unit}]")
        lines += [f"skill promoted: {name}" for name in self.promoted]
        return "\n".join(lines)


def provenance_of(fact: ProposedFact, digest: Digest) -> Provenance:
    """`observed` when the fact names a command the digest holds with a known exit code."""
    cited = fact.observed_from.strip()
    if cited and any(
        c.command.strip() == cited and c.exit_code is not None for c in digest.commands
    ):
        return "observed"
    return "inferred"


def existing_titles(memory: CuratedMemory) -> tuple[str, ...]:
    """What memory already holds, as a digest lists it: "<collection>/<stem>: <title>"."""
    out: list[str] = []
    for e in memory.entries():
        if e.meta.status == "superseded":
            continue
        title = " ".join((e.meta.title or e.body.strip().split("\n")[0]).split())[:80]
        out.append(f"{e.collection}/{e.stem}: {title}")
    return tuple(out[:MAX_EXISTING])


def apply_reflection(
    memory: CuratedMemory,
    digest: Digest,
    facts: Sequence[ProposedFact],
    *,
    unit: str,
    skills: SkillBook | None = None,
) -> Reflection:
    """Let the gate decide each proposed fact (at most MAX_FACTS), all under the audit `unit`."""
    unverified = digest.verified is False
    verdicts: list[FactVerdict] = []
    promoted: list[str] = []
    for index, fact in enumerate(facts):
        if index >= MAX_FACTS:
            verdicts.append(
                FactVerdict(fact.name, "reject", "over_cap", f"past the {MAX_FACTS}-fact cap")
            )
            continue
        provenance = provenance_of(fact, digest)
        op = Remember(
            collection=fact.collection,
            name=fact.name,
            content=fact.content,
            depends_on=fact.depends_on,
        )
        try:
            applied = memory.apply_memory_op(
                op,
                provenance=provenance,
                unit=unit,
                extras=EntryExtras(tags=(UNVERIFIED_TAG,) if unverified else ()),
            )
        except MemoryOpError as exc:
            verdicts.append(FactVerdict(fact.name, "reject", "invalid", str(exc)))
            continue
        kept = applied.action in ("create", "update") or applied.reason_code in (
            gate.DUPLICATE,
            gate.NEAR_DUPLICATE,
        )
        stem = f"{fact.collection}/{applied.stem}" if applied.stem else None
        verdicts.append(
            FactVerdict(
                fact.name, applied.action, applied.reason_code, applied.reason, stem, provenance
            )
        )
        # The ledger keeps a use's text only when the gate kept the fact: a refused fact's text
        # (a secret, an instruction) is kept nowhere, and a key that is itself unsafe no use.
        if (
            skills is not None
            and fact.procedure.strip()
            and gate.screen_text(fact.procedure) is None
        ):
            use = Use(
                unit=unit,
                at=iso(utc_now()),
                verified=digest.verified is True and kept,
                entry=stem or "",
                content=fact.content if kept else "",
            )
            skill = skills.note(fact.procedure, use)
            if skill is not None:
                promoted.append(f"{skill.name} -> {skill.promoted}")
    return Reflection(unit, tuple(verdicts), tuple(promoted))
