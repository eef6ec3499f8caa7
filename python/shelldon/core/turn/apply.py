"""The turn as core applies it: journaled, then the reply, then the ops through the gate.

Workers propose, core writes. For one owner turn, `apply_turn`:

1. journals the turn (core.turn.journal): its two history rows (secrets blanked) and the items still
to
   apply (the owner's rules and the brain's ops, blanked) in one durable sqlite commit. A reply
   means the turn is stored: history and `shelldon status` count it as soon as the owner has it,
   and a core killed after the reply applies the items at its next start;
2. emits the reply (the brain's, or DEGRADE_TEXT when the worker timed out or the brain failed;
   with SECRET_NOT_KEPT_TEXT added when the owner's message held a credential).
   Only that one commit precedes it: the gate and the file writes never delay the owner. When the
   commit fails (disk full, a damaged store), the reply says the turn could not be saved and
   nothing of the turn is applied;
3. captures the rules the owner stated in the message ("always ...", "never ...", "call me ...",
   shelldon.core.learning.rules) as owner entries, before the model's ops, so an inference proposed
   in the same turn can never replace them;
4. decodes each proposed op on its own (an invalid one is dropped, its reason in the audit log);
   memory ops go through `CuratedMemory.apply_memory_op(op, provenance="inferred")` (the gate);
   `capture_learning` goes to the learnings table with secrets blanked and instruction-shaped
   text refused; `remind` goes to core.proactive.reminders (a refusal, e.g. a time in the past, is
   audited and queued as a notice, since the reply is already out); `forget` deletes an entry the
   model may remove (`CuratedMemory.forget_proposed`: never the owner's); ops only a dream may
   propose are refused on an owner turn. Each item's audit
   lines carry its journal id; the files written are synced once (core.storage.durability), then the
   journal row is cleared.

A degraded turn records DEGRADE_TEXT as the pet's reply. An owner turn whose worker never started
(the fork-server unreachable or busy, the drop refused) is kept the same way, the owner's words with
the degrade (or busy) reply and nothing applied: under a local attack on the fork-server the owner's
message must not vanish silently. A dream or check-in that never started records nothing. Over 400
lines because the applier's branches (rules, memory ops, learnings, refusals) are one job in one
order; core.turn.journal holds the journal's own half.

For tests, SHELLDON_RECORD_PROMPTS=1 makes core ask each worker for the prompt it assembled
(SpawnTurn.capture_prompt; otherwise TurnResult carries none) and append it to
`state/prompts.jsonl` (one JSON object per turn). See docs/turn.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from shelldon import digests
from shelldon.clock import utc_now
from shelldon.contracts import wire
from shelldon.contracts.ops import (
    OP_NAMES,
    CaptureLearning,
    Forget,
    Op,
    Remind,
    ResolveLearning,
    RewriteSummary,
    decode_ops,
    op_name,
)
from shelldon.core.gate import records
from shelldon.core.history.store import HistoryStore, TurnUsage
from shelldon.core.learning import rules
from shelldon.core.learning.corrections import CorrectionLedger
from shelldon.core.memory.audit import AuditLog
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras, MemoryOpError, unit_for
from shelldon.core.outcome import OpVerdict, TurnOutcome
from shelldon.core.owner_rules import extract_rules
from shelldon.core.proactive import reminders
from shelldon.core.reasons import ReasonCode, reason_code
from shelldon.core.runner import record_prompt
from shelldon.core.storage import durability
from shelldon.core.telegram.state import Origin
from shelldon.core.turn import journal
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)

DEGRADE_TEXT = "I lost my train of thought for a moment. Could you say that again?"
BUSY_TEXT = "I'm still busy with something else. Try again in a moment."
EMPTY_REPLY_TEXT = "Okay."
NOT_SAVED_TEXT = "I could not save this turn, so I will not remember any of it."
# The owner's message held a credential: history keeps it blanked and the gate keeps it out of
# memory, so whatever the brain answered ("Got it, I'll remember your wifi password!"), the owner
# is told it is not kept. Not added when the reply already points at the vault (the offline
# brain's own answer does).
SECRET_NOT_KEPT_TEXT = (
    "That looked like a password or a key, so I did not keep it, not even in our chat history. "
    "`shelldon vault set <name>` keeps one locked away."
)

# Worker failures before any brain ran: no rule or op is applied (an owner turn keeps its words).
SPAWN_FAILED_STAGES = wire.NOT_STARTED_STAGES
# Ops a brain may only propose while dreaming (the dream's application lives in core.dream).
DREAM_ONLY_OPS: tuple[type, ...] = (RewriteSummary, ResolveLearning)
MAX_OPS_PER_TURN = 16
MAX_LEARNING_CHARS = 500
MAX_PATTERN_KEY_CHARS = 120
MAX_REASON_CHARS = 200

Emit = Callable[[str, bool], None]


def _clip(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """A reason for the audit log: one line, short, credentials blanked."""
    flat = " ".join(records.blank_record(str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _op_tag(raw: Any) -> str:
    """The op's name for the audit log: only a name the contract knows (a made-up one is the
    model's text, and may be anything)."""
    tag = raw.get("op") if isinstance(raw, dict) else None
    return tag if isinstance(tag, str) and tag in OP_NAMES else "?"


def _audit(
    audit: AuditLog | None,
    turn_id: str,
    verdict: OpVerdict,
    *,
    provenance: str | None = None,
    flags: Sequence[str] = (),
    now: datetime,
) -> None:
    if audit is None:
        return
    try:
        audit.record(
            unit=unit_for(turn_id),  # the same unit the memory writer uses
            op=verdict.op,
            action=verdict.action,
            reason_code=verdict.reason_code,
            reason=verdict.reason,
            target=verdict.target,
            provenance=provenance,
            flags=flags,
            now=now,
        )
    except Exception:  # the audit log must not take the turn down
        log.exception("turn %s: could not write the audit record", turn_id)


class _Applier:
    """Applies one turn's ops and rules; collects a verdict for each."""

    def __init__(
        self,
        *,
        turn_id: str,
        memory: CuratedMemory | None,
        history: HistoryStore | None,
        audit: AuditLog | None,
        now: datetime,
        book: reminders.Book | None = None,
        heard: str = "",
    ) -> None:
        self.turn_id = turn_id
        # The owner's message: the gate takes the owner's (or the pet's) name only from it.
        self.heard = heard
        self.memory = memory
        self.history = history
        self.audit = audit
        self.now = now
        self.book = book
        self.verdicts: list[OpVerdict] = []
        self.captured: list[CaptureLearning] = []

    def note(
        self,
        verdict: OpVerdict,
        *,
        audit_here: bool = True,
        prov: str = "",
        flags: Sequence[str] = (),
    ) -> None:
        """Keep the verdict; write it to the audit log unless the gate's writer already did."""
        self.verdicts.append(verdict)
        if audit_here:
            _audit(
                self.audit,
                self.turn_id,
                verdict,
                provenance=prov or None,
                flags=flags,
                now=self.now,
            )
        level = logging.WARNING if verdict.action == "reject" else logging.INFO
        what = f"{verdict.op} -> {verdict.action} ({verdict.reason_code})"
        log.log(level, "turn %s: %s", self.turn_id, what)

    def reject(
        self, index: int, op: str, code: ReasonCode, reason: str, *, refused: str | None = None
    ) -> None:
        """`refused`: the text a screen refused. The audit keeps its sha256, never the text (as
        the memory writer's refusals do), enough to match it against a later copy."""
        flags: tuple[str, ...] = ()
        if refused is not None:
            digest = digests.sha256_hex(refused.encode("utf-8", "surrogatepass"))
            flags = (f"text-sha256:{digest}",)
        self.note(OpVerdict(index, op, "reject", code, _clip(reason)), flags=flags)

    def rule(self, item: journal.RuleItem) -> None:
        """One of the owner's rules, through the gate as an owner entry (audited by the writer)."""
        if self.memory is None:
            return
        try:
            applied = rules.capture_rule(self.memory, item.rule(), turn_id=self.turn_id)
        except Exception:  # a broken rule must not take the turn down
            log.exception("turn %s: owner-rule capture failed", self.turn_id)
            return
        if applied is not None:
            self.note(self._verdict(-1, "owner_rule", applied), audit_here=False)

    def refused_before_ops(self, raws: Sequence[Any], dropped_by_parser: Sequence[str]) -> None:
        """What never became an item: the reply parser's drops and the ops past the cap."""
        for reason in dropped_by_parser:
            self.reject(-1, "?", "parser_dropped", reason)
        if len(raws) > MAX_OPS_PER_TURN:
            self.reject(
                MAX_OPS_PER_TURN,
                "?",
                "too_many_ops",
                f"{len(raws) - MAX_OPS_PER_TURN} ops past the cap of {MAX_OPS_PER_TURN} ignored",
            )

    def op(self, item: journal.OpItem) -> None:
        ops, bad = decode_ops([item.raw])
        if bad:
            self.reject(item.index, _op_tag(item.raw), "invalid", bad[0][1])
            return
        self._one(item.index, ops[0])

    def item(self, item: journal.Item) -> None:
        if isinstance(item, journal.RuleItem):
            self.rule(item)
        else:
            self.op(item)

    def refuse(self, item: journal.Item, reason: str) -> None:
        """A replayed item that may not be applied as the journal kept it."""
        if isinstance(item, journal.RuleItem):
            self.reject(-1, "owner_rule", "secret", reason)
        else:
            self.reject(item.index, _op_tag(item.raw), "secret", reason)

    def _one(self, index: int, op: Op) -> None:
        name = op_name(op)
        if isinstance(op, DREAM_ONLY_OPS):
            self.reject(index, name, "dream_only", f"{name} is only applied by a dream")
        elif isinstance(op, CaptureLearning):
            self._learning(index, op)
        elif isinstance(op, Remind):
            self._remind(index, op)
        elif isinstance(op, Forget):
            self._forget(index, op)
        else:
            self._memory_op(index, name, op)

    def _verdict(self, index: int, op: str, applied: Any) -> OpVerdict:
        """What apply_memory_op returned (the gate's decision, resolved to a file) as a verdict."""
        target = getattr(applied, "target", None)
        where: str | None = None
        if isinstance(target, Path) and self.memory is not None:
            try:
                where = str(target.relative_to(self.memory.root))
            except ValueError:
                where = target.name
        return OpVerdict(
            index=index,
            op=op,
            action=str(getattr(applied, "action", "?")),
            reason_code=reason_code(str(getattr(applied, "reason_code", "") or "")),
            reason=_clip(getattr(applied, "reason", "") or ""),
            target=where,
        )

    def _memory_op(self, index: int, name: str, op: Any) -> None:
        if self.memory is None:
            self.reject(index, name, "store_unavailable", "the memory tree is not open")
            return
        try:
            applied = self.memory.apply_memory_op(
                op,
                provenance="inferred",
                turn_id=self.turn_id,
                extras=EntryExtras(heard=self.heard),
            )
        except MemoryOpError as exc:  # invalid: refused, and already audited by the writer
            self.note(
                OpVerdict(index, name, "reject", "invalid", _clip(str(exc))),
                audit_here=False,
            )
            return
        except OSError as exc:
            self.reject(index, name, "write_failed", f"{type(exc).__name__}: errno {exc.errno}")
            return
        except Exception as exc:
            log.exception("turn %s: applying %s failed", self.turn_id, name)
            self.reject(index, name, "apply_failed", type(exc).__name__)
            return
        # The memory writer audits its own decisions (one line per gate decision).
        self.note(self._verdict(index, name, applied), audit_here=False)

    def _forget(self, index: int, op: Forget) -> None:
        """The model's `forget`: core deletes an entry it may remove (never the owner's)."""
        if self.memory is None:
            self.reject(index, "forget", "store_unavailable", "the memory tree is not open")
            return
        # The name is the model's text, quoted by a not-found refusal: screened like any field
        # (a secret or an order named as an entry reached the audit log verbatim).
        refusal = records.screen_name(op.name)
        if refusal is not None:
            self.reject(index, "forget", refusal.code, f"name: {refusal.message}", refused=op.name)
            return
        try:
            rec = self.memory.forget_proposed(op.collection, op.name, turn_id=self.turn_id)
        except OSError as exc:
            self.reject(index, "forget", "write_failed", f"{type(exc).__name__}: errno {exc.errno}")
            return
        verdict = OpVerdict(
            index, "forget", rec.action, rec.reason_code, _clip(rec.reason), rec.target
        )
        self.note(verdict, audit_here=False)

    def _learning(self, index: int, op: CaptureLearning) -> None:
        name = "capture_learning"
        if self.history is None:
            self.reject(index, name, "store_unavailable", "history.db is not open")
            return
        if len(op.observation) > MAX_LEARNING_CHARS:
            self.reject(index, name, "too_long", f"over {MAX_LEARNING_CHARS} characters")
            return
        # A learning is a record (secrets blanked) that the dream may promote to knowledge
        # (instruction-shaped text refused).
        screened = records.screen_record(op.observation)
        if screened.text is None:
            refusal = screened.refusal
            code = refusal.code if refusal is not None else "refused"
            message = refusal.message if refusal is not None else code
            self.reject(index, name, code, message, refused=op.observation)
            return
        observation = screened.text
        key = op.pattern_key
        if key is not None:  # the key is kept beside the observation: screened as it is
            keyed = records.screen_record(key)
            if keyed.text is None:
                refusal = keyed.refusal
                code = refusal.code if refusal is not None else "refused"
                message = refusal.message if refusal is not None else code
                self.reject(index, name, code, f"pattern_key: {message}", refused=key)
                return
            key = keyed.text[:MAX_PATTERN_KEY_CHARS]
        try:
            row_id = self.history.capture_learning(observation, key, self.now)
        except Exception as exc:
            log.exception("turn %s: capture_learning failed", self.turn_id)
            self.reject(index, name, "write_failed", type(exc).__name__)
            return
        if row_id is None:
            self.reject(index, name, "too_short", "empty observation")
            return
        self.captured.append(CaptureLearning(observation=observation, pattern_key=key))
        blanked = " (secrets blanked)" if observation != op.observation else ""
        self.note(
            OpVerdict(
                index,
                name,
                "captured",
                "captured",
                f"pending learning{blanked}",
                f"learnings/{row_id}",
            ),
            prov="inferred",
        )

    def _remind(self, index: int, op: Remind) -> None:
        """A reminder: stored by core.proactive.reminders (its source makes a replay a no-op)."""
        if self.history is None:
            self.reject(index, "remind", "store_unavailable", "history.db is not open")
            return
        book = self.book or reminders.Book(self.history)
        try:
            reminder_id = book.add_op(op, now=self.now, source=f"{self.turn_id}:{index}")
        except reminders.Refused as exc:
            self.reject(index, "remind", exc.code, str(exc), refused=op.text)
            book.notice_refused(op, exc, self.now)
            return
        except Exception as exc:
            log.exception("turn %s: storing a reminder failed", self.turn_id)
            self.reject(index, "remind", "write_failed", type(exc).__name__)
            return
        where = f"reminders/{reminder_id}"
        self.note(OpVerdict(index, "remind", "created", "reminder", "reminder set", where))


def _note_corrections(
    corrections: CorrectionLedger | None,
    turn_id: str,
    message: str,
    captured: list[CaptureLearning],
) -> None:
    """A "no, that's wrong" marks the previous turn's learnings so the dream never promotes them."""
    if corrections is None:
        return
    try:
        corrections.note_turn(turn_id, message, captured)
    except Exception:
        log.exception("turn %s: the correction ledger failed", turn_id)


def apply_turn(
    *,
    root: DataRoot,
    history: HistoryStore | None,
    memory: CuratedMemory | None,
    turn_id: str,
    purpose: str,
    message: str,
    outcome: wire.TurnResult | wire.TurnFailed,
    emit: Emit,
    audit: AuditLog | None = None,
    corrections: CorrectionLedger | None = None,
    now: datetime | None = None,
    book: reminders.Book | None = None,
    origin: Origin | None = None,
) -> TurnOutcome:
    """Apply one worker's outcome. Emits exactly one reply, after the turn is journaled and
    before anything else is written. Never raises for bad ops. A turn from Telegram (`origin`)
    records its update and the reply in the journal's own transaction (core.telegram.state), only
    when the turn is recorded."""
    now = now or utc_now()

    if isinstance(outcome, wire.TurnFailed) and outcome.stage in SPAWN_FAILED_STAGES:
        return _no_worker(history, turn_id, purpose, message, outcome, emit, now, origin)

    if isinstance(outcome, wire.TurnFailed):
        reply, degraded = DEGRADE_TEXT, True
        log.warning("turn %s degraded at %s: %s", turn_id, outcome.stage, _clip(outcome.reason))
    else:
        # What the owner reads is what history keeps: a credential the brain echoed (the owner's
        # own, typed a moment ago) is blanked before it is shown, as a check-in's is
        # (core.proactive.queue), never sent on to a phone's chat in the clear.
        reply = records.blank_record(outcome.reply.strip() or EMPTY_REPLY_TEXT)
        degraded = False

    if purpose != "turn":
        # A dream's ops are applied by core.dream under its own caps and unit; nothing here.
        _emit(emit, turn_id, reply, degraded)
        if isinstance(outcome, wire.TurnResult):
            record_prompt(root, turn_id, purpose, outcome.prompt)
        return TurnOutcome(turn_id, reply, degraded, "degraded" if degraded else "ok", False)

    if records.blank_record(message) != message and "vault" not in reply.lower():
        reply = f"{reply}\n({SECRET_NOT_KEPT_TEXT})"
    raws = list(outcome.ops) if isinstance(outcome, wire.TurnResult) else []
    owner_rules = extract_rules(message) if memory is not None else []
    items = journal.plan(owner_rules, raws[:MAX_OPS_PER_TURN])
    saved, journal_id = journal.save(
        history, turn_id, message, reply, items, now, usage=_usage_of(outcome), origin=origin
    )
    if not saved:
        reply = f"{reply}\n({NOT_SAVED_TEXT})"
    _emit(emit, turn_id, reply, degraded)
    if isinstance(outcome, wire.TurnResult):
        record_prompt(root, turn_id, purpose, outcome.prompt)
    if not saved:  # the owner was told; a turn that is not stored changes nothing
        return TurnOutcome(turn_id, reply, degraded, "degraded" if degraded else "ok", False)

    if audit is None and memory is not None:
        audit = memory.audit  # the same log the gate's writer keeps
    applier = _Applier(
        turn_id=turn_id,
        memory=memory,
        history=history,
        audit=audit,
        now=now,
        book=book,
        heard=records.blank_record(message),
    )
    dropped = outcome.dropped if isinstance(outcome, wire.TurnResult) else ()
    synced = True
    try:
        # The files this writes are synced once, at the end (core.storage.durability): the journal
        # row, durable since before the reply, is cleared only after that.
        with durability.one_sync():
            # The owner's rules first (so a same-turn inference cannot replace them), then ops.
            for position, item in enumerate(items):
                if isinstance(item, journal.RuleItem):
                    journal.apply(applier, journal_id, position, item)
            applier.refused_before_ops(raws, dropped)
            for position, item in enumerate(items):
                if isinstance(item, journal.OpItem):
                    journal.apply(applier, journal_id, position, item)
    except durability.SyncFailed as exc:  # told like a failed write; the journal replays it
        synced = False
        log.error("turn %s: syncing its writes failed (%s); the journal replays it", turn_id, exc)
        applier.verdicts.append(
            OpVerdict(-1, "sync", "reject", "write_failed", f"OSError: errno {exc.errno}")
        )
    _note_corrections(corrections, turn_id, message, applier.captured)
    if journal_id is not None and synced:
        journal.clear(history, journal_id)
    return TurnOutcome(
        turn_id,
        reply,
        degraded,
        "degraded" if degraded else "ok",
        True,
        tuple(applier.verdicts),
    )


def _no_worker(
    history: HistoryStore | None,
    turn_id: str,
    purpose: str,
    message: str,
    outcome: wire.TurnFailed,
    emit: Emit,
    now: datetime,
    origin: Origin | None,
) -> TurnOutcome:
    """No worker ran. An owner turn is kept as a degraded turn (journaled before the reply, like
    any); nothing of it is applied, the owner is asked to say it again."""
    text = BUSY_TEXT if outcome.stage == "busy" else DEGRADE_TEXT
    reason = _clip(outcome.reason)
    if purpose != "turn":
        _emit(emit, turn_id, text, True)
        log.warning("turn %s: no worker (%s: %s): nothing recorded", turn_id, outcome.stage, reason)
        return TurnOutcome(turn_id, text, True, "spawn_failed", recorded=False)
    saved, _ = journal.save(history, turn_id, message, text, [], now, origin=origin)
    log.warning(
        "turn %s: no worker (%s: %s): kept as a degraded turn", turn_id, outcome.stage, reason
    )
    if not saved:
        text = f"{text}\n({NOT_SAVED_TEXT})"
    _emit(emit, turn_id, text, True)
    return TurnOutcome(turn_id, text, True, "spawn_failed", recorded=saved)


def replay_journal(
    history: HistoryStore | None,
    memory: CuratedMemory | None,
    audit: AuditLog | None = None,
    book: reminders.Book | None = None,
    *,
    after_boot: bool = False,
) -> int:
    """At core start: apply the items a killed core journaled but had not applied, each once
    (core.turn.journal.replay; `after_boot`: the machine booted since, core.storage.durability).
    Returns how many were applied now."""
    if history is None or memory is None:
        return 0

    audit_log = audit or memory.audit

    def applier_for(turn_id: str, when: datetime) -> _Applier:
        return _Applier(
            turn_id=turn_id, memory=memory, history=history, audit=audit_log, now=when, book=book
        )

    try:
        return journal.replay(history, audit_log, applier_for, after_boot=after_boot)
    except Exception:  # the rows stay journaled: the next start tries again
        log.exception("replaying the turn journal failed; core starts without it")
        return 0


def _usage_of(outcome: wire.TurnResult | wire.TurnFailed) -> TurnUsage | None:
    """The provider's usage figures for this turn, recorded with its history rows."""
    if not isinstance(outcome, wire.TurnResult) or not outcome.provider:
        return None
    usage = outcome.usage
    return TurnUsage(
        provider=outcome.provider,
        prompt_tokens=usage.prompt_tokens if usage else None,
        completion_tokens=usage.completion_tokens if usage else None,
    )


def _emit(emit: Emit, turn_id: str, text: str, degraded: bool) -> None:
    try:
        emit(text, degraded)
    except Exception:  # the owner went away: the turn is still applied and recorded
        log.exception("turn %s: emitting the reply failed", turn_id)
