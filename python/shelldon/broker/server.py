"""The broker process: the egress boundary. Serves completions to workers and vault reads to core.

Who may connect (docs/processes.md): the socket is 0660, its group the worker's primary group, so
only the service uid, root and the worker uid can connect at all. At accept (before a thread or a
cap): root and the service uid, and a worker uid peer only while it is a live turn's admitted worker
(broker.admission); anyone else is refused unheard, with a log line. Then per request
(SO_PEERCRED):
- Complete: only the live turn's worker: pid, uid and turn token match the fork-server's
  AdmitWorker (broker.admission.WorkerAdmissions). Anyone else is refused and logged.
- AdmitWorker, RetireWorker: only the fork-server (the peer's pid is the pid in forkserver.pid).
- VaultRead: only core (the peer's pid is the pid in core.pid).
- Ping: anyone let in (it reveals nothing but the transports' status lines).

A transport that runs inside this process (the Telegram poller) is handed to `main` as a
`Transport` by the process's entry (`shelldon broker`, cli.run_cmd): broker/ never imports
transport/.
"""

from __future__ import annotations

import grp
import logging
import os
import pwd
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from shelldon import daemon, ipc
from shelldon.broker.admission import WorkerAdmissions
from shelldon.broker.chain import Attempt, ProviderChain
from shelldon.broker.patterns import compile_all, let_go
from shelldon.broker.providers import MissingKey, make_provider
from shelldon.broker.providers.base import Provider
from shelldon.broker.providers.scope import CallScope, calls_in
from shelldon.broker.vault import surface_vault
from shelldon.contracts import wire
from shelldon.contracts.brain import BrainReply, CompletionRequest
from shelldon.contracts.config import ShelldonConfig
from shelldon.core.vault import VaultError
from shelldon.paths import DataRoot
from shelldon.quiet import Quiet

log = logging.getLogger("shelldon.broker.server")


class Brain(Protocol):
    """What the broker needs from `broker.chain.ProviderChain`."""

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> BrainReply: ...


def build_brain(root: DataRoot) -> Brain:
    """The chain shelldon.toml describes (`build_chain`); offline when none is set.

    Raises ConfigError (a message a person can act on) before the broker serves anything.
    """
    from shelldon.config import load_config

    return build_chain(load_config(root), root=root)


def build_chain(
    config: ShelldonConfig | None,
    *,
    root: DataRoot | None = None,
    read_secret: Callable[[str], str | None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> ProviderChain:
    """The chain `shelldon.toml` describes; no providers configured → the offline brain alone.

    Keys are read here (`read_secret`, default the broker's vault read). A provider whose key is
    not stored yet is left out and listed in `chain.skipped` (the owner is told, `status` shows
    it; the broker builds again once the key is there); a chain left with no provider at all gets
    the offline brain, so the pet still answers. Any other bad setting raises ConfigError. The
    doctor builds its probes with this same function.
    """
    if config is None or not config.chain:
        return ProviderChain([_offline_brain()], clock=clock, sleep=sleep)
    if read_secret is None:
        read_secret = _vault_reader(root if root is not None else DataRoot.resolve())
    providers: list[Provider] = []
    skipped: list[Attempt] = []
    for spec in config.chain:
        if spec.kind == "offline":
            providers.append(_offline_brain(spec.name))
            continue
        try:
            providers.append(make_provider(spec, read_secret))
        except MissingKey as exc:
            log.warning("broker: %s; skipping provider %s until then", exc, spec.name)
            skipped.append(Attempt(spec.name, "no_key", f"shelldon vault set {spec.key}"))
    if not providers:
        providers.append(_offline_brain())
    return ProviderChain(providers, clock=clock, sleep=sleep, skipped=tuple(skipped))


def _offline_brain(name: str = "offline") -> Provider:
    # Only the chains that use the offline brain pay for importing its rules.
    from shelldon.broker.offline import OfflineBrain

    brain = OfflineBrain()
    brain.name = name  # the chain, logs and BrainReply.provider use the configured name
    return brain


def _vault_reader(root: DataRoot) -> Callable[[str], str | None]:
    """The broker's one vault read, as `build_chain`'s key reader."""

    def read(key: str) -> str | None:
        value = surface_vault(root, key)
        return value if isinstance(value, str) else None

    return read


class Transport(Protocol):
    """A transport running in the broker process (the only one with network egress)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def status_lines(self) -> list[str]: ...


class BrokerService:
    def __init__(
        self,
        root: DataRoot,
        brain: Brain,
        *,
        transports: Sequence[Transport] = (),
        rebuild: Callable[[], Brain] | None = None,
    ) -> None:
        self.root = root
        self.brain = brain
        self.completions = 0
        self.workers = WorkerAdmissions()
        self.refusals = ipc.RefusalLog(log)  # every line a peer's misbehaviour logs
        # The HTTP calls of each completion in flight, by turn: a retired worker's are ended.
        self._in_flight: dict[str, CallScope] = {}
        self._in_flight_lock = threading.Lock()
        self.transports = tuple(transports)
        self.rebuild = rebuild  # builds the chain again (a skipped provider's key may be stored)
        # A quiet spell lets the offline brain's compiled regexes go, as core lets its rules go.
        self.quiet = Quiet(let_go, name="broker-rest")

    def transport_lines(self) -> tuple[str, ...]:
        lines: list[str] = []
        for transport in self.transports:
            try:
                lines.extend(transport.status_lines())
            except Exception:
                log.exception("broker: a transport's status failed")
        return tuple(lines)

    def skipped(self) -> tuple[Attempt, ...]:
        return tuple(getattr(self.brain, "skipped", ()))

    def _refresh(self) -> None:
        """A provider was skipped for a missing key: build again, in case it is stored now."""
        if self.rebuild is None or not self.skipped():
            return
        try:
            brain = self.rebuild()
        except Exception as exc:  # the configuration changed under us: keep serving the old chain
            log.warning("broker: rebuilding the chain failed: %s", exc)
            return
        if len(getattr(brain, "skipped", ())) < len(self.skipped()):
            log.info("broker: a missing key is stored now; the chain is rebuilt")
            self.brain = brain

    def pong_detail(self) -> str:
        lines = [f"{self.completions} completions served"]
        lines += [
            f"provider {a.provider} skipped: its key is not stored yet (`{a.message}`)"
            for a in self.skipped()
        ]
        return "; ".join(lines)

    def handle(
        self, peer: ipc.Peer, message: wire.Message, respond: ipc.Respond
    ) -> wire._Msg | None:
        if isinstance(message, wire.Ping):
            self._refresh()
            return wire.Pong(
                name="broker",
                pid=os.getpid(),
                detail=self.pong_detail(),
                lines=self.transport_lines(),
            )
        if isinstance(message, wire.Complete):
            refusal = self.workers.take(peer, message)
            if refusal:
                # Once per uid a minute with a count (ipc.RefusalLog): the reason may hold
                # what the peer chose (a turn id), so it is not the key.
                self.refusals.line(
                    "broker",
                    peer,
                    "Complete refused",
                    f"refused Complete from pid {peer.pid} uid {peer.uid}: {refusal}",
                )
                only = "only the worker the fork-server spawned for a live turn may ask"
                return wire.Refused(reason=f"{only} for a completion ({refusal})")
            with self.quiet.turn():
                return self._complete(message)
        if isinstance(message, (wire.AdmitWorker, wire.RetireWorker)):
            return self._from_forkserver(peer, message)
        if isinstance(message, wire.VaultRead):
            core_pid = ipc.read_pid_file(self.root.run_dir, "core")
            if peer.pid != core_pid:
                self.refusals.line(
                    "broker",
                    peer,
                    "VaultRead refused",
                    f"refused VaultRead from pid {peer.pid} uid {peer.uid} (core is {core_pid})",
                )
                return wire.Refused(reason="only core may read the vault")
            try:
                value = surface_vault(self.root, message.key)
            except VaultError as exc:
                return wire.Refused(reason=str(exc))
            return wire.VaultValue(key=message.key, value=value)
        # Once per uid and kind a minute, with a count: a client looping on it grows no log.
        reason = f"the broker does not serve {type(message).__name__}"
        self.refusals.refused("broker", peer, reason, what="a request")
        return wire.Refused(reason=reason)

    def admit(self, peer: ipc.Peer) -> str | None:
        """Who may connect at all (the accept loop asks, before any thread or cap): root, the
        service uid, and a live turn's admitted worker. Another process of the worker uid is not a
        worker."""
        if peer.uid in (0, os.geteuid()) or self.workers.is_admitted(peer):
            return None
        return "not a live turn's worker"

    def reserved(self, peer: ipc.Peer) -> bool:
        """The pet's own callers, never counted against a cap: the fork-server (its admissions),
        core (vault reads) and a live turn's admitted worker."""
        run_dir = self.root.run_dir
        return (
            self.workers.is_admitted(peer)
            or peer.pid == ipc.read_pid_file(run_dir, "forkserver")
            or peer.pid == ipc.read_pid_file(run_dir, "core")
        )

    def _from_forkserver(
        self, peer: ipc.Peer, message: wire.AdmitWorker | wire.RetireWorker
    ) -> wire._Msg:
        forkserver_pid = ipc.read_pid_file(self.root.run_dir, "forkserver")
        if forkserver_pid is None or peer.pid != forkserver_pid:
            kind = type(message).__name__
            self.refusals.line(
                "broker",
                peer,
                f"{kind} refused",
                f"refused {kind} from pid {peer.pid} uid {peer.uid} "
                f"(fork-server is {forkserver_pid})",
            )
            return wire.Refused(reason="only the fork-server admits workers")
        if isinstance(message, wire.AdmitWorker):
            self.workers.admit(message)
            return wire.Ack()
        retired = self.workers.retire(message)
        if retired:
            self._abandon(message.turn_id)
        return wire.Ack(detail="retired" if retired else "not admitted")

    def _abandon(self, turn_id: str) -> None:
        """The turn's worker is gone: whatever its completion still has open is closed now, so
        a local server stops generating an answer nobody will read (docs/brain.md)."""
        with self._in_flight_lock:
            scope = self._in_flight.get(turn_id)
        if scope is None:
            return
        closed = scope.cancel()
        log.info(
            "broker: turn %s's worker retired mid-completion; %d provider call(s) closed",
            turn_id,
            closed,
        )

    def _complete(self, message: wire.Complete) -> wire._Msg:
        self._refresh()
        scope = CallScope()
        with self._in_flight_lock:
            self._in_flight[message.turn_id] = scope
        try:
            deadline = time.monotonic() + max(0.0, message.deadline_s)
            with calls_in(scope):
                reply = self.brain.complete(message.request, deadline=deadline)
        except Exception as exc:  # ChainExhausted and anything a provider let escape
            kind = getattr(exc, "kind", "") or type(exc).__name__
            log.warning("broker: turn %s: the brain failed: %s", message.turn_id, exc)
            return wire.CompletionFailed(
                reason=str(exc)[:500], kind=str(kind), failures=getattr(exc, "failures", ())
            )
        finally:
            with self._in_flight_lock:
                if self._in_flight.get(message.turn_id) is scope:
                    del self._in_flight[message.turn_id]
        self.completions += 1
        # broker.answer mends what a model wrote; this is the backstop for any other field (a
        # provider's error text in `failures`, say): a frame that cannot encode loses the turn.
        answer = wire.mended(wire.Completion(reply=reply))
        if answer is None:
            log.error("broker: turn %s: the answer cannot be sent on the wire", message.turn_id)
            return wire.CompletionFailed(reason="the answer could not be encoded", kind="malformed")
        return answer


def worker_group(root: DataRoot) -> int | None:
    """The configured worker user's primary group: the broker socket's group (workers connect
    through it), or None when no worker user is configured or it does not exist (dev mode; the
    fork-server refuses to start on a missing user)."""
    from shelldon.config import ConfigError, configured_worker_user

    try:
        user = configured_worker_user(root)
    except ConfigError:
        return None
    if not user:
        return None
    try:
        entry = pwd.getpwuid(int(user)) if user.isdigit() else pwd.getpwnam(user)
    except KeyError:
        return None
    return entry.pw_gid


def socket_group(root: DataRoot) -> int | None:
    """The group to give broker.sock: the worker's. None when the socket is born with it (the
    appliance's unit runs the broker with Group=shelldon-worker) or this process may not give it
    (own group, 0660: the workers run as this uid, dev mode)."""
    gid = worker_group(root)
    if gid is None or gid == os.getegid():
        return None
    if ipc.may_give_group(gid):
        return gid
    try:
        name = grp.getgrgid(gid).gr_name
    except KeyError:
        name = str(gid)
    log.warning(
        "broker: may not give broker.sock the worker's group %s: it stays this uid's (0660); a "
        "worker of another uid cannot reach it (run the broker with that group, or dev mode)",
        name,
    )
    return None


def main(root: DataRoot, *, transports: Sequence[Transport] = ()) -> int:
    """`shelldon broker`: build the chain, listen, serve until SIGTERM. `transports` (built by
    the process's entry, cli.run_cmd) start once the socket listens and stop when serving ends."""
    from shelldon.config import ConfigError

    try:
        brain = build_brain(root)
    except ConfigError as exc:
        log.error("broker: %s", exc)
        return 2
    service = BrokerService(
        root,
        brain,
        transports=transports,
        rebuild=lambda: build_brain(root),
    )

    def started() -> None:
        for transport in service.transports:
            transport.start()
        # The offline brain's regexes compile on first use (broker.patterns): here, beside READY,
        # not before it, so that neither the start nor the first turn waits for them.
        threading.Thread(target=compile_all, name="warm-up", daemon=True).start()

    def stopping() -> None:
        service.quiet.stop()
        for transport in service.transports:
            transport.stop()

    # 0660 with the workers' group: the service uid, root and the worker uid can connect, nobody
    # else; SO_PEERCRED then decides who gets in (service.admit) and what (service.handle).
    return daemon.serve(
        root,
        "broker",
        service.handle,
        mode=0o660,
        group=socket_group(root),
        admit=service.admit,
        reserved=service.reserved,
        idle_timeout=120.0,
        started=started,
        stopping=stopping,
    )
