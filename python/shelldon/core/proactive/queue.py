"""The proactive queue: what the pet says first (a reminder, a check-in, a notice), kept in
history.db until a transport delivers it.

- `enqueue_in(conn, …)` adds an item inside a caller's transaction: a reminder is marked fired in
  the same transaction that queues its message (core.proactive.reminders), so it is never lost and
  never queued twice.
- `pending(history, limit)` is what a transport fetches (oldest first). An item stays pending until
  `delivered(history, ids, channel, now)` names it, so a transport that dies between fetching and
  sending sends it again at its next start: delivered at least once, and marked once.
- A delivered item becomes a pet row in the history (turn id `proactive-<id>`), in the same
  transaction that marks it delivered: history shows what the owner was actually told and when,
  so the owner's answer follows it in the recent window and recall finds both. An item nobody
  read is not yet part of the conversation, so it is not in the history either.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Literal

from shelldon.core.gate import records
from shelldon.core.history.store import HistoryStore

Kind = Literal["reminder", "checkin", "notice"]
KINDS: Final = ("reminder", "checkin", "notice")
MAX_FETCH: Final = 100
# Counted as Telegram counts (UTF-16 units: an emoji is two), so an item is always one message
# under the Bot API's 4,096.
MAX_ITEM_UNITS: Final = 4_000
CHANNELS: Final = ("telegram", "terminal")


@dataclass(frozen=True)
class QueueItem:
    id: int
    kind: str
    text: str
    created: str  # ISO-8601 UTC
    late: bool
    reminder_id: int | None = None


def iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("proactive timestamps must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def enqueue_in(
    conn: sqlite3.Connection,
    kind: Kind,
    text: str,
    now: datetime,
    *,
    late: bool = False,
    reminder_id: int | None = None,
) -> int:
    """Queue one item inside the caller's transaction. The text is a record: credentials blanked."""
    if kind not in KINDS:
        raise ValueError(f"unknown proactive kind {kind!r}")
    clean = _fit(records.blank_record(text).strip())
    row = conn.execute(
        "INSERT INTO proactive_queue (kind, text, created, late, reminder_id) "
        "VALUES (?, ?, ?, ?, ?) RETURNING id",
        (kind, clean, iso(now), int(late), reminder_id),
    ).fetchone()
    return int(row[0])


def _fit(text: str) -> str:
    encoded = text.encode("utf-16-le")
    if len(encoded) <= 2 * MAX_ITEM_UNITS:
        return text
    # A cut through an emoji's surrogate pair drops its half.
    return encoded[: 2 * MAX_ITEM_UNITS].decode("utf-16-le", errors="ignore")


def enqueue(
    history: HistoryStore, kind: Kind, text: str, now: datetime, *, late: bool = False
) -> int:
    """Queue one item in its own durable transaction."""
    with history.writing(durable=True) as conn:
        return enqueue_in(conn, kind, text, now, late=late)


def _item(row: tuple[object, ...]) -> QueueItem:
    reminder = row[5]
    return QueueItem(
        id=int(str(row[0])),
        kind=str(row[1]),
        text=str(row[2]),
        created=str(row[3]),
        late=bool(row[4]),
        reminder_id=int(str(reminder)) if reminder is not None else None,
    )


def pending(history: HistoryStore, limit: int = 20, *, kind: Kind | None = None) -> list[QueueItem]:
    """Undelivered items, oldest first, at most `limit` (capped at MAX_FETCH)."""
    limit = max(0, min(int(limit), MAX_FETCH))
    where = "delivered IS NULL" + (" AND kind = ?" if kind else "")
    args: tuple[object, ...] = (kind, limit) if kind else (limit,)
    with history.reading() as conn:
        rows = conn.execute(
            "SELECT id, kind, text, created, late, reminder_id FROM proactive_queue "
            f"WHERE {where} ORDER BY id LIMIT ?",
            args,
        ).fetchall()
    return [_item(tuple(row)) for row in rows]


def delivered(history: HistoryStore, ids: tuple[int, ...], channel: str, now: datetime) -> int:
    """Mark the named items delivered and record each as a pet row in the history, in one durable
    transaction. Items already delivered (a re-send) or unknown are skipped. Returns how many were
    marked now."""
    if channel not in CHANNELS:
        raise ValueError(f"unknown channel {channel!r}")
    wanted = sorted({int(i) for i in ids if isinstance(i, int) and not isinstance(i, bool)})
    if not wanted:
        return 0
    stamp = now.astimezone(UTC).isoformat()
    marked = 0
    with history.writing(durable=True) as conn:
        for item_id in wanted:
            row = conn.execute(
                "UPDATE proactive_queue SET delivered = ?, channel = ? "
                "WHERE id = ? AND delivered IS NULL RETURNING text",
                (iso(now), channel, item_id),
            ).fetchone()
            if row is None:
                continue
            conn.execute(
                "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, 'pet', ?, ?)",
                (f"proactive-{item_id}", str(row[0]), stamp),
            )
            marked += 1
    return marked


def last_created(history: HistoryStore, kind: Kind) -> str | None:
    """When the newest item of `kind` was queued (ISO-8601 UTC), or None."""
    with history.reading() as conn:
        row = conn.execute(
            "SELECT created FROM proactive_queue WHERE kind = ? ORDER BY id DESC LIMIT 1", (kind,)
        ).fetchone()
    return str(row[0]) if row else None
