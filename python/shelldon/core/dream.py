"""The dream: core builds the directive from pending learnings, a worker proposes, core applies.

The dream is a worker turn like any other (purpose "dream"). What is particular to it lives here:

- `build_dream_directive`: the pending learnings (bounded, most recurrent first, each tagged
  `[id=N] … (seen K×)`), the collections that are full (asking for merges instead of new entries),
  and a bounded excerpt of recent conversation for the summary. No pending learning → "" → no
  fork, no spend.
- `apply_dream`: every proposed op, one by one, through the gate, under caps (ops, tokens, a stop
  on a run of no-ops and on a repeated op). A resolution is accepted only for an id this dream
  offered; a promotion only after a write of this dream that carries the learning's words; a
  learning the owner corrected is never promoted. Each decision is audited under `dream-<n>`.
- `Dreamer`: the whole cycle (scheduler verdict, a cross-process lock, the arbiter slot, the
  budget, the worker, the application, the record `shelldon status` shows).
- `CorrectionLedger`: how an owner's "no, that's wrong" reaches the learnings of the turn before.
- `undo_dream`: reverts a dream's learning resolutions (its file changes are the audit's undo).

Core-resident: nothing here imports broker/ or worker/ (the worker is reached through `spawn`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib
import logging
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from shelldon.contracts.ops import (
    CaptureLearning,
    LogEpisode,
    Merge,
    Op,
    OpDecodeError,
    Remember,
    ResolveLearning,
    RewriteAbout,
    RewriteSummary,
    decode_op,
    encode_op,
)
from shelldon.core.scheduler import DreamRecord, Scheduler, _atomic_write, _iso

log = logging.getLogger(__name__)

LOCK_FILE = "dream.lock"
CORRECTIONS_FILE = "corrections.json"
DREAM_UNIT_PREFIX = "dream-"

# Header lines the directive uses and the offline dream reads back; change both together.
LEARNINGS_HEADER = "## Pending learnings (most recurrent first)"
FULL_HEADER = "## Full collections (merge, do not add)"
RECENT_HEADER = "## Recent conversation"
LEARNING_LINE = re.compile(
    r"^- \[id=(?P<id>\d+)\] (?P<text>.*) \(seen (?P<count>\d+)×(?:; key: (?P<key>[^)]*))?\)$"
)


def dream_unit(n: int) -> str:
    return f"{DREAM_UNIT_PREFIX}{n}"


@dataclass(frozen=True)
class DreamLimits:
    max_learnings: int = 20  # offered in one directive
    max_observation_chars: int = 300
    max_ops: int = 48  # applied per dream (2 per promotion + summary); the rest is stopped
    max_tokens: int = 3000  # estimated tokens of the ops applied (4 bytes of JSON per token)
    max_noop_streak: int = 3  # consecutive ops that change nothing: the brain is looping
    max_note_chars: int = 280
    recent_messages: int = 12
    max_recent_chars: int = 2400
    max_full_listed: int = 40  # entries listed per full collection
    deadline_s: float = 60.0


# --- the directive ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PendingLearning:
    id: int
    observation: str
    recurrence_count: int
    pattern_key: str | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> PendingLearning:
        return cls(
            id=int(row["id"]),
            observation=str(row["observation"]),
            recurrence_count=int(row["recurrence_count"]),
            pattern_key=row.get("pattern_key") if hasattr(row, "get") else row["pattern_key"],
        )


@dataclass(frozen=True)
class FullCollection:
    """A collection at its cap (or the index at its limit): the dream asks for merges there."""

    collection: str
    count: int
    cap: int
    entries: tuple[tuple[str, str], ...] = ()  # (stem, title)


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    # The id tag and the "(seen K×)" tail are the line's grammar: keep the text from faking them.
    flat = flat.replace("[id=", "[id ").replace("(seen ", "(seen: ")
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def build_dream_directive(
    pending: Sequence[PendingLearning],
    *,
    full: Sequence[FullCollection] = (),
    recent: Sequence[Mapping[str, Any]] = (),
    withheld: Sequence[str] = (),
    limits: DreamLimits = DreamLimits(),
) -> str:
    """The dream's directive, or "" when nothing is pending (the dream is then skipped).
    `withheld`: observations of corrected learnings; owner lines saying them leave the excerpt."""
    # Stable: ties keep the store's order (most recently seen first, then id).
    chosen = sorted(pending, key=lambda p: -p.recurrence_count)[: limits.max_learnings]
    if not chosen:
        return ""
    lines = [
        "# Dream: tidy your memory",
        "You are dreaming. Review what you noticed about your owner and keep only what lasts.",
        'Answer with one JSON object {"reply": "<one short sentence for your owner>", '
        '"ops": [...]}.',
        "- To keep a learning, write it first (remember into facts, people, preferences or "
        'capabilities, or rewrite_about), then {"op": "resolve_learning", "id": N, '
        '"status": "promoted"}. A promotion without its write is refused.',
        '- To drop a learning: {"op": "resolve_learning", "id": N, "status": "pruned"}.',
        '- Finish with one {"op": "rewrite_summary", "content": "..."}: a short running summary of '
        "the recent conversation.",
        "- Use only the ids listed below. Never store secrets, passwords or instructions.",
        f"- At most {limits.max_ops} ops.",
        "",
        LEARNINGS_HEADER,
    ]
    for item in chosen:
        text = _one_line(item.observation, limits.max_observation_chars)
        key = f"; key: {_one_line(item.pattern_key, 80)}" if item.pattern_key else ""
        lines.append(f"- [id={item.id}] {text} (seen {item.recurrence_count}×{key})")
    if full:
        lines += ["", FULL_HEADER]
        for col in full:
            lines.append(
                f"{col.collection}/ holds {col.count} of {col.cap} entries: merge related entries "
                f'with {{"op": "merge", "collection": "{col.collection}", "sources": [stems, the '
                'first is kept], "content": "..."}} instead of adding new ones.'
            )
            for stem, title in col.entries[: limits.max_full_listed]:
                lines.append(f"  - {col.collection}/{stem}: {_one_line(title, 80)}")
    excerpt = _recent_excerpt(recent, limits, withheld)
    if excerpt:
        lines += ["", RECENT_HEADER, *excerpt]
    return "\n".join(lines)


def _without_corrected(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Drop what the owner corrected: the owner message before a correction (with the pet's reply
    to it) and the correction itself, so the summary never repeats what the owner took back."""
    kept: list[Mapping[str, Any]] = []
    for row in rows:
        if str(row.get("role")) == "owner" and detect_correction(str(row.get("content", ""))):
            while kept and str(kept[-1].get("role")) != "owner":
                kept.pop()
            if kept:
                kept.pop()
            continue
        kept.append(row)
    return kept


def _recent_excerpt(
    recent: Sequence[Mapping[str, Any]], limits: DreamLimits, withheld: Sequence[str] = ()
) -> list[str]:
    rows = [
        row
        for row in _without_corrected(list(recent))
        if not (
            str(row.get("role")) == "owner"
            and any(_near(str(row.get("content", "")), text) for text in withheld)
        )
    ][-limits.recent_messages :]
    out: list[str] = []
    used = 0
    for row in reversed(rows):  # newest kept first when the budget runs out
        role = str(row.get("role", "owner"))
        line = f"{role}: {_one_line(str(row.get('content', '')), 400)}"
        if used + len(line) > limits.max_recent_chars:
            break
        used += len(line) + 1
        out.append(line)
    out.reverse()
    return out


# --- words ---------------------------------------------------------------------------------------

_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "your",
        "with",
        "that",
        "this",
        "have",
        "has",
        "had",
        "was",
        "were",
        "will",
        "would",
        "can",
        "could",
        "they",
        "them",
        "their",
        "there",
        "then",
        "than",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "how",
        "all",
        "any",
        "some",
        "into",
        "from",
        "over",
        "under",
        "about",
        "after",
        "before",
        "again",
        "more",
        "most",
        "other",
        "such",
        "only",
        "own",
        "same",
        "very",
        "just",
        "also",
        "owner",
        "pet",
        "its",
        "it's",
        "i'm",
        "she",
        "her",
        "his",
        "him",
        "our",
        "ours",
        "seems",
        "likely",
        "often",
        "usually",
        "says",
        "said",
    ]
)


def _stem(word: str) -> str:
    """A crude suffix strip so "called"/"call" and "likes"/"like" meet; enough for overlap tests."""
    for suffix in ("ing", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return {_stem(w) for w in re.findall(r"\w+", folded) if len(w) >= 3 and w not in _STOPWORDS}


def shares_words(a: str, b: str, *, at_least: int = 1) -> bool:
    return len(content_words(a) & content_words(b)) >= at_least


# --- corrections --------------------------------------------------------------------------------

# An owner message that says the pet got something wrong. Kept short and literal: a false
# positive only keeps a learning from being promoted; it never deletes anything.
_CORRECTION = re.compile(
    r"(?:^|[.!?]\s+)no+[,.!]?\s+(?:that'?s|that is|it'?s|it is)\s+(?:wrong|not\b)"
    r"|\b(?:that'?s|that is|you'?re|you are|this is)\s+(?:wrong|not (?:true|right|correct))"
    r"|\b(?:not true|incorrect|i never said|i didn'?t say|i did not say)\b"
    r"|\b(?:don'?t|do not) (?:remember|keep|learn|store) that\b"
    r"|\bforget (?:that|it)\b",
    re.IGNORECASE,
)
_NEGATIVE_RULE = re.compile(r"^\s*(?:never|don'?t|do not|stop|no more|avoid)\b", re.IGNORECASE)


def detect_correction(owner_text: str) -> bool:
    return bool(_CORRECTION.search(unicodedata.normalize("NFKC", owner_text)))


def rule_contradicts(rule_text: str, observation: str) -> bool:
    """An owner rule against a learning: a negative rule ("never …", "don't …") that names what
    the learning is about (at least two of its content words, or all of the rule's)."""
    negation = _NEGATIVE_RULE.search(rule_text)
    if not negation:
        return False
    rule_words = content_words(rule_text[negation.end() :])
    shared = rule_words & content_words(observation)
    return len(shared) >= 2 or (bool(rule_words) and shared == rule_words)


class _Captured(msgspec.Struct, frozen=True):
    pattern_key: str | None
    observation: str


class _CorrectionState(msgspec.Struct):
    version: int = 1
    previous_turn: str = ""
    previous: list[_Captured] = msgspec.field(default_factory=list)
    keys: list[str] = msgspec.field(default_factory=list)
    observations: list[str] = msgspec.field(default_factory=list)


def _norm_observation(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class CorrectionLedger:
    """Learnings the owner corrected. A correction marks the learnings the previous turn captured
    (by pattern key, else by observation text), so a recurrence of the same key stays corrected
    even after the dream pruned it and capture put it back to pending. Kept in
    `state/corrections.json`, bounded (oldest forgotten first)."""

    MAX_MARKS = 500

    def __init__(self, state_dir: Path) -> None:
        self._path = Path(state_dir) / CORRECTIONS_FILE
        self._lock = threading.Lock()
        self._state = self._load()

    def _load(self) -> _CorrectionState:
        try:
            return msgspec.json.decode(self._path.read_bytes(), type=_CorrectionState)
        except FileNotFoundError:
            return _CorrectionState()
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            log.warning("correction ledger unreadable (%s); starting empty", exc)
            return _CorrectionState()

    def _save(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(self._path, msgspec.json.encode(self._state))

    def note_turn(self, turn_id: str, owner_text: str, captured: Iterable[CaptureLearning]) -> int:
        """After an owner turn: mark the previous turn's learnings if this message corrects the
        pet, then remember this turn's. Returns how many learnings were marked."""
        with self._lock:
            marked = 0
            state = self._state
            if detect_correction(owner_text):
                for item in state.previous:
                    if item.pattern_key and item.pattern_key not in state.keys:
                        state.keys.append(item.pattern_key)
                        marked += 1
                    elif not item.pattern_key:
                        norm = _norm_observation(item.observation)
                        if norm and norm not in state.observations:
                            state.observations.append(norm)
                            marked += 1
                del state.keys[: max(0, len(state.keys) - self.MAX_MARKS)]
                del state.observations[: max(0, len(state.observations) - self.MAX_MARKS)]
                if marked:
                    log.info("owner correction in %s marks %d learning(s)", turn_id, marked)
            state.previous_turn = turn_id
            state.previous = [
                _Captured(_blank_key(op.pattern_key), op.observation) for op in captured
            ]
            self._save()
            return marked

    def is_corrected(self, item: PendingLearning) -> bool:
        with self._lock:
            if item.pattern_key and _blank_key(item.pattern_key) in self._state.keys:
                return True
            return _norm_observation(item.observation) in self._state.observations


def _blank_key(key: str | None) -> str | None:
    return key.strip() or None if key else None


# --- applying a dream ---------------------------------------------------------------------------


class DecisionLike(Protocol):
    @property
    def action(self) -> str: ...
    @property
    def reason(self) -> str: ...


class MemoryWriter(Protocol):
    """core.memory.CuratedMemory as the dream uses it."""

    def apply_memory_op(
        self, op: Any, *, provenance: str = ..., turn_id: str | None = ...
    ) -> Any: ...


class LearningWriter(Protocol):
    """core.history.HistoryStore as the dream uses it."""

    def resolve_learning(self, id: int, status: str) -> Any: ...


AuditFn = Callable[[Mapping[str, Any]], None]
"""Writes one audit line: unit, op, action, reason_code, reason, target (core.audit)."""


@dataclass
class OpOutcome:
    index: int
    op: str
    action: str  # "create" | "update" | "skip" | "reject" | "resolved" | "refused" | "stopped"
    reason_code: str
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
_DREAM_WRITES: tuple[type, ...] = (Remember, RewriteAbout, RewriteSummary)


# Gate skips that mean "an entry already says this" (core.gate's reason codes).
_ALREADY_KEPT = frozenset({"duplicate", "near_duplicate", "confirmed"})


def _op_text(op: Any) -> str:
    parts = [str(getattr(op, name, "")) for name in ("name", "content", "observation")]
    return " ".join(p for p in parts if p)


def _decision_fields(decision: Any) -> tuple[str, str, str, str]:
    action = str(getattr(decision, "action", "create" if decision is None else decision))
    code = str(getattr(decision, "reason_code", action))
    reason = str(getattr(decision, "reason", ""))
    target = str(getattr(decision, "target", "") or "")
    return action, code, reason, target


def apply_dream(
    raw_ops: Sequence[Any],
    *,
    unit: str,
    offered: Mapping[int, PendingLearning],
    corrected: Iterable[int],
    memory: MemoryWriter,
    history: LearningWriter,
    audit: AuditFn,
    provenance: str = "inferred",
    limits: DreamLimits = DreamLimits(),
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
            op: Op | Any = decode_op(raw) if not isinstance(raw, msgspec.Struct) else raw
        except OpDecodeError as exc:
            record(OpOutcome(index, "?", "refused", "malformed", f"undecodable op: {exc}"[:200]))
            noop_streak += 1
            if noop_streak >= limits.max_noop_streak:
                result.stopped = f"{noop_streak} ops in a row changed nothing"
                break
            continue
        op_name = type(op).__name__
        encoded = encode_op(op)
        tag = str(msgspec.json.decode(encoded).get("op", op_name))
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
                _near(text, c) for c in corrected_texts
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
                    decision = memory.apply_memory_op(op, provenance=provenance, turn_id=unit)
                except (ValueError, OSError) as exc:
                    record(OpOutcome(index, tag, "refused", "apply_failed", str(exc)[:200]))
                except Exception as exc:  # one op's failure never takes the dream down
                    log.exception("%s: applying %s failed", unit, tag)
                    record(OpOutcome(index, tag, "refused", "apply_failed", type(exc).__name__))
                else:
                    action, code, reason, target = _decision_fields(decision)
                    # The gate's own audit line is written by apply_memory_op; this one is ours.
                    record(OpOutcome(index, tag, action, code, reason, target), audited=False)
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
            record(OpOutcome(index, tag, "refused", "unknown_op", f"{op_name} is not a dream op"))

        noop_streak = 0 if changed else noop_streak + 1
        if noop_streak >= limits.max_noop_streak:
            result.stopped = f"{noop_streak} ops in a row changed nothing"
            break
    return result


def _merge(index: int, op: Merge, memory: MemoryWriter, unit: str, provenance: str) -> OpOutcome:
    """A consolidating merge: the merged text updates sources[0] through the gate, then the other
    sources are retired (marked superseded by it, never deleted). Every check runs before any
    write; the collection shrinks by len(sources) - 1."""
    target = f"{op.collection}/{op.sources[0]}" if op.sources else op.collection
    sources = list(dict.fromkeys(op.sources))
    if len(sources) < 2:
        return OpOutcome(index, "merge", "refused", "merge_too_small",
                         "a merge needs two or more distinct entries", target)  # fmt: skip
    retire = getattr(memory, "retire_entry", None)
    entries = getattr(memory, "entries", None)
    if retire is None or entries is None:
        return OpOutcome(index, "merge", "refused", "merge_unsupported",
                         "this memory cannot retire entries", target)  # fmt: skip
    present = {e.stem: e for e in entries() if e.collection == op.collection}
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
        decision = memory.apply_memory_op(
            Remember(collection=op.collection, name=sources[0], content=op.content),
            provenance=provenance,
            turn_id=unit,
        )
    except (ValueError, OSError) as exc:
        return OpOutcome(index, "merge", "refused", "apply_failed", str(exc)[:200], target)
    action, code, reason, _ = _decision_fields(decision)
    if action not in ("create", "update"):
        return OpOutcome(index, "merge", action, code, reason, target)
    # The gate may have routed the text to another entry (a near-duplicate it updated instead):
    # that one is the survivor, and it is never retired.
    kept = str(getattr(decision, "stem", None) or sources[0])
    for stem in sources:
        if stem != kept:
            retire(op.collection, stem, superseded_by=kept, turn_id=unit)
    return OpOutcome(
        index, "merge", "update", "merged",
        f"{len(sources)} entries merged into {target}", target,
    )  # fmt: skip


def _near(text: str, observation: str) -> bool:
    words = content_words(observation)
    if not words:
        return False
    shared = words & content_words(text)
    return len(shared) >= max(2, (len(words) + 1) // 2)


def _resolve(
    index: int,
    op: ResolveLearning,
    offered: Mapping[int, PendingLearning],
    corrected: set[int],
    resolved: set[int],
    writes_kept: Sequence[str],
    history: LearningWriter,
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
    changed = history.resolve_learning(op.id, op.status)
    if changed is False or changed == 0:
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


# --- the lock -----------------------------------------------------------------------------------


@contextlib.contextmanager
def dream_lock(state_dir: Path) -> Iterator[bool]:
    """An exclusive, non-blocking flock on state/dream.lock: two dreams never overlap, also across
    processes. Yields False when another dream holds it. The kernel drops it if the holder dies."""
    state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(state_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                yield False
                return
            raise
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


# --- the cycle ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DreamTurn:
    """What the worker returned for a dream (or why it returned nothing)."""

    reply: str = ""
    ops: tuple[Any, ...] = ()
    failed: str = ""  # non-empty: no reply (spawn failure, timeout, brain failure)
    completion_tokens: int | None = None


SpawnDream = Callable[[str, str, float], DreamTurn]
"""(turn_id, directive, deadline_s) -> DreamTurn: runs one worker with purpose "dream"."""


class DreamSources(Protocol):
    """Everything the Dreamer reads to build a directive (HistoryStore + CuratedMemory)."""

    def pending(self, limit: int) -> Sequence[PendingLearning]: ...
    def recent(self, n: int) -> Sequence[Mapping[str, Any]]: ...
    def full_collections(self) -> Sequence[FullCollection]: ...
    def owner_rules(self) -> Sequence[str]: ...


class Arbiter(Protocol):
    """One worker in flight: GateArbiter over core.server's TurnGate (owner turns first)."""

    def dream_turn(self, *, wait_s: float = ...) -> contextlib.AbstractContextManager[bool]: ...


class Dreamer:
    """One dream at a time: verdict → lock → arbiter slot → directive → budget → worker → apply."""

    def __init__(
        self,
        *,
        state_dir: Path,
        scheduler: Scheduler,
        arbiter: Arbiter,
        sources: DreamSources,
        memory: MemoryWriter,
        history: LearningWriter,
        audit: AuditFn,
        spawn: SpawnDream,
        corrections: CorrectionLedger | None = None,
        limits: DreamLimits = DreamLimits(),
        provenance: str = "inferred",
    ) -> None:
        self.state_dir = Path(state_dir)
        self.scheduler = scheduler
        self.arbiter = arbiter
        self.sources = sources
        self.memory = memory
        self.history = history
        self.audit = audit
        self.spawn = spawn
        self.corrections = corrections or CorrectionLedger(self.state_dir)
        self.limits = limits
        self.provenance = provenance

    def tick(self) -> DreamRecord | None:
        """The idle cadence: dream if due, else nothing (not recorded: most ticks are not due)."""
        if not self.scheduler.verdict().due:
            return None
        # Nothing pending: nothing to do, and nothing written (the tick runs every minute on an
        # SD card; a skip is only recorded when the owner asked for the dream).
        if not self.sources.pending(1):
            return None
        return self._run(on_request=False, force=False, wait_s=0.0)

    def dream_now(self, *, force: bool = False, wait_s: float = 30.0) -> DreamRecord:
        """`shelldon dream --now`: skips the idle wait and the cooldown, not the budget or battery
        (unless forced). Waits up to `wait_s` for an owner's turn in flight to finish."""
        verdict = self.scheduler.verdict(on_request=True, force=force)
        if not verdict.due:
            return DreamRecord(
                at=_iso(self.scheduler.now()), outcome="refused", detail=verdict.reason
            )
        return self._run(on_request=True, force=force, wait_s=wait_s)

    def _finish(self, record: DreamRecord) -> DreamRecord:
        self.scheduler.finish_dream(record)
        return record

    def _run(self, *, on_request: bool, force: bool, wait_s: float) -> DreamRecord:
        at = _iso(self.scheduler.now())
        with dream_lock(self.state_dir) as locked:
            if not locked:
                return DreamRecord(at=at, outcome="busy", detail="another dream is running")
            with self.arbiter.dream_turn(wait_s=wait_s) as slot:
                if not slot:
                    return DreamRecord(at=at, outcome="busy", detail="the owner's turn goes first")
                # Re-check under the lock: the budget may have moved while we waited.
                verdict = self.scheduler.verdict(on_request=on_request, force=force)
                if not verdict.due:
                    return DreamRecord(at=at, outcome="refused", detail=verdict.reason)
                return self._dream(at, record_skip=on_request)

    def _dream(self, at: str, *, record_skip: bool = True) -> DreamRecord:
        pending = list(self.sources.pending(self.limits.max_learnings))
        rules = list(self.sources.owner_rules()) if pending else []
        corrected = {
            p.id
            for p in pending
            if self.corrections.is_corrected(p)
            or any(rule_contradicts(rule, p.observation) for rule in rules)
        }
        offered_list = [p for p in pending if p.id not in corrected]
        if not offered_list:  # skip before reading the tree or the window: no fork, no spend
            detail = "nothing to consolidate"
            if corrected:
                detail += f" ({len(corrected)} corrected learning(s) held back)"
            skipped = DreamRecord(at=at, outcome="skipped", detail=detail)
            return self._finish(skipped) if record_skip else skipped
        directive = build_dream_directive(
            offered_list,
            full=self.sources.full_collections(),
            recent=self.sources.recent(self.limits.recent_messages),
            withheld=[p.observation for p in pending if p.id in corrected],
            limits=self.limits,
        )
        if not directive:
            detail = "nothing to consolidate"
            if corrected:
                detail += f" ({len(corrected)} corrected learning(s) held back)"
            return self._finish(DreamRecord(at=at, outcome="skipped", detail=detail))
        n = self.scheduler.begin_dream()
        unit = dream_unit(n)
        log.info(
            "%s: %d learning(s) offered, %d held back", unit, len(offered_list), len(corrected)
        )
        turn = self.spawn(unit, directive, self.limits.deadline_s)
        if turn.failed:
            self.audit(
                {
                    "unit": unit,
                    "op": "dream",
                    "action": "refused",
                    "reason_code": "worker_failed",
                    "reason": turn.failed[:200],
                    "target": "",
                }
            )
            return self._finish(DreamRecord(at=at, outcome="failed", detail=turn.failed[:200], n=n))
        offered = {p.id: p for p in pending}  # corrected ones are known, never promotable
        application = apply_dream(
            turn.ops,
            unit=unit,
            offered=offered,
            corrected=corrected,
            memory=self.memory,
            history=self.history,
            audit=self.audit,
            provenance=self.provenance,
            limits=self.limits,
        )
        # Corrected learnings are pruned by core itself, inside the same unit (undo reverts it).
        for learning_id in sorted(corrected):
            changed = self.history.resolve_learning(learning_id, "pruned")
            if changed not in (False, 0):
                outcome = OpOutcome(
                    -1,
                    "resolve_learning",
                    "resolved",
                    "pruned",
                    f"learning {learning_id} pruned: the owner corrected it",
                    f"learning:{learning_id}:pruned",
                )
                application.outcomes.append(outcome)
                self.audit(
                    {
                        "unit": unit,
                        "op": "resolve_learning",
                        "action": "resolved",
                        "reason_code": "owner_corrected",
                        "reason": outcome.reason,
                        "target": outcome.target,
                    }
                )
        note = _one_line(turn.reply, self.limits.max_note_chars)
        outcome_name = "stopped" if application.stopped else "done"
        detail = application.stopped or f"{len(turn.ops)} op(s) proposed"
        return self._finish(
            DreamRecord(
                at=at,
                outcome=outcome_name,
                detail=detail,
                n=n,
                written=application.written,
                promoted=application.promoted,
                pruned=application.pruned,
                refused=application.refused,
                note=note,
            )
        )


# --- undo ---------------------------------------------------------------------------------------


class LearningReopener(Protocol):
    def reopen_learning(self, id: int, from_status: str) -> Any: ...


def _field(line: Any, name: str) -> Any:
    """A field of an audit line: a mapping (JSON) or core.audit's AuditRecord."""
    if isinstance(line, Mapping):
        return line.get(name)
    return getattr(line, name, None)


def dream_resolutions(audit_lines: Iterable[Any], n: int) -> list[tuple[int, str]]:
    """The learning resolutions dream-<n> applied, from its audit lines: [(id, status)]."""
    unit = dream_unit(n)
    out: list[tuple[int, str]] = []
    for line in audit_lines:
        if _field(line, "unit") != unit or _field(line, "op") != "resolve_learning":
            continue
        if _field(line, "action") != "resolved":
            continue
        parts = str(_field(line, "target") or "").split(":")
        if len(parts) == 3 and parts[0] == "learning" and parts[1].isdigit():
            out.append((int(parts[1]), parts[2]))
    return out


def undo_dream_learnings(audit_lines: Iterable[Any], n: int, history: LearningReopener) -> int:
    """Put back to pending the learnings dream-<n> resolved (only those still in the state the
    dream left them in). Returns how many were reopened."""
    reopened = 0
    for learning_id, status in reversed(dream_resolutions(audit_lines, n)):
        changed = history.reopen_learning(learning_id, status)
        if changed not in (False, 0, None):
            reopened += 1
    return reopened


# --- wiring to the stores and to core -----------------------------------------------------------

COLLECTION_CAP = 40  # the gate's default per-collection cap (core.gate); a full one asks for merges
INDEX_MAX_LINES = 200  # MEMORY.md's limit


class StoreSources:
    """DreamSources over the real stores: HistoryStore for learnings and the recent window,
    CuratedMemory for counts (full collections, the index) and the owner's rules."""

    def __init__(
        self,
        history: Any,
        memory: Any,
        *,
        collection_cap: int | None = None,
        index_max_lines: int = INDEX_MAX_LINES,
    ) -> None:
        self.history = history
        self.memory = memory
        if collection_cap is None:  # the cap the memory's gate enforces
            limits = getattr(memory, "_limits", None)
            collection_cap = int(getattr(limits, "collection_cap", COLLECTION_CAP))
        self.collection_cap = collection_cap
        self.index_max_lines = index_max_lines

    def pending(self, limit: int) -> Sequence[PendingLearning]:
        return [PendingLearning.from_row(row) for row in self.history.pending_learnings(limit)]

    def recent(self, n: int) -> Sequence[Mapping[str, Any]]:
        try:
            return list(self.history.recent(n))
        except Exception:  # the summary is a nicety; the dream goes on without it
            log.exception("dream: could not read the recent window")
            return []

    def _entries(self) -> list[Any]:
        try:
            return [
                e for e in self.memory.entries() if getattr(e.meta, "status", "") != "superseded"
            ]
        except Exception:
            log.exception("dream: could not list curated entries")
            return []

    def full_collections(self) -> Sequence[FullCollection]:
        entries = self._entries()
        by_collection: dict[str, list[Any]] = {}
        for entry in entries:
            by_collection.setdefault(entry.collection, []).append(entry)
        index_full = self._index_lines() >= self.index_max_lines - 1
        out = []
        for collection, items in sorted(by_collection.items()):
            if len(items) >= self.collection_cap or (index_full and len(items) >= 2):
                listed = tuple((e.stem, e.meta.title or e.stem) for e in items)
                out.append(FullCollection(collection, len(items), self.collection_cap, listed))
        return out

    def _index_lines(self) -> int:
        try:
            with open(Path(self.memory.root) / "MEMORY.md", encoding="utf-8") as fh:
                return sum(1 for _ in fh)
        except OSError:
            return 0

    def owner_rules(self) -> Sequence[str]:
        return [e.body for e in self._entries() if getattr(e.meta, "provenance", "") == "owner"]


class GateArbiter:
    """The dream's slot in core.server's TurnGate (acquire(purpose)/release): it waits behind
    every owner turn in flight or queued, and an owner arriving later goes before it."""

    def __init__(self, gate: Any) -> None:
        self.gate = gate

    @contextlib.contextmanager
    def dream_turn(self, *, wait_s: float = 0.0) -> Iterator[bool]:
        self.gate.acquire("dream")  # waits behind every owner turn, in flight or queued
        try:
            yield True
        finally:
            self.gate.release()


class DreamService:
    """What core.server holds: the scheduler, the dreamer, the idle ticker and the status lines."""

    def __init__(self, dreamer: Dreamer, *, tick_s: float = 60.0) -> None:
        self.dreamer = dreamer
        self.scheduler = dreamer.scheduler
        self.tick_s = tick_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def owner_turn_done(self) -> None:
        try:
            self.scheduler.note_owner_turn()
        except Exception:
            log.exception("scheduler: could not count the owner's turn")

    def status_lines(self) -> tuple[str, ...]:
        try:
            return self.scheduler.status_lines()
        except Exception:
            log.exception("scheduler: status failed")
            return ("scheduler: status unavailable (see the log)",)

    def dream_now(self, *, force: bool = False) -> DreamRecord:
        return self.dreamer.dream_now(force=force)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="dream-ticker", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.scheduler.flush()  # the owner turns counted since the last save
        except Exception:
            log.exception("scheduler: could not save its state at shutdown")

    def _loop(self) -> None:
        while not self._stop.wait(self.tick_s):
            try:
                record = self.dreamer.tick()
            except Exception:
                log.exception("dream tick failed; the next tick tries again")
                continue
            if record is not None:
                log.info("dream: %s (%s)", record.outcome, record.detail)


def _turn_to_dream(outcome: Any) -> DreamTurn:
    """core.server's TurnResult / TurnFailed as the Dreamer sees it."""
    if type(outcome).__name__ == "TurnFailed":
        return DreamTurn(failed=f"{outcome.stage}: {outcome.reason}"[:200] or "worker failed")
    usage = getattr(outcome, "usage", None)
    return DreamTurn(
        reply=str(getattr(outcome, "reply", "")),
        ops=tuple(getattr(outcome, "ops", ()) or ()),
        completion_tokens=getattr(usage, "completion_tokens", None),
    )


def attach(core: Any, *, config: Any = None, clock: Any = None) -> DreamService:
    """Build the DreamService for core.server's CoreService (duck-typed: `root`, `stores`,
    `gate`, `spawn`). Called once at core start-up."""
    from shelldon.core.scheduler import utc_now

    root = core.root
    history = core.stores.get("history")
    memory = core.stores.get("memory")
    if config is None:
        config = _scheduler_config(root)
    scheduler = Scheduler(Path(root.state), config, clock=clock or utc_now)
    audit_log = _audit_log(memory)

    def audit(line: Mapping[str, Any]) -> None:
        if audit_log is None:
            log.info("dream audit: %s", dict(line))
            return
        try:
            audit_log.note(line)
        except Exception:
            log.exception("dream: could not write the audit record")

    def spawn(turn_id: str, directive: str, deadline_s: float) -> DreamTurn:
        outcome = core.spawn(turn_id, "dream", "", directive)
        _record_prompt(root, turn_id, outcome)
        return _turn_to_dream(outcome)

    dreamer = Dreamer(
        state_dir=Path(root.state),
        scheduler=scheduler,
        arbiter=GateArbiter(core.gate),
        sources=StoreSources(history, memory),
        memory=memory,
        history=history,
        audit=audit,
        spawn=spawn,
    )
    return DreamService(dreamer)


def _record_prompt(root: Any, turn_id: str, outcome: Any) -> None:
    """The dream's assembled prompt into state/prompts.jsonl when tests ask for it (core.turns)."""
    prompt = getattr(outcome, "prompt", None)
    if prompt is None:
        return
    try:
        turns = importlib.import_module("shelldon.core.turns")
        turns.record_prompt(root, turn_id, "dream", prompt)
    except Exception:
        log.exception("dream: could not record the prompt")


def _scheduler_config(root: Any) -> Any:
    """`[scheduler]` from shelldon.toml (defaults when absent; a bad value is a start-up error)."""
    from shelldon.config import load_config
    from shelldon.core.scheduler import SchedulerConfig

    return SchedulerConfig.from_config(load_config(root).scheduler)


def _audit_log(memory: Any) -> Any:
    if memory is None:
        return None
    try:
        audit_module = importlib.import_module("shelldon.core.audit")
    except ImportError:
        return None
    maker = getattr(audit_module, "AuditLog", None)
    return maker(memory.root) if maker is not None else None
