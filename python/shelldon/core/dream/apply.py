"""Applying a dream: every proposed op, one by one, through the gate, under caps.

Caps: ops, tokens, a stop on a run of no-ops and on a repeated op. A resolution is accepted only
for an id this dream offered; a promotion only after a write of this dream that carries the
learning's words; a learning the owner corrected is never promoted. Each decision is audited
under the dream's unit (`dream-<n>`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from shelldon.contracts.ops import (
    CaptureLearning,
    LogEpisode,
    Merge,
    OpDecodeError,
    Remember,
    ResolveLearning,
    RewriteAbout,
    RewriteSummary,
    decode_op,
    op_name,
)
from shelldon.contracts.provenance import Provenance
from shelldon.core.dream.model import DEFAULT_LIMITS, AuditFn, DreamLimits
from shelldon.core.history.store import HistoryStore
from shelldon.core.learning.pending import PendingLearning
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import Applied
from shelldon.core.reasons import ReasonCode
from shelldon.core.words import near, shares_words

log = logging.getLogger(__name__)

# A proposed op as it arrives: the JSON object the broker's reply parser kept (decoded here, each
# on its own, so one bad op never spoils the others), or an op already decoded.
RawOp = msgspec.Struct | Mapping[str, object]


@dataclass
class OpOutcome:
    index: int
    op: str
    action: str  # "create" | "update" | "skip" | "reject" | "resolved" | "refused" | "stopped"
    reason_code: ReasonCode
    reason: str
    target: str = ""


@dataclass
class DreamApplication:
    outcomes: list[OpOutcome] = field(default_factory=list)
    stopped: str = ""  # why application stopped early, "" when every op was looked at

    def count(self, *actions: str) -> int:
        return sum(1 for o in self.outcomes if o.action in actions)

    @property
    def written(self) -> int:
        return sum(
            1
            for o in self.outcomes
            if o.action in ("create", "update") and o.op not in ("resolve_learning",)
        )

    @property
    def promoted(self) -> int:
        return sum(
            1 for o in self.outcomes if o.action == "resolved" and o.target.endswith("promoted")
        )

    @property
    def pruned(self) -> int:
        return sum(
            1 for o in self.outcomes if o.action == "resolved" and o.target.endswith("pruned")
        )

    @property
    def refused(self) -> int:
        return self.count("reject", "refused")


# Memory ops the dream may propose. No log_episode (a dream is not an episode) and no
# capture_learning (a dream consumes learnings, it does not invent them).
DreamWrite = Remember | RewriteAbout | RewriteSummary
_DREAM_WRITES = (Remember, RewriteAbout, RewriteSummary)


# Gate skips that mean "an entry already says this" (core.gate's reason codes).
_ALREADY_KEPT = frozenset({"duplicate", "near_duplicate", "confirmed"})


def _op_text(op: DreamWrite) -> str:
    if isinstance(op, Remember):
        return " ".join(p for p in (op.name, op.content) if p)
    return op.content


def _decode(raw: RawOp) -> msgspec.Struct:
    if isinstance(raw, msgspec.Struct):
        return raw
    return decode_op(dict(raw))


def apply_dream(
    raw_ops: Sequence[RawOp],
    *,
    unit: str,
    offered: Mapping[int, PendingLearning],
    corrected: Iterable[int],
    memory: CuratedMemory,
    history: HistoryStore,
    audit: AuditFn,
    provenance: Provenance = "inferred",
    limits: DreamLimits = DEFAULT_LIMITS,
) -> DreamApplication:
    """Apply a dream's proposed ops in order, each on its own, under the dream's caps."""
    result = DreamApplication()
    corrected_ids = set(corrected)
    corrected_texts = [offered[i].observation for i in corrected_ids if i in offered]
    seen: set[bytes] = set()
    writes_kept: list[str] = []  # texts of this dream's accepted writes, for promotion pairing
    resolved: set[int] = set()
    tokens = 0
    noop_streak = 0

    def record(outcome: OpOutcome, *, audited: bool = True) -> None:
        result.outcomes.append(outcome)
        if audited:
            audit(
                {
                    "unit": unit,
                    "op": outcome.op,
                    "action": outcome.action,
                    "reason_code": outcome.reason_code,
                    "reason": outcome.reason,
                    "target": outcome.target,
                }
            )

    for index, raw in enumerate(raw_ops):
        if index >= limits.max_ops:
            result.stopped = f"op cap reached ({limits.max_ops} ops)"
            record(OpOutcome(index, "?", "stopped", "op_cap", result.stopped))
            break
        try:
            op = _decode(raw)
        except OpDecodeError as exc:
            record(OpOutcome(index, "?", "refused", "malformed", f"undecodable op: {exc}"[:200]))
            noop_streak += 1
            if noop_streak >= limits.max_noop_streak:
                result.stopped = f"{noop_streak} ops in a row changed nothing"
                break
            continue
        tag = op_name(op)
        encoded = msgspec.json.encode(op)
        if encoded in seen:
            record(OpOutcome(index, tag, "stopped", "repeat", "the same op twice: dream stopped"))
            result.stopped = "repeated op"
            break
        seen.add(encoded)
        tokens += len(encoded) // 4 + 1
        if tokens > limits.max_tokens:
            record(
                OpOutcome(index, tag, "stopped", "token_cap", f"token cap ({limits.max_tokens})")
            )
            result.stopped = f"token cap reached ({limits.max_tokens} tokens)"
            break

        changed = False
        if isinstance(op, ResolveLearning):
            outcome = _resolve(index, op, offered, corrected_ids, resolved, writes_kept, history)
            record(outcome)
            changed = outcome.action == "resolved"
            if changed:
                resolved.add(op.id)
        elif isinstance(op, Merge):
            outcome = _merge(index, op, memory, unit, provenance)
            record(outcome, audited=outcome.action == "refused" or outcome.reason_code == "merged")
            changed = outcome.action in ("create", "update")
        elif isinstance(op, _DREAM_WRITES):
            text = _op_text(op)
            if isinstance(op, Remember | RewriteAbout) and any(
                near(text, c) for c in corrected_texts
            ):
                record(
                    OpOutcome(
                        index,
                        tag,
                        "refused",
                        "owner_corrected",
                        "the owner corrected this learning; it is never promoted",
                    )
                )
            else:
                try:
                    applied = memory.apply_memory_op(op, provenance=provenance, turn_id=unit)
                except (ValueError, OSError) as exc:
                    record(OpOutcome(index, tag, "refused", "apply_failed", str(exc)[:200]))
                except Exception as exc:  # one op's failure never takes the dream down
                    log.exception("%s: applying %s failed", unit, tag)
                    record(OpOutcome(index, tag, "refused", "apply_failed", type(exc).__name__))
                else:
                    action, code = applied.action, applied.reason_code
                    # The gate's own audit line is written by apply_memory_op; this one is ours.
                    record(_from_applied(index, tag, applied), audited=False)
                    if action in ("create", "update"):
                        changed = True
                        if not isinstance(op, RewriteSummary):
                            writes_kept.append(text)
                    elif (
                        action == "skip"
                        and code in _ALREADY_KEPT
                        and not isinstance(op, RewriteSummary)
                    ):
                        # Memory already holds this knowledge: promoting its learning is honest.
                        writes_kept.append(text)
        elif isinstance(op, CaptureLearning | LogEpisode):
            record(
                OpOutcome(
                    index,
                    tag,
                    "refused",
                    "not_in_dream",
                    f"a dream does not {tag.replace('_', ' ')}",
                )
            )
        else:
            name = type(op).__name__
            record(OpOutcome(index, tag, "refused", "unknown_op", f"{name} is not a dream op"))

        noop_streak = 0 if changed else noop_streak + 1
        if noop_streak >= limits.max_noop_streak:
            result.stopped = f"{noop_streak} ops in a row changed nothing"
            break
    return result


def _from_applied(index: int, tag: str, applied: Applied) -> OpOutcome:
    return OpOutcome(
        index, tag, applied.action, applied.reason_code, applied.reason, str(applied.target)
    )


def _merge(
    index: int, op: Merge, memory: CuratedMemory, unit: str, provenance: Provenance
) -> OpOutcome:
    """A consolidating merge: the merged text updates sources[0] through the gate, then the other
    sources are retired (marked superseded by it, never deleted). Every check runs before any
    write; the collection shrinks by len(sources) - 1."""
    target = f"{op.collection}/{op.sources[0]}" if op.sources else op.collection
    sources = list(dict.fromkeys(op.sources))
    if len(sources) < 2:
        return OpOutcome(index, "merge", "refused", "merge_too_small",
                         "a merge needs two or more distinct entries", target)  # fmt: skip
    present = {e.stem: e for e in memory.entries() if e.collection == op.collection}
    missing = [stem for stem in sources if stem not in present]
    if missing:
        return OpOutcome(index, "merge", "refused", "unknown_entry",
                         f"no entry {op.collection}/{missing[0][:60]}", target)  # fmt: skip
    owned = [stem for stem in sources if present[stem].meta.provenance == "owner"]
    if owned and provenance != "owner":
        return OpOutcome(index, "merge", "refused", "owner_entry",
                         f"{op.collection}/{owned[0]} is the owner's; an inference never "
                         "replaces it", target)  # fmt: skip
    try:
        applied = memory.apply_memory_op(
            Remember(collection=op.collection, name=sources[0], content=op.content),
            provenance=provenance,
            turn_id=unit,
        )
    except (ValueError, OSError) as exc:
        return OpOutcome(index, "merge", "refused", "apply_failed", str(exc)[:200], target)
    if applied.action not in ("create", "update"):
        return OpOutcome(
            index, "merge", applied.action, applied.reason_code, applied.reason, target
        )
    # The gate may have routed the text to another entry (a near-duplicate it updated instead):
    # that one is the survivor, and it is never retired.
    kept = applied.stem or sources[0]
    for stem in sources:
        if stem != kept:
            memory.retire_entry(op.collection, stem, superseded_by=kept, turn_id=unit)
    return OpOutcome(
        index, "merge", "update", "merged",
        f"{len(sources)} entries merged into {target}", target,
    )  # fmt: skip


def _resolve(
    index: int,
    op: ResolveLearning,
    offered: Mapping[int, PendingLearning],
    corrected: set[int],
    resolved: set[int],
    writes_kept: Sequence[str],
    history: HistoryStore,
) -> OpOutcome:
    target = f"learning:{op.id}:{op.status}"
    if op.id not in offered:
        return OpOutcome(
            index,
            "resolve_learning",
            "refused",
            "unknown_id",
            f"learning {op.id} was not offered to this dream (stale or invented id)",
            target,
        )
    if op.id in resolved:
        return OpOutcome(
            index,
            "resolve_learning",
            "skip",
            "already_resolved",
            f"learning {op.id} already resolved in this dream",
            target,
        )
    if op.status == "promoted":
        if op.id in corrected:
            return OpOutcome(
                index,
                "resolve_learning",
                "refused",
                "owner_corrected",
                f"learning {op.id} was corrected by the owner; it is never promoted",
                target,
            )
        observation = offered[op.id].observation
        if not any(shares_words(observation, kept) for kept in writes_kept):
            return OpOutcome(
                index,
                "resolve_learning",
                "refused",
                "promotion_without_write",
                f"learning {op.id}: no write of this dream keeps it (write first, then promote)",
                target,
            )
    if not history.resolve_learning(op.id, op.status):
        return OpOutcome(
            index,
            "resolve_learning",
            "skip",
            "not_pending",
            f"learning {op.id} is no longer pending",
            target,
        )
    return OpOutcome(
        index, "resolve_learning", "resolved", op.status, f"learning {op.id} {op.status}", target
    )
