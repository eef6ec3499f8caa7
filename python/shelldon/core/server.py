"""Core's process: the owner's socket, the turn loop, status and the vault's write side.

Core is the only writer of history.db and the memory tree. For each owner message it asks the
fork-server for a worker (core.runner: one in flight, owner turns first, a dream behind them), then
hands what comes back to `core.turn.apply` (the turn journaled, then the reply, then the ops through
the gate). It never imports the broker, the worker or any HTTP code (tests/test_layering.py): it
reaches them only through sockets.

Peer checks (SO_PEERCRED): a worker (a child of the fork-server) is refused outright; otherwise
the peer must be root or core's own uid (the socket is 0660 as a first gate).

Over 400 lines: it is the one dispatcher of every message core's socket accepts (turns, status,
the vault, the dream, owner commands, the proactive queue, the Telegram poller's messages); each
handler is a few lines that hand over to the module that owns the behaviour."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import assert_never

import msgspec

from shelldon import daemon, digests, ipc
from shelldon._native import trim_heap
from shelldon.clock import compact, iso, utc_now
from shelldon.contracts import wire
from shelldon.contracts.languages import PROFILE_MESSAGES, OwnerLanguages, ProfileCache
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.contracts.text import clean_text, message_size_error
from shelldon.core import commands
from shelldon.core.dream.service import DreamService
from shelldon.core.learning.service import ReflectService, pet_skills
from shelldon.core.proactive import owner_time, update_notice
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive.service import ProactiveService
from shelldon.core.rest import Rest
from shelldon.core.retrieval.terms import TermsSync
from shelldon.core.runner import WorkerRunner, prompts_recorded
from shelldon.core.status import clock_watch
from shelldon.core.status.links import LinkWatch
from shelldon.core.status.text import format_status
from shelldon.core.storage import check as storage_check
from shelldon.core.storage import durability, layout
from shelldon.core.stores import Stores
from shelldon.core.telegram import state as telegram_state
from shelldon.core.telegram.chat import TelegramChat
from shelldon.core.telegram.state import Origin
from shelldon.core.turn import apply as turns
from shelldon.core.upkeep import recovery
from shelldon.core.upkeep.store_watch import StoreWatch
from shelldon.core.vault import VaultError, list_names, set_secret
from shelldon.paths import DataRoot

log = logging.getLogger("shelldon.core.server")

SHUTDOWN_DRAIN_S = 10.0  # how long a stopping core waits for the turn in flight to be applied
SETTLE_WAIT_S = 5.0  # how long status and the owner commands wait for a just-answered turn to apply


@dataclass(frozen=True)
class AppliedTurn:
    """What the owner got for one turn."""

    turn_id: str
    reply: str
    degraded: bool
    outcome: str  # "ok" | "degraded" | "spawn_failed"
    provider: str = ""


def new_turn_id() -> str:
    return f"{compact(utc_now())}-{digests.token_hex(3)}"


class CoreService:
    """The owner's socket: turns, status, the vault's write side, the dream on request."""

    def __init__(
        self,
        stores: Stores,
        runner: WorkerRunner,
        dreams: DreamService | None = None,
        proactive: ProactiveService | None = None,
        reflections: ReflectService | None = None,
    ) -> None:
        self.root = stores.root
        self.stores = stores
        self.runner = runner
        self.dreams = dreams  # None when dreaming could not start (logged)
        self.proactive = proactive  # reminders, check-ins, the proactive queue
        self.reflections = reflections  # after a turn of real work (core.learning.service)
        self.last_turn: wire.LastTurn | None = None
        # Clear while an owner turn's reply is out and its ops are still being applied: status and
        # the owner commands wait for it (wait_settled), so what they show or undo includes what
        # the owner was just answered about.
        self.settled = threading.Event()
        self.settled.set()
        self.telegram = TelegramChat(
            stores.history, owner_turn=self._telegram_turn, command=self.command
        )
        self.links = LinkWatch()  # provider failures: told to the owner, shown in status
        # A request core does not serve (a worker's or the fork-server's message on the owner's
        # socket): refused in words and logged once per uid and kind a minute, with a count.
        self.refusals = ipc.RefusalLog(log)
        self.storage = storage_check.WriteFaults(
            self.root.home, self.root.memory
        )  # failed writes: told, shown
        # A store removed or swapped under the running core: noticed at the next write, told,
        # shown, rebuilt or refused (core.upkeep.store_watch).
        self.store_watch = StoreWatch(self.root, stores.history, stores.memory)
        # Before the first turn: what a killed core journaled but had not applied
        # (core.turn.journal).
        turns.replay_journal(
            stores.history,
            stores.memory,
            book=proactive.book if proactive else None,
            after_boot=durability.booted_since(self.root.state, layout.FILE_MODE),
        )
        # Curated entries' terms, kept for the workers (core.retrieval.terms).
        self.terms = TermsSync(stores.memory) if stores.memory and stores.history else None
        self.profiles = ProfileCache()  # the owner's language profile's counts (owner_languages)
        self.rest = Rest()  # what core lets go after a quiet spell (core.rest)
        self.sync_terms()

    # --- the turn -------------------------------------------------------------------------------

    def run_turn(
        self,
        purpose: wire.TurnPurpose,
        message: str,
        *,
        dream_directive: str = "",
        emit: Callable[[wire.Reply], None] | None = None,
        origin: Origin | None = None,
        in_chat: bool = False,
    ) -> AppliedTurn:
        """One whole turn under the one-worker gate: spawn, apply (reply first), record.
        `origin`: the Telegram update it answers, recorded with the turn (core.turn.journal);
        `in_chat`: the reply goes to the paired Telegram chat."""
        self.runner.gate.acquire(purpose)
        self.rest.turn_started()
        try:
            started = time.monotonic()
            turn_id = new_turn_id()
            self.sync_terms()  # an entry changed outside a turn (the dream, the CLI, a hand edit)
            languages = self.owner_languages(message) if purpose == "turn" else None
            outcome = self.runner.spawn(
                turn_id, purpose, message, dream_directive, owner_languages=languages
            )
            if isinstance(outcome, wire.TurnFailed):
                log.warning("turn %s: %s: %s", turn_id, outcome.stage, outcome.reason)
            applied = self._apply(turn_id, purpose, message, outcome, emit, origin, in_chat)
            self.sync_terms()  # this turn's writes, after the reply: off the next turn's path
            self.index_history()  # recall's stem index, in batches (core.history.recall)
            self.last_turn = wire.LastTurn(
                turn_id=turn_id,
                purpose=purpose,
                at=iso(utc_now()),
                outcome=applied.outcome,
                provider=applied.provider,
                elapsed_ms=int((time.monotonic() - started) * 1000),
            )
            return applied
        finally:
            self.settled.set()
            self.runner.gate.release()
            # What the turn freed stays in its connection thread's malloc arena until trimmed:
            # ~1.7 MB of core at rest, for 0.05-0.5 ms here, after the reply (docs/performance.md).
            trim_heap()
            self.rest.turn_ended()  # the gate's caches go after a quiet spell (core.rest)

    def owner_languages(self, message: str) -> OwnerLanguages | None:
        """The owner's language profile for this turn's worker, over the message and their last
        messages, from counts kept across turns (contracts.languages.ProfileCache). None when
        history cannot be read, or there is no text: the worker then builds it itself."""
        history = self.stores.history
        if history is None or self.store_watch.history_refused:
            return None
        try:
            texts = history.owner_messages(PROFILE_MESSAGES)
            text = message.strip()
            return self.profiles.profile((text, *texts)) if text or texts else None
        except Exception:
            log.exception("owner languages: left to the worker")
            return None

    def sync_terms(self) -> None:
        """Bring the workers' entry terms up to date. A failure costs a worker only the slower
        read of the tree, never the turn."""
        if self.terms is None or self.stores.history is None:
            return
        try:
            self.terms.sync(self.stores.history)
        except Exception:
            log.exception("entry terms: sync failed; workers read the tree")

    def index_history(self, *, at_least: int | None = None) -> None:
        """Recall's stem index takes the newest rows once they fill a batch (HistoryStore
        .index_history); `at_least=1`: all of them. A failure costs nothing: searches read the
        rows past the index directly."""
        if self.stores.history is None:
            return
        try:
            if at_least is None:
                self.stores.history.index_history()
            else:
                self.stores.history.index_history(at_least=at_least)
        except Exception:
            log.exception("recall: the stem-index batch failed; the next one takes its rows")

    def _apply(
        self,
        turn_id: str,
        purpose: str,
        message: str,
        outcome: wire.TurnResult | wire.TurnFailed,
        emit: Callable[[wire.Reply], None] | None,
        origin: Origin | None = None,
        in_chat: bool = False,
    ) -> AppliedTurn:
        emitted: list[tuple[str, bool]] = []
        provider = outcome.provider if isinstance(outcome, wire.TurnResult) else ""
        # A provider that did not answer: the owner is told in the reply (not in history).
        note = self.links.observe(outcome)
        note = note if purpose == "turn" else None
        fault = self.storage.take_unsaid(in_chat=in_chat) if purpose == "turn" else None
        self.store_watch.check()  # before this turn writes anything
        changed = self.store_watch.take_unsaid() if purpose == "turn" else None
        if changed and in_chat:
            self.store_watch.take_for_chat()  # this reply is the chat's notice
        note = " ".join(part for part in (note, changed, fault) if part) or None
        history = None if self.store_watch.history_refused else self.stores.history

        def once(text: str, degraded: bool) -> None:
            if emitted:
                return
            emitted.append((text, degraded))
            if purpose == "turn":
                self.settled.clear()  # set again when the turn's ops are applied (turn())
            if emit is not None:
                reply = wire.Reply(
                    text=f"{text}\n({note})" if note else text,
                    turn_id=turn_id,
                    degraded=degraded,
                    provider="" if degraded else provider,
                )
                try:
                    emit(reply)
                except (ipc.IpcError, OSError) as exc:
                    log.info("turn %s: the owner went away before the reply: %s", turn_id, exc)

        try:
            result = turns.apply_turn(
                root=self.root,
                history=history,
                memory=self.stores.memory,
                turn_id=turn_id,
                purpose=purpose,
                message=message,
                outcome=outcome,
                emit=once,
                corrections=self.dreams.corrections if self.dreams else None,
                book=self.proactive.book if self.proactive else None,
                origin=origin,
            )
            self.storage.observe(result.verdicts, iso(utc_now()))
            self._tell_paired_chat()
            if self.reflections is not None and purpose == "turn":
                self.reflections.after_turn(turn_id, message, result)
        except Exception:  # a bug there must not leave the owner without an answer
            log.exception("turn %s: applying the turn failed", turn_id)
        if not emitted:
            log.error(
                "turn %s: core.turn.apply emitted no reply; sending the degrade reply", turn_id
            )
            once(turns.DEGRADE_TEXT, True)
        text, degraded = emitted[0]
        spawn_failed = (
            isinstance(outcome, wire.TurnFailed) and outcome.stage in wire.NOT_STARTED_STAGES
        )
        return AppliedTurn(
            turn_id=turn_id,
            reply=text,
            degraded=degraded,
            outcome="spawn_failed" if spawn_failed else ("degraded" if degraded else "ok"),
            provider=provider,
        )

    # --- the owner's socket ---------------------------------------------------------------------

    def handle(
        self, peer: ipc.Peer, message: wire.Message, respond: ipc.Respond
    ) -> wire._Msg | ipc._Answered | None:
        refusal = self._check_owner(peer)
        if refusal:
            return wire.Refused(reason=refusal)
        if not isinstance(message, wire.CORE_REQUESTS):
            reason = f"core does not serve {type(message).__name__}"
            self.refusals.refused("core", peer, reason, what="a request")
            return wire.Refused(reason=reason)
        return self._serve(peer, message, respond)

    def _serve(
        self, peer: ipc.Peer, request: wire.CoreRequest, respond: ipc.Respond
    ) -> wire._Msg | ipc._Answered | None:
        match request:
            case wire.Say():
                return self._say(request, respond)
            case wire.OwnerCommand():
                return wire.CommandReply(text=self.command(request.name, request.arg))
            case wire.StatusRequest():
                return self.status()
            case wire.TelegramResume() | wire.TelegramInbound() | wire.TelegramSent():
                return self._from_poller(peer, request, respond)
            case wire.TelegramPair():
                return self.telegram.pair()
            case wire.TelegramUnpair():
                return self.telegram.unpair()
            case wire.VaultSet():
                return self._vault_set(request)
            case wire.VaultList():
                return wire.VaultNames(names=tuple(list_names(self.root.vault)))
            case wire.DreamNow():
                return self._dream_now(request)
            case wire.ProactiveFetch() | wire.ProactiveDelivered():
                return self._proactive(peer, request)
            case wire.IsolationProbe():
                return self._probe()
            case wire.Ping():
                return wire.Pong(name="core", pid=os.getpid())
            case _:
                assert_never(request)

    def _vault_set(self, message: wire.VaultSet) -> wire._Msg:
        try:
            set_secret(self.root.vault, message.key, message.value)
        except VaultError as exc:
            return wire.Refused(reason=str(exc))
        except OSError as exc:
            return wire.Refused(reason=f"could not store the secret: {exc.strerror}")
        log.info("vault: stored %r (value not logged)", message.key)
        return wire.Ack(detail=f"stored {message.key}")

    def _check_owner(self, peer: ipc.Peer) -> str | None:
        forkserver_pid = ipc.read_pid_file(self.root.run_dir, "forkserver")
        if forkserver_pid is not None and peer.parent_pid == forkserver_pid:
            reason = "workers may not talk to core"
            self.refusals.refused("core", peer, reason, what="a worker's request")
            return reason
        if peer.uid not in (0, os.geteuid()):
            reason = "only the service user or root may talk to core"
            self.refusals.refused("core", peer, reason, what="a request")
            return reason
        return None

    def _say(self, message: wire.Say, respond: ipc.Respond) -> ipc._Answered:
        # Whatever transport brought it: no terminal controls, and one size limit (contracts.text).
        too_long = message_size_error(message.text)
        if too_long:
            respond(wire.Refused(reason=too_long))
            return ipc.ANSWERED
        text = clean_text(message.text).strip()
        if not text:
            respond(wire.Refused(reason="an empty message"))
            return ipc.ANSWERED
        sent: list[wire.Reply] = []

        def emit(reply: wire.Reply) -> None:
            sent.append(reply)
            respond(reply)

        applied = self._owner_turn(text, emit)
        if not sent:  # run_turn always emits; belt and braces for the owner's terminal
            respond(
                wire.Reply(text=applied.reply, turn_id=applied.turn_id, degraded=applied.degraded)
            )
        return ipc.ANSWERED

    def _owner_turn(
        self,
        text: str,
        emit: Callable[[wire.Reply], None],
        origin: Origin | None = None,
        in_chat: bool = False,
    ) -> AppliedTurn:
        # The budget and the idle clock read this turn from history (core.proactive.scheduler).
        return self.run_turn("turn", text, emit=emit, origin=origin, in_chat=in_chat)

    def _telegram_turn(
        self, text: str, emit: Callable[[wire.Reply], None], origin: Origin
    ) -> AppliedTurn:
        # The same edge as _say: no terminal controls reach a turn (Telegram's 4,096 characters are
        # under the one size limit).
        return self._owner_turn(clean_text(text).strip(), emit, origin, in_chat=True)

    def _tell_paired_chat(self) -> None:
        """A write that failed after a reply is also told in the paired Telegram chat, through
        the proactive queue (delivered once, recorded as said; core.proactive.queue)."""
        if telegram_state.paired_chat(self.stores.history) is None:
            return
        changed = self.store_watch.take_for_chat()
        if changed is not None:
            try:
                proactive_queue.enqueue(self.stores.history, "notice", changed, utc_now())
            except (sqlite3.Error, OSError) as exc:
                log.warning("storage: could not queue the store notice for the chat: %s", exc)
                self.store_watch.chat_not_told(changed)
        notice = self.storage.take_for_chat()
        if notice is None:
            return
        try:
            proactive_queue.enqueue(self.stores.history, "notice", notice, utc_now())
        except (sqlite3.Error, OSError) as exc:  # history.db on the full disk too: try again later
            log.warning("storage: could not queue the failed-write notice for the chat: %s", exc)
            self.storage.chat_not_told()

    def command(self, name: str, arg: str = "") -> str:
        """One owner command (core.commands), from the terminal or the owner's Telegram chat. Like
        status, it waits for a just-answered turn's ops: `/undo` sent the moment the reply came
        must undo that turn, not the one before it, and `/memory` or `/reminders` must list what
        the pet just said it kept."""
        self.wait_settled("owner command /" + name)
        ctx = commands.CommandContext(self.stores, status_text=lambda: format_status(self.status()))
        return commands.run_command(ctx, name, arg)

    def _from_poller(
        self,
        peer: ipc.Peer,
        message: wire.TelegramResume | wire.TelegramInbound | wire.TelegramSent,
        respond: ipc.Respond,
    ) -> wire._Msg | ipc._Answered:
        """The Telegram poller runs in the broker: only the broker's pid may speak for it."""
        broker_pid = ipc.read_pid_file(self.root.run_dir, "broker")
        if peer.pid != broker_pid:
            log.warning(
                "core: refused %s from pid %d (the broker is %s)",
                type(message).__name__,
                peer.pid,
                broker_pid,
            )
            return wire.Refused(reason="only the broker's Telegram poller may send this")
        if isinstance(message, wire.TelegramResume):
            return self.telegram.resume(message)
        if isinstance(message, wire.TelegramSent):
            return self.telegram.sent(message)
        self.telegram.inbound(message, respond)
        return ipc.ANSWERED

    def _dream_now(self, message: wire.DreamNow) -> wire._Msg:
        if self.dreams is None:
            return wire.Refused(reason="dreaming is not available (see the core log)")
        record = self.dreams.dream_now(force=message.force)
        return wire.DreamDone(**msgspec.structs.asdict(record))

    def _proactive(
        self, peer: ipc.Peer, message: wire.ProactiveFetch | wire.ProactiveDelivered
    ) -> wire._Msg:
        if self.proactive is None:
            return wire.Refused(reason="proactive messages are not available (see the core log)")
        # The Telegram poller runs in the broker; any other peer is a terminal.
        from_broker = peer.pid == ipc.read_pid_file(self.root.run_dir, "broker")
        if isinstance(message, wire.ProactiveFetch):
            return self.proactive.fetch(message.limit, from_terminal=not from_broker)
        if message.channel == "telegram" and not from_broker:
            return wire.Refused(reason="only the broker's Telegram poller delivers to Telegram")
        try:
            marked = self.proactive.delivered(message.ids, message.channel)
        except ValueError as exc:
            return wire.Refused(reason=str(exc))
        except sqlite3.Error as exc:
            log.error("proactive: could not mark items delivered: %s", exc)
            return wire.Refused(reason="could not record the delivery; it will be offered again")
        return wire.Ack(detail=f"{marked} delivered")

    def _probe(self) -> wire._Msg:
        self.runner.gate.acquire("turn")
        try:
            outcome = self.runner.spawn(new_turn_id(), "probe", "")
        finally:
            self.runner.gate.release()
        if isinstance(outcome, wire.TurnFailed):
            return wire.Refused(reason=f"probe failed at {outcome.stage}: {outcome.reason}")
        return wire.ProbeReport(isolated=outcome.isolated, report=outcome.reply)

    # --- status ---------------------------------------------------------------------------------

    def wait_settled(self, what: str) -> None:
        """A turn answered a moment ago may still be applying its ops: wait for them (bounded: a
        wedged apply must not wedge `what` too)."""
        if not self.settled.wait(timeout=SETTLE_WAIT_S):
            log.warning("%s: a turn was still applying after %.0f s", what, SETTLE_WAIT_S)

    def status(self) -> wire.Status:
        self.wait_settled("status")  # count what the turn just answered stored
        self.store_watch.check()  # a store gone since the last turn shows now, not after one
        processes = [wire.ProcessState(name="core", pid=os.getpid(), up=True)]
        isolation: bool = False
        isolation_detail = "fork-server not reachable"
        transport_lines: list[str] = []
        for name in ("broker", "forkserver"):
            try:
                pong = ipc.request(self.root.socket(name), wire.Ping(), timeout=2.0)
            except (OSError, ipc.IpcError) as exc:
                pid = ipc.read_pid_file(self.root.run_dir, name)
                processes.append(
                    wire.ProcessState(name=name, pid=pid, up=False, detail=str(exc)[:200])
                )
                continue
            if isinstance(pong, wire.Pong):
                processes.append(
                    wire.ProcessState(name=name, pid=pong.pid, up=True, detail=pong.detail)
                )
                if name == "forkserver":
                    isolation = bool(pong.isolation)
                    isolation_detail = pong.detail.rsplit("; ", 1)[-1]
                transport_lines.extend(pong.lines)  # the broker's Telegram poller, if it runs
        lines: list[str] = list(self.dreams.status_lines()) if self.dreams else []
        if self.proactive is not None:
            lines.extend(self.proactive.status_lines())
        lines.extend(self.links.status_lines())
        lines.extend(
            clock_watch.clock_lines(clock_watch.synchronised(), self.links.details(), utc_now())
        )
        lines.extend(self.storage.status_lines())
        lines.extend(self.store_watch.status_lines())
        lines.extend(self.usage_lines())
        try:
            lines.extend(self.telegram.status_lines())
        except sqlite3.Error as exc:
            log.warning("telegram state unavailable: %s", exc)
        lines.extend(transport_lines)
        return wire.Status(
            processes=tuple(processes),
            last_turn=self.last_turn,
            memory_counts=self.memory_counts(),
            vault_isolation=isolation,
            isolation_detail=isolation_detail,
            extra_lines=tuple(lines),
        )

    def usage_lines(self) -> list[str]:
        """Today's (UTC) provider usage, from the figures recorded with each turn."""
        midnight = utc_now().replace(hour=0, minute=0, second=0, microsecond=0)
        try:
            totals = self.stores.history.usage_since(midnight)
        except sqlite3.Error as exc:
            log.warning("usage totals unavailable: %s", exc)
            return []
        return [
            f"usage today: {totals.turns} turns, {totals.prompt_tokens} prompt tokens, "
            f"{totals.completion_tokens} completion tokens"
        ]

    def memory_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for collection in COLLECTION_NAMES:
            try:
                counts[collection] = sum(
                    1 for p in (self.root.memory / collection).iterdir() if p.suffix == ".md"
                )
            except OSError:
                counts[collection] = 0
        counts["vault"] = len(list_names(self.root.vault))
        try:
            counts.update(self.stores.history.counts())
        except Exception:
            log.exception("history counts failed")
        return counts


def _start_dreaming(runner: WorkerRunner, stores: Stores) -> DreamService | None:
    """The scheduler and the dream; None when they cannot start (core serves the owner anyway)."""
    try:
        return DreamService(runner, stores)
    except (OSError, ValueError) as exc:
        log.error("core: dreaming disabled: %s", exc)
        return None


def _start_proactive(
    runner: WorkerRunner, stores: Stores, dreams: DreamService | None
) -> ProactiveService | None:
    """Reminders, check-ins and the proactive queue; None when they cannot start (logged)."""
    try:
        return ProactiveService(stores, runner, scheduler=dreams.scheduler if dreams else None)
    except (OSError, ValueError) as exc:
        log.error("core: reminders and check-ins disabled: %s", exc)
        return None


def _start_reflecting(
    runner: WorkerRunner, stores: Stores, dreams: DreamService | None
) -> ReflectService:
    """Reflections after turns of real work, through the broker like the dream."""

    def spawn(turn_id: str, digest: str, deadline_s: float) -> wire.TurnResult | wire.TurnFailed:
        return runner.spawn(turn_id, "reflect", "", digest, deadline_s=deadline_s)

    return ReflectService(
        memory=stores.memory,
        history=stores.history,
        gate=runner.gate,
        spawn=spawn,
        scheduler=dreams.scheduler if dreams else None,
        skills=pet_skills(stores.memory, stores.root.state),
    )


def main(root: DataRoot) -> int:
    """`shelldon core`: prepare the tree, open the stores, serve the owner until SIGTERM."""
    try:
        # One clear line, not a trace; then what a stopped pet's files lost, before new ones come.
        storage_check.check_data_root(root.home, root.history_db, root.memory)
        gone = storage_check.gone_at_start(root)
        layout.prepare(root)
        strays = storage_check.set_aside_strays(root.memory)  # a folder or link in a file's place
        recovered = recovery.recover(root)  # a killed run's leftovers, before any reader
        stores = Stores.open(root)
        runner = WorkerRunner(
            root,
            capture_prompts=prompts_recorded(),
            clock_line=partial(owner_time.owner_clock_line, stores.history),
        )
    except (OSError, RuntimeError, ValueError) as exc:  # ConfigError and VaultError are ValueErrors
        log.error("core: cannot start: %s", exc)
        return 2
    dreams = _start_dreaming(runner, stores)
    proactive = _start_proactive(runner, stores, dreams)
    reflections = _start_reflecting(runner, stores, dreams)
    service = CoreService(stores, runner, dreams, proactive, reflections)
    # Torn entries set aside at start: said in the next reply, the paired chat and status.
    service.store_watch.tell(
        [*gone, *strays, *(torn.sentence() for torn in recovered.torn_entries)]
    )
    update_notice.queue_update_notice(stores.history, root, utc_now())  # the card's last update

    def started() -> None:
        if dreams is not None:
            dreams.start()  # the idle cadence: a dream when due
        if proactive is not None:
            proactive.start()  # what came due while the pet was off fires now, before READY
        reflections.start()

    def stopping() -> None:
        # A turn whose reply is already out is journaled; it still applies its ops: wait for it
        # (connection threads are daemons and would be cut at exit). Whatever is cut is replayed
        # from the journal at the next start.
        if not runner.gate.drain(timeout=SHUTDOWN_DRAIN_S):
            log.warning("core: a turn was still applying at shutdown; the journal replays it")
        if dreams is not None:
            dreams.stop()
        if proactive is not None:
            proactive.stop()
        reflections.stop()
        service.rest.stop()
        service.index_history(at_least=1)  # nothing left past recall's stem index
        # Closed here, not left to the exit: a connection thread still open at exit (a client
        # that has not hung up) holds the store, the connection is never closed, and history.db
        # keeps its -wal and -shm (docs/storage.md).
        stores.close()

    return daemon.serve(
        root,
        "core",
        service.handle,
        mode=0o660,
        idle_timeout=3600.0,
        admit=ipc.admit_uids(
            frozenset({0, os.geteuid()}), "only the service user or root may talk to core"
        ),
        # The Telegram poller runs in the broker: it shares the owner's uid on the card, and never
        # competes with the owner's chats for that uid's slots (docs/processes.md).
        reserved=ipc.reserve_pids(root.run_dir, "broker"),
        started=started,
        stopping=stopping,
    )
