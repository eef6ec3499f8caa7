"""The broker process: the egress boundary. Serves completions to workers and vault reads to core.

Peer checks (SO_PEERCRED, see docs/processes.md):
- Complete: only a direct child of the fork-server (the peer's parent pid is the pid in
  forkserver.pid),
  i.e. a worker of a turn in flight. Anyone else is refused and logged.
- VaultRead: only core (the peer's pid is the pid in core.pid).
- Ping: anyone who can reach the socket (it reveals nothing but the transports' status lines).

A transport that runs inside this process (the Telegram poller) is handed to `main` as a
`Transport` by the process's entry (`shelldon broker`, cli.run_cmd): broker/ never imports
transport/.
"""

from __future__ import annotations

import logging
import os
import pwd
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from shelldon import daemon, ipc
from shelldon.broker.chain import Attempt, ProviderChain
from shelldon.broker.providers import MissingKey, make_provider
from shelldon.broker.providers.base import Provider
from shelldon.broker.vault import surface_vault
from shelldon.contracts import wire
from shelldon.contracts.brain import BrainReply, CompletionRequest
from shelldon.contracts.config import ShelldonConfig
from shelldon.core.vault import VaultError
from shelldon.paths import DataRoot

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
    if config is None or not config.providers:
        return ProviderChain([_offline_brain()], clock=clock, sleep=sleep)
    if read_secret is None:
        read_secret = _vault_reader(root if root is not None else DataRoot.resolve())
    providers: list[Provider] = []
    skipped: list[Attempt] = []
    for spec in config.providers:
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
        worker_uid: int | None = None,
        transports: Sequence[Transport] = (),
        rebuild: Callable[[], Brain] | None = None,
    ) -> None:
        self.root = root
        self.brain = brain
        self.completions = 0
        self.worker_uid = worker_uid if worker_uid != os.geteuid() else None
        self.transports = tuple(transports)
        self.rebuild = rebuild  # builds the chain again (a skipped provider's key may be stored)

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
            refusal = self._check_worker(peer)
            if refusal:
                return wire.Refused(reason=refusal)
            return self._complete(message)
        if isinstance(message, wire.VaultRead):
            core_pid = ipc.read_pid_file(self.root.run_dir, "core")
            if peer.pid != core_pid:
                log.warning(
                    "broker: refused VaultRead from pid %d uid %d (core is %s)",
                    peer.pid,
                    peer.uid,
                    core_pid,
                )
                return wire.Refused(reason="only core may read the vault")
            try:
                value = surface_vault(self.root, message.key)
            except VaultError as exc:
                return wire.Refused(reason=str(exc))
            return wire.VaultValue(key=message.key, value=value)
        log.warning("broker: refused %s from pid %d", type(message).__name__, peer.pid)
        return wire.Refused(reason=f"the broker does not serve {type(message).__name__}")

    def _check_worker(self, peer: ipc.Peer) -> str | None:
        # Isolated: the worker uid is used by nothing but workers, and the kernel vouches for it
        # (the appliance's ProtectProc=invisible hides another uid's /proc: no parent pid there).
        if self.worker_uid is not None and peer.uid == self.worker_uid:
            return None
        forkserver_pid = ipc.read_pid_file(self.root.run_dir, "forkserver")
        parent = peer.parent_pid
        if forkserver_pid is None or parent != forkserver_pid:
            log.warning(
                "broker: refused Complete from pid %d uid %d (parent %s, fork-server %s)",
                peer.pid,
                peer.uid,
                parent,
                forkserver_pid,
            )
            return "only a worker forked by the fork-server may ask for a completion"
        return None

    def _complete(self, message: wire.Complete) -> wire._Msg:
        self._refresh()
        try:
            deadline = time.monotonic() + max(0.0, message.deadline_s)
            reply = self.brain.complete(message.request, deadline=deadline)
        except Exception as exc:  # ChainExhausted and anything a provider let escape
            kind = getattr(exc, "kind", "") or type(exc).__name__
            log.warning("broker: turn %s: the brain failed: %s", message.turn_id, exc)
            return wire.CompletionFailed(
                reason=str(exc)[:500], kind=str(kind), failures=getattr(exc, "failures", ())
            )
        self.completions += 1
        return wire.Completion(reply=reply)


def _worker_uid(root: DataRoot) -> int | None:
    """The configured worker user's uid, if it exists (else the fork-server refuses to start)."""
    from shelldon.config import ConfigError, configured_worker_user

    try:
        user = configured_worker_user(root)
    except ConfigError:
        return None
    if not user:
        return None
    try:
        return pwd.getpwnam(user).pw_uid if not user.isdigit() else int(user)
    except KeyError:
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
        worker_uid=_worker_uid(root),
        transports=transports,
        rebuild=lambda: build_brain(root),
    )

    def started() -> None:
        for transport in service.transports:
            transport.start()

    def stopping() -> None:
        for transport in service.transports:
            transport.stop()

    # 0666: workers run as another uid and must connect; SO_PEERCRED decides who gets what.
    return daemon.serve(
        root,
        "broker",
        service.handle,
        mode=0o666,
        idle_timeout=120.0,
        started=started,
        stopping=stopping,
    )
