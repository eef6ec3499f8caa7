"""Core's process: the owner's socket, the turn loop, status and the vault's write side.

Core is the only writer of history.db and the memory tree. For each owner message it asks the
fork-server for a worker (one in flight: owner turns go first, a dream waits behind them), then
hands what comes back to `core.turns` (the turn journaled, then the reply, then the ops through
the gate). It never imports the broker, the worker or any HTTP code (tests/test_layering.py): it
reaches them only through sockets.

Peer checks (SO_PEERCRED): a worker (a child of the fork-server) is refused outright; otherwise
the peer must be root or core's own uid (the socket is 0660 as a first gate)."""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from shelldon import ipc, sdnotify
from shelldon.contracts import wire
from shelldon.core import layout, turns
from shelldon.core.history import HistoryStore
from shelldon.core.memory import CuratedMemory
from shelldon.core.vault import VaultError, list_names, set_secret
from shelldon.paths import COLLECTIONS, DataRoot

log = logging.getLogger("shelldon.core.server")

TURN_DEADLINE_ENV = "SHELLDON_TURN_DEADLINE"
DEFAULT_TURN_DEADLINE_S = 30.0
SHUTDOWN_DRAIN_S = 10.0  # how long a stopping core waits for the turn in flight to be applied
RELAY_GRACE_S = 5.0  # beyond the turn deadline, for the fork-server to kill, reap and relay
FALLBACK_DEGRADE_TEXT = turns.DEGRADE_TEXT  # the one degrade text (older tests import it here)

# Extra `shelldon status` lines (the scheduler registers "next dream in ..." here).
StatusLines = Callable[[], Iterable[str]]
_status_hooks: list[StatusLines] = []


def register_status_lines(hook: StatusLines) -> None:
    _status_hooks.append(hook)


@dataclass(frozen=True)
class AppliedTurn:
    """What the owner got for one turn."""

    turn_id: str
    reply: str
    degraded: bool
    outcome: str  # "ok" | "degraded" | "spawn_failed"
    provider: str = ""


# core.turns calls emit(reply text, degraded) exactly once, before it writes anything.
Emit = Callable[[str, bool], None]


def new_turn_id() -> str:
    return f"{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"


class TurnGate:
    """One worker in flight. Owner turns are served before a waiting dream."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._owners_waiting = 0

    def acquire(self, purpose: str) -> None:
        with self._cond:
            if purpose == "dream":
                self._cond.wait_for(lambda: not self._busy and self._owners_waiting == 0)
            else:
                self._owners_waiting += 1
                try:
                    self._cond.wait_for(lambda: not self._busy)
                finally:
                    self._owners_waiting -= 1
            self._busy = True

    def release(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()

    def drain(self, timeout: float) -> bool:
        """Wait for the turn in flight to finish (its reply is out; its ops and history row are
        being written). False if it did not finish within `timeout`."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy, timeout=timeout)


class CoreService:
    def __init__(self, root: DataRoot, *, turn_deadline_s: float | None = None) -> None:
        self.root = root
        self.turn_deadline_s = (
            turn_deadline_s if turn_deadline_s is not None else turn_deadline(root)
        )
        self.gate = TurnGate()
        self.last_turn: wire.LastTurn | None = None
        self.stores = _open_stores(root)
        # Before the first turn: what a killed core journaled but had not applied (core.journal).
        turns.replay_journal(self.stores["history"], self.stores["memory"])
        self.learning = _attach_learning(self)

    # --- the turn -------------------------------------------------------------------------------

    def spawn(
        self, turn_id: str, purpose: wire.TurnPurpose, message: str, dream_directive: str = ""
    ) -> wire.TurnResult | wire.TurnFailed:
        """Ask the fork-server for one worker: a result or a failure, never an exception."""
        request = wire.SpawnTurn(
            turn_id=turn_id,
            purpose=purpose,
            message=message,
            dream_directive=dream_directive,
            deadline_s=self.turn_deadline_s,
        )
        try:
            answer = ipc.request(
                self.root.socket("forkserver"),
                request,
                timeout=self.turn_deadline_s + RELAY_GRACE_S,
            )
        except OSError as exc:
            return wire.TurnFailed(
                turn_id=turn_id, stage="spawn", reason=f"fork-server unreachable: {exc}"
            )
        except ipc.FrameTimeout:
            return wire.TurnFailed(
                turn_id=turn_id, stage="timeout", reason="no answer from the fork-server"
            )
        except ipc.IpcError as exc:
            return wire.TurnFailed(turn_id=turn_id, stage="protocol", reason=f"fork-server: {exc}")
        if isinstance(answer, (wire.TurnResult, wire.TurnFailed)) and answer.turn_id == turn_id:
            return answer
        if isinstance(answer, wire.Refused):
            return wire.TurnFailed(
                turn_id=turn_id, stage="spawn", reason=f"fork-server refused: {answer.reason}"
            )
        return wire.TurnFailed(
            turn_id=turn_id,
            stage="protocol",
            reason=f"fork-server answered {type(answer).__name__}",
        )

    def run_turn(
        self,
        purpose: wire.TurnPurpose,
        message: str,
        *,
        dream_directive: str = "",
        emit: Callable[[wire.Reply], None] | None = None,
    ) -> AppliedTurn:
        """One whole turn under the one-worker gate: spawn, apply (reply first), record."""
        self.gate.acquire(purpose)
        try:
            started = time.monotonic()
            turn_id = new_turn_id()
            outcome = self.spawn(turn_id, purpose, message, dream_directive)
            if isinstance(outcome, wire.TurnFailed):
                log.warning("turn %s: %s: %s", turn_id, outcome.stage, outcome.reason)
            applied = self._apply(turn_id, purpose, message, outcome, emit)
            self.last_turn = wire.LastTurn(
                turn_id=turn_id,
                purpose=purpose,
                at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                outcome=applied.outcome,
                provider=applied.provider,
                elapsed_ms=int((time.monotonic() - started) * 1000),
            )
            return applied
        finally:
            self.gate.release()

    def _apply(
        self,
        turn_id: str,
        purpose: str,
        message: str,
        outcome: wire.TurnResult | wire.TurnFailed,
        emit: Callable[[wire.Reply], None] | None,
    ) -> AppliedTurn:
        emitted: list[tuple[str, bool]] = []
        provider = outcome.provider if isinstance(outcome, wire.TurnResult) else ""

        def once(text: str, degraded: bool) -> None:
            if emitted:
                return
            emitted.append((text, degraded))
            if emit is not None:
                reply = wire.Reply(
                    text=text,
                    turn_id=turn_id,
                    degraded=degraded,
                    provider="" if degraded else provider,
                )
                try:
                    emit(reply)
                except (ipc.IpcError, OSError) as exc:
                    log.info("turn %s: the owner went away before the reply: %s", turn_id, exc)

        try:
            turns.apply_turn(
                root=self.root,
                history=self.stores.get("history"),
                memory=self.stores.get("memory"),
                turn_id=turn_id,
                purpose=purpose,
                message=message,
                outcome=outcome,
                emit=once,
                corrections=_corrections_of(self.learning),
            )
        except Exception:  # a bug there must not leave the owner without an answer
            log.exception("turn %s: applying the turn failed", turn_id)
        if not emitted:
            log.error("turn %s: core.turns emitted no reply; sending the degrade reply", turn_id)
            once(turns.DEGRADE_TEXT, True)
        text, degraded = emitted[0]
        spawn_failed = isinstance(outcome, wire.TurnFailed) and outcome.stage in (
            "spawn",
            "busy",
            "drop",
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
        if isinstance(message, wire.Say):
            return self._say(message, respond)
        if isinstance(message, wire.StatusRequest):
            return self.status()
        if isinstance(message, wire.VaultSet):
            try:
                set_secret(self.root.vault, message.key, message.value)
            except VaultError as exc:
                return wire.Refused(reason=str(exc))
            except OSError as exc:
                return wire.Refused(reason=f"could not store the secret: {exc.strerror}")
            log.info("vault: stored %r (value not logged)", message.key)
            return wire.Ack(detail=f"stored {message.key}")
        if isinstance(message, wire.VaultList):
            return wire.VaultNames(names=tuple(list_names(self.root.vault)))
        if isinstance(message, wire.DreamNow):
            return self._dream_now(message)
        if isinstance(message, wire.IsolationProbe):
            return self._probe()
        if isinstance(message, wire.Ping):
            return wire.Pong(name="core", pid=os.getpid())
        return wire.Refused(reason=f"core does not serve {type(message).__name__}")

    def _check_owner(self, peer: ipc.Peer) -> str | None:
        forkserver_pid = ipc.read_pid_file(self.root.run_dir, "forkserver")
        if forkserver_pid is not None and peer.parent_pid == forkserver_pid:
            log.warning(
                "core: refused a worker (pid %d uid %d) on the owner's socket", peer.pid, peer.uid
            )
            return "workers may not talk to core"
        if peer.uid not in (0, os.geteuid()):
            log.warning("core: refused pid %d uid %d", peer.pid, peer.uid)
            return "only the service user or root may talk to core"
        return None

    def _say(self, message: wire.Say, respond: ipc.Respond) -> ipc._Answered:
        text = message.text.strip()
        if not text:
            respond(wire.Refused(reason="an empty message"))
            return ipc.ANSWERED
        sent: list[wire.Reply] = []

        def emit(reply: wire.Reply) -> None:
            sent.append(reply)
            respond(reply)

        applied = self.run_turn("turn", text, emit=emit)
        if self.learning is not None and applied.outcome != "spawn_failed":
            self.learning.owner_turn_done()  # the budget and the idle clock (core.scheduler)
        if not sent:  # run_turn always emits; belt and braces for the owner's terminal
            respond(
                wire.Reply(text=applied.reply, turn_id=applied.turn_id, degraded=applied.degraded)
            )
        return ipc.ANSWERED

    def _dream_now(self, message: wire.DreamNow) -> wire._Msg:
        if self.learning is None:
            return wire.Refused(reason="dreaming is not available (see the core log)")
        record = self.learning.dream_now(force=message.force)
        return wire.DreamDone(**msgspec.structs.asdict(record))

    def _probe(self) -> wire._Msg:
        self.gate.acquire("turn")
        try:
            outcome = self.spawn(new_turn_id(), "probe", "")
        finally:
            self.gate.release()
        if isinstance(outcome, wire.TurnFailed):
            return wire.Refused(reason=f"probe failed at {outcome.stage}: {outcome.reason}")
        return wire.ProbeReport(isolated=outcome.isolated, report=outcome.reply)

    # --- status ---------------------------------------------------------------------------------

    def status(self) -> wire.Status:
        processes = [wire.ProcessState(name="core", pid=os.getpid(), up=True)]
        isolation: bool = False
        isolation_detail = "fork-server not reachable"
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
        lines: list[str] = list(self.learning.status_lines()) if self.learning else []
        lines.extend(self.usage_lines())
        for hook in list(_status_hooks):
            try:
                lines.extend(hook())
            except Exception:
                log.exception("a status hook failed")
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
        history = self.stores.get("history")
        if history is None:
            return []
        midnight = dt.datetime.now(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        try:
            totals = history.usage_since(midnight)
        except sqlite3.Error as exc:
            log.warning("usage totals unavailable: %s", exc)
            return []
        return [
            f"usage today: {totals.turns} turns, {totals.prompt_tokens} prompt tokens, "
            f"{totals.completion_tokens} completion tokens"
        ]

    def memory_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for collection in COLLECTIONS:
            try:
                counts[collection] = sum(
                    1 for p in (self.root.memory / collection).iterdir() if p.suffix == ".md"
                )
            except OSError:
                counts[collection] = 0
        counts["vault"] = len(list_names(self.root.vault))
        history = self.stores.get("history")
        counter = getattr(history, "counts", None)
        if callable(counter):
            try:
                counts.update({str(k): int(v) for k, v in counter().items()})
            except Exception:
                log.exception("history counts failed")
        return counts


def turn_deadline(root: DataRoot) -> float:
    """SHELLDON_TURN_DEADLINE (tests), else `[worker] turn_timeout` in shelldon.toml."""
    raw = os.environ.get(TURN_DEADLINE_ENV)
    if not raw:
        from shelldon.config import load_config

        return float(load_config(root).worker.turn_timeout)
    try:
        value = float(raw)
    except ValueError:
        log.error(
            "%s=%r is not a number; using %.0f s", TURN_DEADLINE_ENV, raw, DEFAULT_TURN_DEADLINE_S
        )
        return DEFAULT_TURN_DEADLINE_S
    return value if value > 0 else DEFAULT_TURN_DEADLINE_S


def _attach_learning(core: CoreService) -> Any:
    """The scheduler and the dream (core.dream, Step 5); None when they cannot start (logged)."""
    try:
        from shelldon.core import dream

        return dream.attach(core)
    except (OSError, ValueError) as exc:
        log.error("core: dreaming disabled: %s", exc)
        return None


def _corrections_of(learning: Any) -> Any:
    """The Dreamer's correction ledger, so an owner's "no, that's wrong" reaches the dream."""
    return getattr(getattr(learning, "dreamer", None), "corrections", None)


def _open_stores(root: DataRoot) -> dict[str, Any]:
    """history.db and the memory tree: core's read-write handles (it is their only writer)."""
    return {
        "root": root,
        "history": HistoryStore.open(root.history_db),
        "memory": CuratedMemory(root.memory),
    }


def main(root: DataRoot) -> int:
    """`shelldon core`: prepare the tree, open the stores, serve the owner until SIGTERM."""
    try:
        layout.prepare(root)
        service = CoreService(root)
    except (OSError, RuntimeError, ValueError) as exc:  # ConfigError and VaultError are ValueErrors
        log.error("core: cannot start: %s", exc)
        return 2
    server = ipc.ThreadedServer(
        "core", root.socket("core"), service.handle, mode=0o660, idle_timeout=3600.0
    )
    try:
        server.bind()
    except OSError as exc:
        log.error("core: cannot listen on %s: %s", root.socket("core"), exc)
        return 1
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: server.stop())
    ipc.write_pid_file(root.run_dir, "core")
    watchdog = sdnotify.Watchdog(lambda: ipc.answers_ping(root.socket("core")))
    watchdog.start()
    if service.learning is not None:
        service.learning.start()  # the idle cadence: a dream when due
    sdnotify.ready()
    try:
        server.serve_forever()
    finally:
        sdnotify.stopping()
        # A turn whose reply is already out still applies its ops and records itself: wait for it
        # (connection threads are daemons and would be cut at exit).
        if not service.gate.drain(timeout=SHUTDOWN_DRAIN_S):
            log.warning("core: a turn was still running at shutdown; it may be unrecorded")
        if service.learning is not None:
            service.learning.stop()
        watchdog.stop()
        ipc.remove_pid_file(root.run_dir, "core")
    return 0
