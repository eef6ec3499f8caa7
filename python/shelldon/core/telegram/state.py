"""Telegram's state in history.db: the paired chat, the pairing code, the last recorded update,
and the outbox of replies not yet confirmed sent.

The broker polls the Bot API but can write only its run directory, and giving getUpdates a higher
offset is itself Telegram's acknowledgement (everything below it is gone). So core keeps the
bookkeeping, in the same store as the turns: an update is recorded (`record`) in the transaction
that stores its turn, with its reply queued in the outbox; the poller never asks for an offset
past `last_update_id`, and sends what the outbox holds until `confirm` deletes it. A reply is
therefore computed once and sent until confirmed (a crash between sendMessage's success and the
confirmation re-sends it: docs/telegram.md says so).

Telegram numbers updates upwards, but after a week without updates it may start again from a
random number: so a repeat is recognised by its id among the ids recorded lately
(`telegram_updates`, kept RECENT_DAYS), not by comparing with the last one, and a poller that
restarts after a longer silence polls without an offset (`resume_from`).

Pairing: `start_pairing` makes a one-time code (50 bits, 10 minutes) and keeps only its sha256;
five wrong codes close pairing until the next `start_pairing`. Every function takes the store's
connection inside a transaction the caller opened (HistoryStore.write / journal_turn's `also`),
except the readers, which take a HistoryStore or a connection.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, NamedTuple

from shelldon import digests
from shelldon.core.history.store import HistoryStore

MAX_MESSAGE_UNITS = 4096  # the Bot API's sendMessage limit (counted here in UTF-16 code units)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # 32 symbols (5 bits), no 0/O/1/I look-alikes
CODE_LENGTH = 10  # 50 bits
CODE_TTL = timedelta(minutes=10)
MAX_CODE_FAILURES = 5
OUTBOX_BATCH = 50
RECENT_DAYS = 8  # recorded update ids kept this long (Telegram keeps an update at most a day)
RESUME_WITHIN = timedelta(days=6)  # an older last update may be from before a renumbering


@dataclass(frozen=True)
class Snapshot:
    chat_id: int | None
    paired_at: str | None
    last_update_id: int
    last_update_at: str | None
    code_expires: str | None  # None: no code was issued (or it was used)
    code_failures: int
    bot_username: str

    def pairing_open(self, now: datetime) -> bool:
        return (
            self.code_expires is not None
            and self.code_failures < MAX_CODE_FAILURES
            and now.isoformat() < self.code_expires
        )


@dataclass(frozen=True)
class OutboxRow:
    id: int
    chat_id: int
    text: str
    speak: bool = False


PairResult = Literal["paired", "wrong", "closed", "expired", "none"]

_SNAPSHOT = (
    "SELECT chat_id, paired_at, last_update_id, last_update_at, code_expires, code_failures, "
    "bot_username FROM telegram_state WHERE id = 1"
)


@contextlib.contextmanager
def _reading(store: HistoryStore | sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A reader's connection: the one it was given, or the store's under the store's lock."""
    if isinstance(store, sqlite3.Connection):
        yield store
    else:
        with store.reading() as conn:
            yield conn


def snapshot(store: HistoryStore | sqlite3.Connection) -> Snapshot:
    with _reading(store) as conn:
        row = conn.execute(_SNAPSHOT).fetchone()
    if row is None:  # the migration inserts the row; a store edited by hand may lack it
        return Snapshot(None, None, 0, None, None, 0, "")
    return Snapshot(
        chat_id=int(row[0]) if row[0] is not None else None,
        paired_at=row[1],
        last_update_id=int(row[2]),
        last_update_at=row[3],
        code_expires=row[4],
        code_failures=int(row[5]),
        bot_username=str(row[6] or ""),
    )


def paired_chat(store: HistoryStore | sqlite3.Connection) -> int | None:
    """The owner's chat id, or None when no chat is paired."""
    return snapshot(store).chat_id


def last_update_id(store: HistoryStore | sqlite3.Connection) -> int:
    return snapshot(store).last_update_id


def resume_from(store: HistoryStore | sqlite3.Connection, now: datetime) -> int:
    """The update a restarted poller continues after: the last recorded one, unless it is so old
    that Telegram may have renumbered since (then 0: poll without an offset)."""
    snap = snapshot(store)
    if not snap.last_update_at or snap.last_update_at < (now - RESUME_WITHIN).isoformat():
        return 0
    return snap.last_update_id


def seen(store: HistoryStore | sqlite3.Connection, update_id: int) -> bool:
    """Was this update recorded (lately)? Then it is answered from the outbox, not run again."""
    with _reading(store) as conn:
        row = conn.execute(
            "SELECT 1 FROM telegram_updates WHERE update_id = ?", (update_id,)
        ).fetchone()
    return row is not None


# --- pairing ---------------------------------------------------------------------------------


def normalise_code(code: str) -> str:
    """What the owner typed, as issued: upper case, spaces and dashes gone."""
    return re.sub(r"[\s-]+", "", code).upper()


def code_hash(code: str) -> str:
    return digests.sha256_hex(normalise_code(code).encode())


def new_code() -> str:
    return "".join(digests.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def start_pairing(conn: sqlite3.Connection, now: datetime) -> tuple[str, datetime]:
    """A fresh code (any earlier one stops working) and when it expires; the failures reset."""
    code = new_code()
    expires = now + CODE_TTL
    conn.execute(
        "UPDATE telegram_state SET code_hash = ?, code_expires = ?, code_failures = 0 WHERE id = 1",
        (code_hash(code), expires.isoformat()),
    )
    return code, expires


def try_code(conn: sqlite3.Connection, chat_id: int, code: str, now: datetime) -> PairResult:
    """Pair `chat_id` if `code` is the open one: single use, a wrong one counted."""
    row = conn.execute(
        "SELECT code_hash, code_expires, code_failures FROM telegram_state WHERE id = 1"
    ).fetchone()
    if row is None or row[0] is None:
        return "none"
    stored, expires, failures = str(row[0]), str(row[1] or ""), int(row[2])
    if failures >= MAX_CODE_FAILURES:
        return "closed"
    if not expires or now.isoformat() >= expires:
        return "expired"
    if not digests.equal_in_constant_time(stored, code_hash(code)):
        conn.execute("UPDATE telegram_state SET code_failures = code_failures + 1 WHERE id = 1")
        return "wrong"
    conn.execute(
        "UPDATE telegram_state SET chat_id = ?, paired_at = ?, code_hash = NULL, "
        "code_expires = NULL, code_failures = 0 WHERE id = 1",
        (chat_id, now.isoformat()),
    )
    # Replies still queued for an earlier chat are not the new owner's to read.
    conn.execute("DELETE FROM telegram_outbox WHERE chat_id != ?", (chat_id,))
    return "paired"


def failures_left(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT code_failures FROM telegram_state WHERE id = 1").fetchone()
    return max(0, MAX_CODE_FAILURES - int(row[0] if row else MAX_CODE_FAILURES))


def unpair(conn: sqlite3.Connection) -> int | None:
    """Forget the paired chat (and any open code). Returns the chat that was paired."""
    chat = paired_chat(conn)
    conn.execute(
        "UPDATE telegram_state SET chat_id = NULL, paired_at = NULL, code_hash = NULL, "
        "code_expires = NULL, code_failures = 0 WHERE id = 1"
    )
    conn.execute("DELETE FROM telegram_outbox")
    return chat


def set_bot_username(conn: sqlite3.Connection, username: str) -> None:
    conn.execute("UPDATE telegram_state SET bot_username = ? WHERE id = 1", (username[:64],))


# --- updates and the outbox ------------------------------------------------------------------


class Origin(NamedTuple):
    """The Telegram update an owner turn answers: the turn's journal records the update and the
    reply in its own transaction, so a crash can neither lose the reply nor run the update twice."""

    update_id: int
    chat_id: int
    voice: VoiceNote | None = None  # the turn's words came from a voice note
    unseen: str = ""  # the turn's words were a caption: the kind of media the pet could not see


class VoiceNote(NamedTuple):
    kind: str  # "voice" | "audio"
    seconds: int
    heard: str  # the transcript, echoed to the owner before the reply ("I heard: …")


HEARD_ECHO_CHARS = 300  # a long note's echo is cut (the whole transcript is the history row)


def heard_echo(heard: str) -> str:
    """What the owner is shown of what the pet heard, before the reply."""
    words = " ".join(heard.split())
    if len(words) > HEARD_ECHO_CHARS:
        words = words[: HEARD_ECHO_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return f"I heard: “{words}”"


_UNSEEN_NAMES = {"photo": "photos", "video": "videos", "animation": "GIFs", "document": "files"}


def unseen_note(kind: str) -> str:
    """The line under a reply to a caption: what the pet answered, and what it could not see."""
    return f"(I can't see {_UNSEEN_NAMES.get(kind, 'attachments')} yet: I answered your words.)"


def record_reply(
    conn: sqlite3.Connection, origin: Origin, reply: str, now: datetime, turn_id: str = ""
) -> None:
    """In the turn's transaction (core.turn.journal): the update is handled, its reply queued. A
    voice note's turn also records that it was one (`voice_notes`), queues the "I heard" echo
    first, and marks the reply's rows to be spoken. A caption's reply says what was not seen."""
    if origin.unseen:
        reply = f"{reply}\n\n{unseen_note(origin.unseen)}"
    voice = origin.voice
    if voice is None:
        record(conn, origin.update_id, origin.chat_id, [reply], now)
        return
    record(conn, origin.update_id, origin.chat_id, [heard_echo(voice.heard)], now)
    queue(conn, origin.chat_id, [reply], now, update_id=origin.update_id, speak=True)
    if turn_id:
        conn.execute(
            "INSERT OR REPLACE INTO voice_notes (turn_id, update_id, kind, seconds, at) "
            "VALUES (?, ?, ?, ?, ?)",
            (turn_id, origin.update_id, voice.kind, voice.seconds, now.isoformat()),
        )


def record(
    conn: sqlite3.Connection,
    update_id: int,
    chat_id: int,
    texts: Iterable[str],
    now: datetime,
) -> None:
    """The update is handled: remember it, and queue its replies (split to the API's limit)."""
    at = now.isoformat()
    conn.execute(
        "UPDATE telegram_state SET last_update_id = ?, last_update_at = ? WHERE id = 1",
        (update_id, at),
    )
    conn.execute(
        "INSERT OR IGNORE INTO telegram_updates (update_id, at) VALUES (?, ?)", (update_id, at)
    )
    conn.execute(
        "DELETE FROM telegram_updates WHERE at < ?",
        ((now - timedelta(days=RECENT_DAYS)).isoformat(),),
    )
    queue(conn, chat_id, texts, now, update_id=update_id)


def queue(
    conn: sqlite3.Connection,
    chat_id: int,
    texts: Iterable[str],
    now: datetime,
    *,
    update_id: int | None = None,
    speak: bool = False,
) -> int:
    """Queue messages for `chat_id`; returns how many outbox rows (parts) that made."""
    rows = 0
    for text in texts:
        for part in split_message(text):
            conn.execute(
                "INSERT INTO telegram_outbox (chat_id, text, update_id, created, speak) "
                "VALUES (?, ?, ?, ?, ?)",
                (chat_id, part, update_id, now.isoformat(), int(speak)),
            )
            rows += 1
    return rows


def outbox(store: HistoryStore | sqlite3.Connection, limit: int = OUTBOX_BATCH) -> list[OutboxRow]:
    """Replies recorded and not yet confirmed sent, oldest first."""
    with _reading(store) as conn:
        rows = conn.execute(
            "SELECT id, chat_id, text, speak FROM telegram_outbox ORDER BY id LIMIT ?", (limit,)
        ).fetchall()
    return [OutboxRow(int(r[0]), int(r[1]), str(r[2]), bool(r[3])) for r in rows]


def confirm(conn: sqlite3.Connection, ids: Sequence[int]) -> int:
    """sendMessage took these rows: they go. Returns how many were still there."""
    done = 0
    for row_id in ids:
        done += conn.execute("DELETE FROM telegram_outbox WHERE id = ?", (int(row_id),)).rowcount
    return done


# --- splitting a long reply ------------------------------------------------------------------

# Paragraphs, then sentences, then words; a "word" longer than the limit is cut.
_LEVELS = (re.compile(r"\n[ \t]*\n\s*"), re.compile(r"(?<=[.!?…])\s+"), re.compile(r"\s+"))
_JOINS = ("\n\n", " ", " ")


def units(text: str) -> int:
    """Length as the Bot API counts it (UTF-16 code units: an emoji may count two)."""
    return len(text.encode("utf-16-le")) // 2


def split_message(text: str, limit: int = MAX_MESSAGE_UNITS) -> list[str]:
    """`text` in parts of at most `limit` units, split on paragraph boundaries first, then at a
    sentence, then at a word; nothing but the whitespace at a split is lost."""
    text = text.strip()
    if not text:
        return []
    return [part for part in _split(text, limit, 0) if part]


def _split(text: str, limit: int, level: int) -> list[str]:
    if units(text) <= limit:
        return [text]
    if level == len(_LEVELS):
        return _cut(text, limit)
    pieces = [p.strip() for p in _LEVELS[level].split(text) if p.strip()]
    if len(pieces) <= 1:
        return _split(text, limit, level + 1)
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        for part in _split(piece, limit, level + 1):
            candidate = f"{current}{_JOINS[level]}{part}" if current else part
            if units(candidate) <= limit:
                current = candidate
            else:
                chunks.append(current)
                current = part
    if current:
        chunks.append(current)
    return chunks


def _cut(text: str, limit: int) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for char in text:
        width = 2 if ord(char) > 0xFFFF else 1
        if size + width > limit:
            chunks.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    if current:
        chunks.append("".join(current))
    return chunks
