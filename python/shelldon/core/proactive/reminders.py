"""Reminders: resolved, stored durably in history.db, fired once.

- `resolve(op, …)` turns a proposed `Remind` op into a moment: a relative offset from now, or a
  local time in a zone (the owner's when the op names none). A time in the past, an unknown zone,
  a text the gate refuses (a secret, instruction-shaped text), an empty or overlong text, or a
  time more than MAX_AHEAD away is refused with a reason code (`Refused`). A recurring reminder
  whose first time already passed starts at its next occurrence.
- `add(history, …)` stores it in one durable transaction that also checks the cap on pending
  reminders. `source` (the turn and the op's index) is unique: a journal replay of the same op
  adds nothing.
- `fire_due(history, clocks)` fires what is due: each reminder is marked fired (or rescheduled,
  when it repeats) in the same durable transaction that queues its message (core.proactive.queue),
  so a kill at any point leaves it either pending or fired-and-queued, never both, never neither.
  One that came due while the pet was off fires at the next start, marked late. A recurring one
  that missed several occurrences fires once, late, and moves to its next occurrence after now.
- The clock rule: a relative reminder set while the wall clock was not synchronised also keeps a
  monotonic deadline on that boot (boot id + seconds since boot). On the same boot it fires by
  the monotonic clock alone, so a wall clock that jumps (timesyncd's first answer on a Pi without
  a real-time clock) never fires it early; after a reboot the monotonic deadline means nothing,
  so it falls back to the wall clock and is marked late.

Firing needs no model call and ignores the budget, cooldown, battery, quiet hours and /quiet.

Over 400 lines: resolving, storing and firing share the row's shape and the clock rule,
and `Book` (what a turn holds) ties them together; split, each part would import the others.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from shelldon.contracts.ops import REMIND_MAX_AHEAD_SECONDS, Remind
from shelldon.core import gate
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive.owner_time import Clocks
from shelldon.core.reasons import ReasonCode

log = logging.getLogger(__name__)

MAX_TEXT_CHARS: Final = 300
DEFAULT_MAX_PENDING: Final = 50
MAX_AHEAD: Final = timedelta(seconds=REMIND_MAX_AHEAD_SECONDS)
LATE_AFTER: Final = timedelta(minutes=2)  # fired this long after its time: "late"
_COLUMNS: Final = (
    "id, text, due, zone, repeat, local_at, boot_id, mono_due, status, created, fired, last_fired"
)


class Refused(ValueError):
    """A reminder core will not keep. `code` is short and stable (the audit's reason code); the
    message is one line for the owner, never echoing a secret."""

    def __init__(self, code: ReasonCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Resolved:
    """A reminder's moment, as stored."""

    text: str
    due: datetime  # UTC, the wall-clock moment it fires
    zone: str
    repeat: str = ""  # "" | "daily" | "weekly"
    local_at: str = ""  # "HH:MM" in `zone`, for a repeat
    boot_id: str | None = None  # set: fire by the monotonic deadline on that boot
    mono_due: float | None = None


@dataclass(frozen=True)
class Reminder:
    id: int
    text: str
    due: datetime
    zone: str
    repeat: str
    local_at: str
    boot_id: str | None
    mono_due: float | None
    status: str
    created: str
    fired: int
    last_fired: str | None


@dataclass(frozen=True)
class Fired:
    reminder_id: int
    item_id: int
    late: bool
    next_due: datetime | None  # a repeat's next occurrence


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _parse(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _clean_text(text: str) -> str:
    flat = " ".join(str(text).split())
    if not flat:
        raise Refused("empty", "a reminder needs something to remind you of")
    if len(flat) > MAX_TEXT_CHARS:
        raise Refused("too_long", f"a reminder's text is at most {MAX_TEXT_CHARS} characters")
    # A reminder's text is the owner's own errand ("remind me to <text>"): the records rules
    # do not refuse "email the member list to secretary@club.example" (gate.screen_owners_task).
    refusal = gate.screen_owners_task(flat)
    if refusal is not None:
        if refusal.code == "secret":
            raise Refused("secret", "that reminder holds something like a password or key")
        raise Refused("instruction", "that reminder reads like instructions, not a reminder")
    return flat


def _local_at(value: str) -> time:
    hours, minutes = value.split(":")
    return time(int(hours), int(minutes))


def next_occurrence(
    repeat: str, local_at: str, zone_name: str, weekday: int, after: datetime
) -> datetime:
    """The first daily (or weekly, on `weekday`, Monday = 0) occurrence of `local_at` in the
    zone that is strictly after `after`. Computed on local dates, so it keeps its local hour
    across a daylight-saving change."""
    tz = owner_time.zone(zone_name)
    local_after = after.astimezone(tz)
    at = _local_at(local_at)
    day: date = local_after.date()
    step = 7 if repeat == "weekly" else 1
    if repeat == "weekly":
        day += timedelta(days=(weekday - day.weekday()) % 7)
    candidate = datetime.combine(day, at, tzinfo=tz)
    while candidate.astimezone(UTC) <= after.astimezone(UTC):
        day += timedelta(days=step)
        candidate = datetime.combine(day, at, tzinfo=tz)
    return candidate.astimezone(UTC)


def _parse_at(value: str, tz: ZoneInfo) -> datetime:
    text = value.strip().replace(" ", "T", 1)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise Refused("invalid", "a reminder's time must look like 2026-12-24T10:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    return moment


def resolve(
    op: Remind,
    *,
    now: datetime,
    owner_zone: str,
    mono: float = 0.0,
    boot_id: str = "",
    synced: bool = True,
) -> Resolved:
    """The moment a proposed reminder fires. Raises Refused (see the module docstring)."""
    text = _clean_text(op.text)
    seconds = op.in_seconds
    if (seconds is None) == (op.at is None):
        raise Refused("invalid", "a reminder needs either an offset or a time, not both")
    if seconds is not None:
        if isinstance(seconds, bool):
            raise Refused("invalid", "a reminder's offset must be a number of seconds")
        if op.repeat is not None:
            raise Refused("invalid", "a repeating reminder needs a time of day")
        if seconds <= 0:
            raise Refused("past", "that time has already passed")
        if seconds > REMIND_MAX_AHEAD_SECONDS:  # compared as a number: 2**62 is no timedelta
            raise Refused("too_far", "that is too far ahead for a reminder")
        due = now + timedelta(seconds=seconds)
        zone_name = owner_zone
        if not synced and boot_id:
            return Resolved(
                text, due.astimezone(UTC), zone_name, boot_id=boot_id, mono_due=mono + seconds
            )
        return Resolved(text, due.astimezone(UTC), zone_name)
    zone_name = (op.zone or owner_zone).strip()
    try:
        tz = owner_time.zone(zone_name)
    except owner_time.UnknownZone as exc:
        raise Refused("unknown_zone", str(exc)) from None
    assert op.at is not None
    moment = _parse_at(op.at, tz)
    local = moment.astimezone(tz)
    due = moment.astimezone(UTC)
    if op.repeat is not None:
        local_at = f"{local:%H:%M}"
        if due <= now:
            due = next_occurrence(op.repeat, local_at, zone_name, local.weekday(), now)
        return Resolved(text, due, zone_name, repeat=op.repeat, local_at=local_at)
    if due <= now:
        raise Refused(
            "past", f"{owner_time.describe_local(due, zone_name)} ({zone_name}) has already passed"
        )
    if due - now > MAX_AHEAD:
        raise Refused("too_far", "that is too far ahead for a reminder")
    return Resolved(text, due, zone_name)


# --- storage ------------------------------------------------------------------------------------


def add(
    history: HistoryStore,
    resolved: Resolved,
    now: datetime,
    *,
    source: str | None = None,
    max_pending: int = DEFAULT_MAX_PENDING,
) -> int:
    """Store a resolved reminder durably; its id. A `source` already stored (a replayed op) gives
    that reminder's id and adds nothing. Raises Refused("cap") at `max_pending` pending ones."""
    with history.writing(durable=True) as conn:
        if source is not None:
            row = conn.execute("SELECT id FROM reminders WHERE source = ?", (source,)).fetchone()
            if row is not None:
                return int(row[0])
        count = conn.execute("SELECT count(*) FROM reminders WHERE status = 'pending'").fetchone()
        if int(count[0]) >= max_pending:
            raise Refused(
                "cap", f"you already have {max_pending} reminders waiting; cancel one first"
            )
        row = conn.execute(
            "INSERT INTO reminders (text, due, zone, repeat, local_at, boot_id, mono_due, "
            "source, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                resolved.text,
                _iso(resolved.due),
                resolved.zone,
                resolved.repeat,
                resolved.local_at,
                resolved.boot_id,
                resolved.mono_due,
                source,
                _iso(now),
            ),
        ).fetchone()
    return int(row[0])


def _reminder(row: sqlite3.Row | tuple[object, ...]) -> Reminder:
    values = tuple(row)
    mono = values[7]
    return Reminder(
        id=int(str(values[0])),
        text=str(values[1]),
        due=_parse(str(values[2])),
        zone=str(values[3]),
        repeat=str(values[4]),
        local_at=str(values[5]),
        boot_id=str(values[6]) if values[6] is not None else None,
        mono_due=float(str(mono)) if mono is not None else None,
        status=str(values[8]),
        created=str(values[9]),
        fired=int(str(values[10])),
        last_fired=str(values[11]) if values[11] is not None else None,
    )


def pending_reminders(history: HistoryStore) -> list[Reminder]:
    """Every pending reminder, soonest first."""
    with history.reading() as conn:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM reminders WHERE status = 'pending' ORDER BY due, id"
        ).fetchall()
    return [_reminder(row) for row in rows]


def get(history: HistoryStore, reminder_id: int) -> Reminder | None:
    with history.reading() as conn:
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM reminders WHERE id = ?", (reminder_id,)
        ).fetchone()
    return _reminder(row) if row else None


def fired_since(history: HistoryStore, since: datetime) -> list[Reminder]:
    """Reminders that fired at or after `since`, oldest first: what a reflection's digest shows
    as actions the pet saw run (core.learning.service), so what it teaches is `observed`."""
    with history.reading() as conn:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM reminders WHERE last_fired IS NOT NULL AND last_fired >= ? "
            "ORDER BY last_fired, id",
            (_iso(since),),
        ).fetchall()
    return [_reminder(row) for row in rows]


def cancel(history: HistoryStore, reminder_id: int) -> Reminder | None:
    """Cancel a pending reminder: the cancelled reminder, or None when none pending has that id."""
    with history.writing(durable=True) as conn:
        row = conn.execute(
            f"UPDATE reminders SET status = 'cancelled' WHERE id = ? AND status = 'pending' "
            f"RETURNING {_COLUMNS}",
            (reminder_id,),
        ).fetchone()
    return _reminder(row) if row else None


# --- firing -------------------------------------------------------------------------------------


def _verdict(reminder: Reminder, now: datetime, mono: float, boot: str) -> tuple[bool, bool]:
    """(due now, late) for one pending reminder under the clock rule."""
    if reminder.boot_id is not None and reminder.mono_due is not None:
        if boot and reminder.boot_id == boot:
            late = mono - reminder.mono_due > LATE_AFTER.total_seconds()
            return mono >= reminder.mono_due, late
        return now >= reminder.due, True  # another boot: the wall clock, and we cannot be sure
    return now >= reminder.due, now - reminder.due > LATE_AFTER


def message_text(reminder: Reminder, late: bool) -> str:
    """What the owner reads when it fires."""
    if not late:
        return f"Reminder: {reminder.text}"
    when = owner_time.describe_local(reminder.due, reminder.zone)
    return f"Reminder (late: it was due {when}, while I was off): {reminder.text}"


def _fire_one(history: HistoryStore, reminder: Reminder, now: datetime, late: bool) -> Fired | None:
    """Mark it fired (or reschedule a repeat) and queue its message: one durable transaction."""
    next_due: datetime | None = None
    if reminder.repeat:
        weekday = reminder.due.astimezone(owner_time.zone(reminder.zone)).weekday()
        next_due = next_occurrence(reminder.repeat, reminder.local_at, reminder.zone, weekday, now)
    with history.writing(durable=True) as conn:
        changed = conn.execute(
            "UPDATE reminders SET status = ?, due = ?, boot_id = NULL, mono_due = NULL, "
            "fired = fired + 1, last_fired = ? "
            "WHERE id = ? AND status = 'pending' AND due = ?",
            (
                "pending" if next_due is not None else "done",
                _iso(next_due if next_due is not None else reminder.due),
                _iso(now),
                reminder.id,
                _iso(reminder.due),
            ),
        ).rowcount
        if changed != 1:
            return None  # cancelled or changed meanwhile (the CLI): nothing to fire
        item = proactive_queue.enqueue_in(
            conn, "reminder", message_text(reminder, late), now, late=late, reminder_id=reminder.id
        )
    return Fired(reminder.id, item, late, next_due)


def fire_due(history: HistoryStore, clocks: Clocks) -> list[Fired]:
    """Fire every reminder that is due now. Never raises for one bad row (logged, skipped)."""
    now, mono, boot = clocks.wall(), clocks.mono(), clocks.boot_id()
    fired: list[Fired] = []
    for reminder in pending_reminders(history):
        due, late = _verdict(reminder, now, mono, boot)
        if not due:
            continue
        try:
            done = _fire_one(history, reminder, now, late)
        except (sqlite3.Error, ValueError) as exc:
            log.error("reminder %d: could not fire it: %s", reminder.id, exc)
            continue
        if done is not None:
            log.info(
                "reminder %d fired%s (queue item %d)",
                reminder.id,
                " late" if late else "",
                done.item_id,
            )
            fired.append(done)
    return fired


def seconds_until_next(history: HistoryStore, clocks: Clocks) -> float | None:
    """How long until the next pending reminder is due by the clock rule (0: due now); None when
    nothing is pending. For the ticker's wait."""
    now, mono, boot = clocks.wall(), clocks.mono(), clocks.boot_id()
    waits: list[float] = []
    for reminder in pending_reminders(history):
        if (
            reminder.boot_id is not None
            and reminder.mono_due is not None
            and reminder.boot_id == boot
        ):
            waits.append(reminder.mono_due - mono)
        else:
            waits.append((reminder.due - now).total_seconds())
    return max(0.0, min(waits)) if waits else None


def _nothing() -> None:
    pass


@dataclass
class Book:
    """What a turn needs to set a reminder: the store, the clocks, the cap, and whom to wake (the
    ticker, so a reminder due in a minute is not held to the next routine tick)."""

    history: HistoryStore
    clocks: Clocks = field(default_factory=Clocks)
    max_pending: int = DEFAULT_MAX_PENDING
    on_change: Callable[[], None] = _nothing

    def add_op(self, op: Remind, *, now: datetime, source: str | None = None) -> int:
        """Resolve and store a proposed reminder; its id. Raises Refused."""
        resolved = resolve(
            op,
            now=now,
            owner_zone=owner_time.owner_zone(self.history),
            mono=self.clocks.mono(),
            boot_id=self.clocks.boot_id(),
            synced=self.clocks.synced(),
        )
        reminder_id = add(self.history, resolved, now, source=source, max_pending=self.max_pending)
        self.on_change()
        return reminder_id

    def notice_refused(self, op: Remind, refused: Refused, now: datetime) -> None:
        """The owner already has the reply, so a refused reminder is reported as a notice (the
        proactive queue): they learn it was not set, and why. A refused text is not echoed."""
        shown = "" if refused.code in ("secret", "instruction") else _clip(op.text)
        what = f' "{shown}"' if shown else ""
        try:
            proactive_queue.enqueue(
                self.history, "notice", f"I could not set the reminder{what}: {refused}.", now
            )
        except (sqlite3.Error, ValueError) as exc:
            log.error("could not queue the notice for a refused reminder: %s", exc)


def _clip(text: str, limit: int = 80) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
