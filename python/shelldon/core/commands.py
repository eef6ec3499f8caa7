"""The owner commands (`/help`, `/status`, `/memory`, `/forget N`, `/undo`, `/quiet`,
`/reminders`), handled once for every transport.

The terminal chat sends `OwnerCommand`; the Telegram poller forwards the owner's message and core
recognises the command there. Both land in `run_command`: a table from name to a handler
`(ctx, arg) -> reply text`. A handler never raises for the owner's input; a refusal is a reply.
None of them reaches a worker or a model.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from shelldon.clock import compact
from shelldon.config import ConfigError, load_config
from shelldon.contracts.commands import OWNER_COMMANDS
from shelldon.contracts.text import small_number
from shelldon.core.dream.undo import undo_dream_learnings
from shelldon.core.memory.audit import AuditRecord, FileChange, UndoError
from shelldon.core.memory.derived import derived_targets, reflect_unit_of, turn_unit_of
from shelldon.core.memory.entry import Entry
from shelldon.core.proactive.service import command_quiet, command_reminders, command_timezone
from shelldon.core.stores import Stores

log = logging.getLogger(__name__)

COMMAND_UNIT = "owner-command"  # the audit unit of a /forget or /undo
MAX_LISTED = 50


@dataclass(frozen=True)
class CommandContext:
    stores: Stores
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    # `shelldon status` as text (core.server builds it: processes, last turn, pairing).
    status_text: Callable[[], str] | None = None


Handler = Callable[[CommandContext, str], str]


# How the owner gives the pet a real model (docs/config.md, docs/brain.md).
MODEL_HELP = (
    "Without a model I think with simple offline rules. To give me a real one, add a "
    '[[provider]] to shelldon.toml (kind = "openai" or "anthropic", base_url, model, key), keep '
    "its key with `shelldon vault set <key name>`, then restart me; docs/config.md has examples."
)


def model_help(models: list[str]) -> str:
    """What /help says about the brain: the model that answers, or how to give the pet one."""
    if not models:
        return MODEL_HELP
    return (
        f"I think with a model ({', '.join(models)}, from shelldon.toml); when it cannot answer, "
        "simple offline rules step in, and `shelldon status` says which answered last."
    )


def configured_models(ctx: CommandContext) -> list[str]:
    """The providers shelldon.toml names that are models (not the offline brain). A config that
    does not load (the broker would refuse it too) names none."""
    try:
        config = load_config(ctx.stores.root)
    except ConfigError:
        return []
    return [spec.name or spec.kind for spec in config.chain if spec.kind != "offline"]


def command_help(ctx: CommandContext, arg: str) -> str:
    lines = ["I understand:"]
    lines.extend(f"/{name} - {what}" for name, what in OWNER_COMMANDS)
    lines.append("Anything else is just talking to me.")
    lines.append(model_help(configured_models(ctx)))
    return "\n".join(lines)


def command_status(ctx: CommandContext, arg: str) -> str:
    if ctx.status_text is None:
        return "I cannot see my status from here."
    return ctx.status_text()


def _active_entries(ctx: CommandContext) -> list[Entry]:
    return [e for e in ctx.stores.memory.entries() if e.meta.status != "superseded"]


def _title(entry: Entry) -> str:
    first = entry.body.strip().split("\n")[0] if entry.body.strip() else entry.stem
    return " ".join((entry.meta.title or first).split())[:80]


def command_memory(ctx: CommandContext, arg: str) -> str:
    entries = _active_entries(ctx)
    if not entries:
        return "I keep nothing about you yet."
    lines = [f"I keep {len(entries)} thing{'s' if len(entries) != 1 else ''}:"]
    for number, entry in enumerate(entries[:MAX_LISTED], start=1):
        lines.append(f"{number}. {_title(entry)} ({entry.collection})")
    if len(entries) > MAX_LISTED:
        lines.append(f"... and {len(entries) - MAX_LISTED} more (`shelldon memory list`).")
    lines.append("/forget N forgets one.")
    return "\n".join(lines)


def command_forget(ctx: CommandContext, arg: str) -> str:
    number = small_number(arg)
    if number is None:
        return "Which one? /memory numbers them; then /forget N."
    entries = _active_entries(ctx)
    if not 1 <= number <= len(entries):
        return f"There is no {number} in /memory (it has {len(entries)})."
    entry = entries[number - 1]
    memory = ctx.stores.memory
    derived = _derived_from(ctx, f"{entry.collection}/{entry.stem}.md")
    # With what the pet derived from it, one unit: /undo brings them back together.
    unit = f"{COMMAND_UNIT}-forget-{compact(ctx.now)}-{entry.stem}" if derived else COMMAND_UNIT
    try:
        rec = memory.forget(f"{entry.collection}/{entry.stem}", unit=unit)
    except LookupError:
        return "That one is already gone; /memory shows what is left."
    for name in derived:
        with contextlib.suppress(LookupError):  # gone meanwhile
            memory.forget(name, unit=unit, by="the owner (derived from a forgotten entry)")
    log.info(
        "owner command: forgot %s (change %s) and %d derived", rec.target, rec.id, len(derived)
    )
    also = f" (and {len(derived)} thing{'s' if len(derived) > 1 else ''} I had learnt from it)"
    return f"Forgotten: {_title(entry)}{also if derived else ''}. /undo brings it back."


def _derived_from(ctx: CommandContext, target: str) -> list[str]:
    """The pet's own entries (never the owner's) its reflection wrote from `target`'s turn, as
    "collection/stem" names (core.memory.derived)."""
    kept = {
        f"{e.collection}/{e.stem}.md": e
        for e in ctx.stores.memory.entries()
        if e.meta.provenance != "owner"
    }
    records = ctx.stores.memory.audit.records()
    return [t.removesuffix(".md") for t in derived_targets(records, target) if t in kept]


@dataclass(frozen=True)
class _Undoable:
    label: str  # a change id (one owner edit) or a unit ("turn-…", "dream-3")
    records: list[AuditRecord]
    single: bool


def _last_undoable(records: list[AuditRecord]) -> _Undoable | None:
    """The newest change not undone yet. A turn's or a dream's unit goes back as a whole; a
    single owner edit (the CLI's, a command's: units many edits share) by its change id."""
    undone = {r.undoes for r in records if r.undoes}
    for rec in reversed(records):
        if rec.op == "undo" or not rec.file_changes:
            continue
        if rec.unit in ("cli", COMMAND_UNIT):
            if rec.id not in undone:
                return _Undoable(rec.id, [rec], single=True)
            continue
        if rec.unit not in undone:
            return _Undoable(rec.unit, [r for r in records if r.unit == rec.unit], single=False)
    return None


def command_undo(ctx: CommandContext, arg: str) -> str:
    memory = ctx.stores.memory
    found = _last_undoable(list(memory.audit.records()))
    if found is None:
        return "There is nothing of mine to undo."
    label = found.label
    try:
        if found.single:
            done = memory.undo_change(label, unit=COMMAND_UNIT)
        elif (pair := _turn_and_reflection(list(memory.audit.records()), label)) is not None:
            # A turn and what the pet's reflection derived from it go back together.
            first = memory.undo_unit(pair[0], unit=COMMAND_UNIT)
            then = memory.undo_unit(pair[1], unit=COMMAND_UNIT)
            done = dataclasses.replace(then, changes=(*first.changes, *then.changes))
        else:
            done = memory.undo_unit(label, unit=COMMAND_UNIT)
            if label.startswith("dream-") and label[6:].isdigit():
                # What the dream did to the learnings goes back too (as `memory undo --dream`).
                undo_dream_learnings(
                    [r.to_json() for r in found.records], int(label[6:]), ctx.stores.history
                )
    except UndoError as exc:
        return f"I cannot undo that: {exc}"
    said = undo_wording(done.changes)
    log.info("owner command: undid %s (%s)", label, said)
    return f"Undone ({label}): {said}."


def _turn_and_reflection(records: list[AuditRecord], label: str) -> tuple[str, str] | None:
    """(reflect-<id>, turn-<id>) when `label` is one of them and the other has changes not
    undone yet; None otherwise."""
    reflect = reflect_unit_of(label) or (label if turn_unit_of(label) else None)
    turn = turn_unit_of(label) or (label if reflect_unit_of(label) else None)
    if reflect is None or turn is None:
        return None
    undone = {r.undoes for r in records if r.undoes}
    other = turn if label == reflect else reflect
    if other in undone or not any(r.unit == other and r.file_changes for r in records):
        return None
    return reflect, turn


def undo_wording(changes: tuple[FileChange, ...]) -> str:
    """What an undo did, file by file: an entry it removed (the change had created it), one it
    brought back (the change had forgotten it), one put back as it was before."""
    removed = [c.target for c in changes if c.after_sha256 is None and c.before_sha256]
    back = [c.target for c in changes if c.before_sha256 is None and c.after_sha256]
    earlier = [c.target for c in changes if c.before_sha256 and c.after_sha256]
    parts = []
    if removed:
        parts.append("removed " + ", ".join(removed))
    if back:
        parts.append("brought back " + ", ".join(back))
    if earlier:
        parts.append("put back the earlier " + ", ".join(earlier))
    return "; ".join(parts) or "nothing to change"


COMMANDS: dict[str, Handler] = {
    "help": command_help,
    "status": command_status,
    "memory": command_memory,
    "forget": command_forget,
    "undo": command_undo,
    "quiet": command_quiet,
    "reminders": command_reminders,
    "timezone": command_timezone,
}


def run_command(ctx: CommandContext, name: str, arg: str = "") -> str:
    """The reply to one owner command. An unknown one gets a pointer to /help."""
    handler = COMMANDS.get(name.lower().lstrip("/"))
    if handler is None:
        return f"I do not know /{name}. /help lists what I understand."
    try:
        return handler(ctx, arg)
    except Exception:  # a broken handler must not cost the owner an answer
        log.exception("owner command /%s failed", name)
        return f"/{name} failed on my side; the log says why."
