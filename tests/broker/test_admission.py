"""The broker serves a completion only to the worker the fork-server admitted for a live turn."""

from __future__ import annotations

import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, stream_hold
from shelldon import ipc
from shelldon.broker.admission import COMPLETES_PER_TURN, RETIRE_GRACE_S, WorkerAdmissions
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.server import BrokerService, build_chain
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.paths import DataRoot
from shelldon.worker.admission import BrokerAdmission
from support.providers import http_provider

REQUEST = CompletionRequest(purpose="turn", sections=(PromptSection(kind="message", text="hi"),))
WORKER = ipc.Peer(pid=4242, uid=5001, gid=5001)


def _admit(
    pid: int = 4242, uid: int = 5001, token: str = "t0k3n", turn: str = "t1"
) -> wire.AdmitWorker:
    return wire.AdmitWorker(turn_id=turn, pid=pid, uid=uid, token=token, deadline_s=30.0)


def _complete(token: str = "t0k3n", turn: str = "t1") -> wire.Complete:
    return wire.Complete(turn_id=turn, request=REQUEST, token=token)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_only_the_admitted_pid_uid_and_token_pass_and_only_for_that_turn() -> None:
    table = WorkerAdmissions()
    assert table.check(WORKER, _complete()) == "no live turn's worker has this pid"
    table.admit(_admit())
    assert table.check(WORKER, _complete()) is None
    assert table.is_admitted(WORKER)
    assert table.check(ipc.Peer(4243, 5001, 5001), _complete()) is not None  # another pid
    assert "admitted as uid 5001" in (table.check(ipc.Peer(4242, 5002, 5002), _complete()) or "")
    assert table.check(WORKER, _complete(token="guess")) == "wrong turn token"
    assert "not t2" in (table.check(WORKER, _complete(turn="t2")) or "")
    assert table.retire(wire.RetireWorker(turn_id="t1", pid=4242))
    assert table.check(WORKER, _complete()) is not None
    assert not table.is_admitted(WORKER)


def test_an_admission_serves_one_completion_a_turn_even_asked_at_once() -> None:
    """A worker asks once a turn (worker.turn); a hostile one with its turn's token asked at full
    rate, each a provider call (tests/test_ipc_storm_shapes.py: 406 in the drill before). Eight
    threads asking at once: one passes."""
    table = WorkerAdmissions()
    table.admit(_admit())
    assert table.take(WORKER, _complete(token="guess")) == "wrong turn token"  # spends nothing
    start = threading.Barrier(8)

    def ask() -> str | None:
        start.wait(10)
        return table.take(WORKER, _complete())

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: ask(), range(8)))
    assert answers.count(None) == COMPLETES_PER_TURN == 1
    assert all("has had its completion" in (a or "x") for a in answers if a is not None)
    assert table.check(WORKER, _complete()) is None  # check alone spends nothing
    table.admit(_admit(turn="t2"))  # the next turn's admission (a new fork) asks again
    assert table.take(WORKER, _complete(turn="t2")) is None


def test_an_admission_the_fork_server_never_retired_ends_after_its_deadline() -> None:
    clock = Clock()
    table = WorkerAdmissions(clock=clock)
    table.admit(_admit())
    clock.now += 30.0 + RETIRE_GRACE_S - 0.01
    assert table.check(WORKER, _complete()) is None
    clock.now += 0.02
    assert table.check(WORKER, _complete()) is not None
    assert len(table) == 0


def test_a_retirement_for_another_turn_leaves_the_admission() -> None:
    table = WorkerAdmissions()
    table.admit(_admit())
    assert not table.retire(wire.RetireWorker(turn_id="old", pid=4242))
    assert table.check(WORKER, _complete()) is None


@pytest.fixture
def service(run_dir: Path) -> BrokerService:
    return BrokerService(DataRoot.resolve(), build_chain(None))


def _handle(service: BrokerService, peer: ipc.Peer, message: wire.Message) -> object:
    return service.handle(peer, message, lambda reply: None)


def test_only_the_fork_server_may_admit_and_the_admitted_worker_gets_its_completion(
    service: BrokerService, run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    me = ipc.Peer(os.getpid(), os.geteuid(), os.getegid())
    # No fork-server pid file yet: nobody admits.
    assert isinstance(_handle(service, me, _admit()), wire.Refused)
    ipc.write_pid_file(run_dir, "forkserver")  # this test process plays the fork-server
    stranger = ipc.Peer(os.getpid() + 1, os.geteuid(), os.getegid())
    refused = _handle(service, stranger, _admit())
    assert isinstance(refused, wire.Refused) and "only the fork-server" in refused.reason
    assert isinstance(_handle(service, me, _admit()), wire.Ack)

    answer = _handle(service, WORKER, _complete())
    assert isinstance(answer, wire.Completion), answer
    impostor = ipc.Peer(pid=4343, uid=5001, gid=5001)  # the worker's uid, not spawned for a turn
    refused = _handle(service, impostor, _complete())
    assert isinstance(refused, wire.Refused) and "live turn" in refused.reason
    assert "refused Complete from pid 4343 uid 5001" in caplog.text
    # At accept, before it is heard: the impostor is not let in; the worker and the service are.
    assert service.admit(impostor) == "not a live turn's worker"
    assert service.admit(WORKER) is None and service.admit(me) is None

    assert isinstance(_handle(service, me, wire.RetireWorker(turn_id="t1", pid=4242)), wire.Ack)
    assert isinstance(_handle(service, WORKER, _complete()), wire.Refused)
    assert service.admit(WORKER) == "not a live turn's worker"


def test_a_worker_retired_mid_completion_has_its_provider_call_closed(
    run_dir: Path, fake: FakeProvider
) -> None:
    """The worker died before its turn's deadline: the fork-server retires it, and the broker
    closes the provider call still streaming for it (the server sees the client go), and the
    chain asks no other HTTP provider for a turn nobody waits for."""
    chain = ProviderChain([http_provider(fake, "openai", timeout=60.0), OfflineBrain()])
    service = BrokerService(DataRoot.resolve(), chain)
    me = ipc.Peer(os.getpid(), os.geteuid(), os.getegid())
    ipc.write_pid_file(run_dir, "forkserver")
    assert isinstance(_handle(service, me, _admit()), wire.Ack)
    fake.script(stream_hold("Once upon a time"))
    answers: list[object] = []
    asking = threading.Thread(target=lambda: answers.append(_handle(service, WORKER, _complete())))
    asking.start()
    assert fake.wait_seen(("streaming", 0))
    assert isinstance(_handle(service, me, wire.RetireWorker(turn_id="t1", pid=4242)), wire.Ack)
    assert fake.wait_closed(0, timeout=20)  # long before the call's 60 s timeout
    asking.join(timeout=20)
    assert not asking.is_alive()
    [answer] = answers
    # The offline brain answered a turn nobody reads (harmless); no second HTTP call was made.
    assert isinstance(answer, wire.Completion) and answer.reply.provider == "offline"
    assert answer.reply.failures[0].kind == "timeout"
    assert "abandoned" in answer.reply.failures[0].detail
    assert len(fake.requests) == 1


def _broker(
    service: BrokerService, idle_timeout: float = 30.0
) -> tuple[ipc.ThreadedServer, threading.Thread]:
    server = ipc.ThreadedServer(
        "broker",
        service.root.socket("broker"),
        service.handle,
        idle_timeout=idle_timeout,
        admit=service.admit,
        reserved=service.reserved,
    )
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def _stop(server: ipc.ThreadedServer, thread: threading.Thread) -> None:
    server.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_the_fork_server_admits_and_retires_over_one_kept_connection(run_dir: Path) -> None:
    """worker.admission keeps one connection to the broker across turns (not two new ones a turn),
    and opens a fresh one when the broker it knew is gone (restarted)."""
    ipc.write_pid_file(run_dir, "forkserver")  # this test process plays the fork-server
    root = DataRoot.resolve()
    service = BrokerService(root, build_chain(None))
    server, thread = _broker(service)
    # A generous bound: the fork-server's 2 s is a production choice, and on a loaded machine one
    # round trip can take longer, which reads as a refused admission (this test failed once so).
    client = BrokerAdmission(root, timeout=30.0)
    try:
        for turn in range(5):
            assert client.admit(f"t{turn}", 4242, 5001, "t0k3n", 30.0)
            assert service.workers.check(WORKER, _complete(turn=f"t{turn}")) is None
            assert client.retire(f"t{turn}", 4242)
            assert not service.workers.is_admitted(WORKER)
        assert client.connections == 1
        # The broker restarts: the kept connection reads EOF; one fresh connection takes over.
        _stop(server, thread)
        for held in list(server._connections):  # the old process's exit closes them all
            held.sock.shutdown(socket.SHUT_RDWR)
        service = BrokerService(root, build_chain(None))
        server, thread = _broker(service)
        assert client.admit("t9", 4242, 5001, "t0k3n", 30.0)
        assert service.workers.check(WORKER, _complete(turn="t9")) is None
        assert client.connections == 2
    finally:
        client.close()
        _stop(server, thread)


def test_a_kept_connection_is_refused_once_its_pid_is_not_the_fork_servers(run_dir: Path) -> None:
    """The broker checks each message's connection against forkserver.pid, not just the first: a
    connection whose pid stopped being the fork-server's admits nobody, and is dropped."""
    ipc.write_pid_file(run_dir, "forkserver")
    root = DataRoot.resolve()
    service = BrokerService(root, build_chain(None))
    server, thread = _broker(service)
    client = BrokerAdmission(root)
    try:
        assert client.admit("t1", 4242, 5001, "t0k3n", 30.0)
        (run_dir / "forkserver.pid").write_text(f"{os.getpid() + 1}\n")  # another fork-server now
        assert not client.admit("t2", 4243, 5001, "t0k3n", 30.0)
        assert not service.workers.is_admitted(ipc.Peer(4243, 5001, 5001))
        assert client.connections == 1 and client._sock is None  # closed after the refusal
    finally:
        client.close()
        _stop(server, thread)


def test_no_broker_listening_is_a_refused_admission_not_an_error(run_dir: Path) -> None:
    client = BrokerAdmission(DataRoot.resolve(), timeout=0.2)
    assert not client.admit("t1", 4242, 5001, "t0k3n", 30.0)
    assert client._sock is None
