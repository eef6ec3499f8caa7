"""What core does with a Telegram update the broker's poller forwards: a turn, an owner command,
a pairing attempt, or a short refusal, and in every case the update recorded before the answer.

Only the paired chat (a private one) reaches a turn or a command, and in it only the owner's own
messages (another sender there, or a channel it was sent on behalf of, is logged, never answered).
Every other chat gets one short refusal now and then (RefusalLimiter) and a log line; it never
reaches a worker or a model. An update already recorded is answered from the outbox and never
handled twice (core.telegram.state has the bookkeeping; docs/telegram.md the whole story).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import msgspec

from shelldon.contracts import commands, relayed, wire
from shelldon.contracts.text import message_size_error
from shelldon.core.history.store import HistoryStore
from shelldon.core.telegram import state as telegram_state
from shelldon.core.telegram import voice

log = logging.getLogger(__name__)

PAIR_HOW = (
    "To talk with me here, pair this chat: run `shelldon telegram pair` on the pet, then send "
    "/pair CODE here (or open the link it prints)."
)
REFUSAL = "Sorry, I only talk with my owner."
GROUP_REFUSAL = "Sorry, I only talk with my owner, in a private chat."
EDITED = (
    "I saw you changed a message, but I only read new ones: "
    "send the change as a new message and I'll take it from there."
)
TEXT_ONLY = "I can only read text, voice notes and the words under a photo or a file for now."
PAIRED = "Paired! This chat is my owner's now. /help lists what I understand."
WRONG_CODE = "That code is not right ({left} tries left)."
CLOSED = (
    "Pairing is closed after too many wrong codes. Run `shelldon telegram pair` on the pet for a "
    "new code."
)
NO_CODE = "No pairing is open. Run `shelldon telegram pair` on the pet first."
EXPIRED = "That code has expired. Run `shelldon telegram pair` on the pet for a new one."
ALREADY = "This chat is already paired with me."
HELLO = "I'm here. /help lists what I understand."
ALBUMS_KEPT = 20
NOT_RECORDED = "could not record the update (history.db refused the write; see the core log)"

# An owner turn: (text, emit the reply once the turn is recorded, the update it answers).
OwnerTurn = Callable[[str, Callable[[wire.Reply], None], telegram_state.Origin], object]
Respond = Callable[[wire._Msg], None]


class RefusalLimiter:
    """At most one refusal per chat per `per_chat_s`, and `per_hour` refusals in all: a stranger
    (or a crowd of them) can never make the pet a spam source or fill the outbox."""

    def __init__(
        self,
        *,
        per_chat_s: float = 3600.0,
        per_hour: int = 30,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_chat_s = per_chat_s
        self.per_hour = per_hour
        self.clock = clock
        self._last: dict[int, float] = {}
        self._recent: list[float] = []

    def allow(self, chat_id: int) -> bool:
        now = self.clock()
        self._recent = [t for t in self._recent if now - t < 3600.0]
        last = self._last.get(chat_id)
        if last is not None and now - last < self.per_chat_s:
            return False
        if len(self._recent) >= self.per_hour:
            return False
        if len(self._last) > 1000:  # bounded memory: forget the oldest chats
            for old in sorted(self._last, key=self._last.__getitem__)[:500]:
                del self._last[old]
        self._last[chat_id] = now
        self._recent.append(now)
        return True


class TelegramChat:
    def __init__(
        self,
        history: HistoryStore,
        *,
        owner_turn: OwnerTurn,
        command: Callable[[str, str], str],
        limiter: RefusalLimiter | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.history = history
        self.owner_turn = owner_turn
        self.command = command
        self.limiter = limiter or RefusalLimiter()
        self.now = now
        # One update at a time. The poller sends them one by one; a second one arrives at once
        # only from a restarted broker re-fetching the update whose turn is still running here:
        # it waits, then finds the update recorded and is answered from the outbox.
        self._one_at_a_time = threading.Lock()
        self._albums: list[str] = []  # the latest albums answered (media_group_id)

    # --- the poller's side ----------------------------------------------------------------------

    def outbox_answer(self, update_id: int, *, turn: bool = False) -> wire.TelegramOutbox:
        """`update_id` is recorded: poll after it. Every reply not yet confirmed sent goes along."""
        items = tuple(
            wire.OutboxItem(id=row.id, chat_id=row.chat_id, text=row.text, speak=row.speak)
            for row in telegram_state.outbox(self.history)
        )
        return wire.TelegramOutbox(
            last_update_id=update_id,
            paired_chat=telegram_state.paired_chat(self.history),
            items=items,
            turn=turn,
        )

    def resume(self, message: wire.TelegramResume) -> wire._Msg:
        if message.bot_username:
            self.history.write(lambda c: telegram_state.set_bot_username(c, message.bot_username))
        return self.outbox_answer(telegram_state.resume_from(self.history, self.now()))

    def sent(self, message: wire.TelegramSent) -> wire._Msg:
        done = self.history.write(lambda c: telegram_state.confirm(c, message.ids))
        return wire.Ack(detail=f"{done} confirmed")

    def inbound(self, message: wire.TelegramInbound, respond: Respond) -> None:
        """Handle one update and answer through `respond` exactly once."""
        with self._one_at_a_time:
            self._inbound(message, respond)

    def _inbound(self, message: wire.TelegramInbound, respond: Respond) -> None:
        snap = telegram_state.snapshot(self.history)
        if telegram_state.seen(self.history, message.update_id):
            log.info(
                "telegram: update %d was handled before; answering from the outbox",
                message.update_id,
            )
            respond(self.outbox_answer(message.update_id))
            return
        if message.kind == "none":  # not a message (allowed_updates keeps these rare)
            self._record_and_answer(message, lambda conn: [], respond)
            return
        owner = (
            snap.chat_id is not None
            and message.chat_id == snap.chat_id
            and message.chat_type == "private"
        )
        if owner and message.user_id != message.chat_id:
            # The owner's chat, but not the owner's message: another person (or a channel, sent
            # on its behalf). Recorded, logged, never answered and never a turn.
            who = "user" if message.user_id > 0 else "chat"
            log.warning(
                "telegram: refused a message in the owner's chat from %s %d (not the owner)",
                who,
                message.user_id,
            )
            self._record_and_answer(message, lambda conn: [], respond)
            return
        if message.kind == "edited":
            # A message changed after it was answered: the turn stands as it was sent, so the
            # owner is told to send the change as a new message; a stranger's edit gets nothing.
            self._record_and_answer(message, lambda conn: [EDITED] if owner else [], respond)
            return
        if owner and message.kind == "text" and message.relayed_from and message.text.strip():
            # Someone else's words the owner passed on: a turn whose text says whose they are,
            # never a command and never the owner's rule (contracts.relayed).
            framed = relayed.frame(message.relayed_from, message.text)
            self._turn(msgspec.structs.replace(message, text=framed), respond)
            return
        if owner and message.kind == "text":
            parsed = commands.parse(message.text, snap.bot_username)
            if parsed is None and not message.text.strip():
                self._record_and_answer(message, lambda conn: [], respond)  # nothing to answer
                return
            if parsed is None:
                self._turn(message, respond)
                return
            name, arg = parsed
            if name in ("start", "pair"):
                reply = ALREADY if arg else HELLO
            else:
                reply = self.command(name, arg)
            self._record_and_answer(message, lambda conn: [reply], respond)
            return
        if owner and message.kind in wire.VOICE_KINDS:
            heard = message.text.strip()
            if message.voice_failure or not heard:
                reason = message.voice_failure or "off"
                log.info("telegram: a %s note was not heard (%s)", message.kind, reason)
                text = voice.not_heard(reason, message.voice_seconds)
                self._record_and_answer(message, lambda conn: [text], respond)
                return
            too_long = message_size_error(heard)  # the one size limit typed text has too
            if too_long:
                reply = f"I heard your note, but {too_long}."
                self._record_and_answer(message, lambda conn: [reply], respond)
                return
            # Its words are an owner turn like typed text (never a command: a transcriber
            # writes words, not slashes), and the turn's rows say it was a voice note.
            note = telegram_state.VoiceNote(message.kind, message.voice_seconds, heard)
            if message.relayed_from:  # a forwarded note: someone else's voice
                message = msgspec.structs.replace(
                    message, text=relayed.frame(message.relayed_from, heard)
                )
            self._turn(message, respond, note)
            return
        if owner and message.kind in wire.CAPTIONED_KINDS and message.text.strip():
            # A photo, a video or a file with the owner's words under it: the pet cannot see
            # the media, so the words are the turn (never a command), and the reply says so.
            self._album_answered(message.album)
            words = message.text
            if message.relayed_from:
                words = relayed.frame(message.relayed_from, words)
            self._turn(msgspec.structs.replace(message, text=words), respond, unseen=message.kind)
            return
        if owner:
            # One line for what the pet cannot read, and one for an album (several photos sent
            # together come as one update each): its first part gets the answer.
            once = not self._album_answered(message.album)
            self._record_and_answer(message, lambda conn: [TEXT_ONLY] if once else [], respond)
            return
        self._record_and_answer(message, lambda conn: self._stranger(conn, message), respond)

    def _album_answered(self, album: str) -> bool:
        """Was a part of `album` answered before? Marks it answered from now on."""
        if not album:
            return False
        if album in self._albums:
            return True
        self._albums.append(album)
        del self._albums[:-ALBUMS_KEPT]
        return False

    # --- the owner's CLI ------------------------------------------------------------------------

    def pair(self) -> wire._Msg:
        code, expires = self.history.write(
            lambda c: telegram_state.start_pairing(c, self.now()), durable=True
        )
        log.warning("telegram: a pairing code was issued (valid until %s)", expires.isoformat())
        return wire.TelegramPairing(
            code=code,
            expires=expires.isoformat(timespec="seconds"),
            bot_username=telegram_state.snapshot(self.history).bot_username,
        )

    def unpair(self) -> wire._Msg:
        chat = self.history.write(telegram_state.unpair, durable=True)
        if chat is None:
            return wire.Ack(detail="no chat was paired")
        log.warning("telegram: chat %d unpaired", chat)
        return wire.Ack(detail=f"chat {chat} unpaired")

    def status_lines(self) -> list[str]:
        snap = telegram_state.snapshot(self.history)
        bot = f" (@{snap.bot_username})" if snap.bot_username else ""
        if snap.chat_id is not None:
            since = f" since {snap.paired_at[:16]}" if snap.paired_at else ""
            return [f"telegram: paired with chat {snap.chat_id}{bot}{since}"]
        if snap.pairing_open(self.now()):
            return [f"telegram: not paired{bot}; a pairing code is open"]
        return [f"telegram: not paired{bot} (`shelldon telegram pair`)"]

    # --- inside ---------------------------------------------------------------------------------

    def _record_and_answer(
        self,
        message: wire.TelegramInbound,
        decide: Callable[[sqlite3.Connection], list[str]],
        respond: Respond,
    ) -> None:
        def work(conn: sqlite3.Connection) -> None:
            texts = decide(conn)
            telegram_state.record(conn, message.update_id, message.chat_id, texts, self.now())

        try:
            self.history.write(work, durable=True)
        except sqlite3.Error as exc:
            log.error("telegram: update %d: %s: %s", message.update_id, NOT_RECORDED, exc)
            respond(wire.Refused(reason=NOT_RECORDED))
            return
        respond(self.outbox_answer(message.update_id))

    def _turn(
        self,
        message: wire.TelegramInbound,
        respond: Respond,
        note: telegram_state.VoiceNote | None = None,
        unseen: str = "",
    ) -> None:
        answered: list[bool] = []

        def emit(reply: wire.Reply) -> None:
            if answered:
                return
            answered.append(True)
            if not telegram_state.seen(self.history, message.update_id):
                # Not recorded with the turn (no worker ran, or the store refused the turn's
                # rows): record the update and the reply on their own, so it is not run again.
                self._record_and_answer(message, lambda conn: [reply.text], respond)
                return
            respond(self.outbox_answer(message.update_id, turn=True))

        self.owner_turn(
            message.text,
            emit,
            telegram_state.Origin(message.update_id, message.chat_id, note, unseen),
        )
        if not answered:  # the turn always emits; belt and braces for the owner's phone
            emit(
                wire.Reply(
                    text="I lost my train of thought. Could you say that again?",
                    turn_id="",
                    degraded=True,
                )
            )

    def _stranger(self, conn: sqlite3.Connection, message: wire.TelegramInbound) -> list[str]:
        """A chat that is not the owner's: pairing, or a (rate-limited) refusal."""
        chat = message.chat_id
        if message.chat_type != "private":
            log.warning(
                "telegram: refused %s chat %d (groups are not served): a %s message",
                message.chat_type,
                chat,
                message.kind,
            )
            if message.kind == "other":  # a service message (a member joined, the group moved)
                return []
            return [GROUP_REFUSAL] if self.limiter.allow(chat) else []
        parsed = commands.parse(message.text) if message.kind == "text" else None
        if parsed is not None and parsed[0] in ("start", "pair") and parsed[1]:
            result = telegram_state.try_code(conn, chat, parsed[1], self.now())
            if result == "paired":
                log.warning("telegram: chat %d is paired (the owner's chat now)", chat)
                return [PAIRED]
            if result == "wrong":
                left = telegram_state.failures_left(conn)
                log.warning("telegram: a wrong pairing code from chat %d (%d left)", chat, left)
                return [WRONG_CODE.format(left=left) if left else CLOSED]
            log.warning("telegram: a pairing code from chat %d, but pairing is %s", chat, result)
            text = {"closed": CLOSED, "expired": EXPIRED}.get(result, NO_CODE)
            return [text] if self.limiter.allow(chat) else []
        if parsed is not None and parsed[0] in ("start", "pair"):
            log.info("telegram: chat %d asked to start; told how to pair", chat)
            return [PAIR_HOW] if self.limiter.allow(chat) else []
        log.warning("telegram: refused chat %d (not the owner's): a %s message", chat, message.kind)
        return [REFUSAL] if self.limiter.allow(chat) else []
