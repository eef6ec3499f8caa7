"""The turn journal: what an owner turn will change, saved with its history rows before the reply.

A turn's reply means it is stored. Before the reply leaves core, `HistoryStore.journal_turn`
commits, in one durable sqlite transaction, the turn's two history rows and the items still to
apply: the owner's rules (core.learning.rules) and the brain's proposed ops, in the order core
applies them. After the reply, core.turn.apply applies each item under its journal id
(`"<row>.<n>"`, see `item_id`), which the audit log stamps on every line written meanwhile
(core.memory.audit.journal_scope); the items' files are synced once (core.storage.durability), then
the row is cleared. A core killed in between replays the row at its next start, skipping every item
whose id the audit log already holds, so each item is applied once; after a reboot, only those whose
files are also as their lines say.

The journal is a record, like the history rows: every string in it has its credentials blanked
(core.gate.records.blank_record) and the item says so (`blanked`). Replaying a blanked item is
faithful for the kinds that are records themselves (an episode, a learning: both are stored blanked
anyway); for the others (an entry, about.md, an owner rule) the gate refuses secrets, so the replay
refuses the item with reason code "secret" instead of storing the blanks.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgspec

from shelldon.clock import parse_iso, utc_now
from shelldon.core.gate import records
from shelldon.core.history.store import HistoryStore, TurnUsage
from shelldon.core.memory.audit import AuditLog, journal_scope
from shelldon.core.owner_rules import OwnerRule, RuleKind
from shelldon.core.telegram import state as telegram_state

log = logging.getLogger(__name__)

# Ops that are records: stored with their secrets blanked, so a blanked copy stores the same thing.
RECORD_OPS = frozenset({"log_episode", "capture_learning"})


class RuleItem(msgspec.Struct, tag="rule", frozen=True):
    """A rule the owner's message states, applied as an owner entry."""

    kind: RuleKind
    text: str
    words: tuple[str, ...]
    blanked: bool = False

    def rule(self) -> OwnerRule:
        return OwnerRule(self.kind, self.text, self.words)


class OpItem(msgspec.Struct, tag="op", frozen=True):
    """One op the brain proposed, as it came (decoded when applied: a bad one is refused then)."""

    index: int  # its position in the brain's ops
    raw: Any
    blanked: bool = False

    @property
    def name(self) -> str:
        tag = self.raw.get("op") if isinstance(self.raw, dict) else None
        return tag if isinstance(tag, str) else "?"


Item = RuleItem | OpItem
_ITEMS = msgspec.json.Decoder(list[Item])


def plan(rules: Iterable[OwnerRule], ops: Sequence[Any]) -> list[Item]:
    """The items of one turn, in the order core applies them: the owner's rules, then the ops."""
    items: list[Item] = [RuleItem(r.kind, r.text, r.words) for r in rules]
    items.extend(OpItem(index, raw) for index, raw in enumerate(ops))
    return items


def item_id(journal_id: int, position: int) -> str:
    """The id an item's audit lines carry: the journal row, then the item's place in it."""
    return f"{journal_id}.{position}"


def _blank(value: Any, changed: list[bool]) -> Any:
    """`value` with every string blanked; `changed` gets a True for each string that changed."""
    if isinstance(value, str):
        out = records.blank_record(value)
        if out != value:
            changed.append(True)
        return out
    if isinstance(value, dict):
        return {_blank(k, changed): _blank(v, changed) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_blank(v, changed) for v in value]
    return value


def blanked(item: Item) -> Item:
    """The copy the journal keeps: every string with its credentials blanked, and flagged."""
    changed: list[bool] = []
    if isinstance(item, RuleItem):
        text = _blank(item.text, changed)
        words = tuple(_blank(w, changed) for w in item.words)
        return RuleItem(item.kind, text, words, blanked=bool(changed))
    return OpItem(item.index, _blank(item.raw, changed), blanked=bool(changed))


def encode(items: Sequence[Item]) -> str:
    """What the journal row holds: the blanked items, as JSON."""
    return msgspec.json.encode([blanked(item) for item in items]).decode()


def decode(text: str) -> list[Item]:
    """A journal row's items. msgspec.DecodeError/ValidationError when the row is damaged."""
    return _ITEMS.decode(text.encode())


def replay_refusal(item: Item) -> str | None:
    """Why a replayed item must not be applied as it is kept (None: apply it)."""
    if not item.blanked:
        return None
    if isinstance(item, OpItem) and item.name in RECORD_OPS:
        return None  # a record keeps its secrets blanked anyway
    return "it held a credential (blanked in the journal); memory never keeps secrets"


# --- saving, applying, clearing ----------------------------------------------------------------


def _recording(
    origin: telegram_state.Origin | None, reply: str, now: datetime, turn_id: str
) -> Callable[[sqlite3.Connection], None] | None:
    if origin is None:
        return None
    return lambda conn: telegram_state.record_reply(conn, origin, reply, now, turn_id)


def save(
    history: HistoryStore | None,
    turn_id: str,
    owner_text: str,
    pet_text: str,
    items: Sequence[Item],
    now: datetime,
    usage: TurnUsage | None = None,
    origin: telegram_state.Origin | None = None,
) -> tuple[bool, int | None]:
    """The turn's rows (secrets blanked here) and its items, committed durably before the reply:
    (saved, the journal id when the turn has items). Never raises: a failure is (False, None).
    A turn from Telegram (`origin`) records its update and reply in the same transaction."""
    if history is None:
        log.error("turn %s: history.db is not open; the turn is not saved", turn_id)
        return False, None
    try:
        journal_id = history.journal_turn(
            turn_id,
            records.blank_record(owner_text),
            records.blank_record(pet_text),
            now,
            usage=usage,
            items=encode(items) if items else None,
            also=_recording(origin, pet_text, now, turn_id),
        )
    except Exception:
        log.exception("turn %s: journaling the turn failed; nothing of it is applied", turn_id)
        return False, None
    return True, journal_id


def clear(history: HistoryStore | None, journal_id: int) -> None:
    """Every item of the row was applied. A failure is logged: the next start clears it (each
    item is skipped then, by its id in the audit log)."""
    if history is None:
        return
    try:
        history.clear_journal(journal_id)
    except Exception:
        log.exception("journal %d: could not clear it; the next start will", journal_id)


class ItemApplier(Protocol):
    """core.turn.apply' applier, as the journal drives it."""

    def item(self, item: Item) -> None: ...

    def refuse(self, item: Item, reason: str) -> None: ...


def apply(applier: ItemApplier, journal_id: int | None, position: int, item: Item) -> None:
    """Apply one item; every audit line written meanwhile carries its journal id."""
    if journal_id is None:
        applier.item(item)
        return
    with journal_scope(item_id(journal_id, position)):
        applier.item(item)


def replay(
    history: HistoryStore,
    audit: AuditLog,
    applier_for: Callable[[str, datetime], ItemApplier],
    *,
    after_boot: bool = False,
) -> int:
    """Apply the items of every journal row left by a core killed after a reply and before the
    row was cleared. An item whose id the audit log already holds was applied: skipped. With
    `after_boot` (the machine booted since that core ran: a power cut may have dropped writes it
    had not synced, core.storage.durability) an item is skipped only when its files are also as its
    audit lines say. Returns how many items were applied now. `applier_for(turn_id, when)` makes a
    turn's applier."""
    pending = history.pending_journal()
    if not pending:
        return 0
    if after_boot:
        done = audit.surviving_journal_ids(row.id for row in pending)
    else:
        done = audit.journal_ids()
    applied = 0
    for row in pending:
        try:
            items = decode(row.items)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log.error("journal %d (turn %s) is damaged, dropped: %s", row.id, row.turn_id, exc)
            clear(history, row.id)
            continue
        try:
            when = parse_iso(row.ts)
        except ValueError:
            when = utc_now()
        applier = applier_for(row.turn_id, when)
        todo = [(n, item) for n, item in enumerate(items) if item_id(row.id, n) not in done]
        for position, item in todo:
            refusal = replay_refusal(item)
            with journal_scope(item_id(row.id, position)):
                if refusal is None:
                    applier.item(item)
                else:
                    applier.refuse(item, refusal)
        log.warning(
            "turn %s: core stopped before applying it; %d of its %d journaled item(s) applied now",
            row.turn_id,
            len(todo),
            len(items),
        )
        applied += len(todo)
        clear(history, row.id)
    return applied
