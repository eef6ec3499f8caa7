"""A storm of bad peers grows the log by a bounded number of lines: every line a peer's
misbehaviour causes, in core, the broker, the fork-server and the threaded server under core and
the broker, goes through one `ipc.RefusalLog` (once per uid and kind a minute, with a count),
even when the line holds what the peer chose (a length, a turn id, a message's kind)
(docs/processes.md, "A local client misusing the sockets").

Each test sends N bad peers of a kind and counts the lines; the logs' clock is held still, so a
slow machine changes nothing, and the count of the lines held back shows in the next line.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.broker.server import BrokerService, build_chain
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest
from shelldon.core.runner import WorkerRunner
from shelldon.core.server import CoreService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot
from shelldon.worker import drop, forkserver

N = 12  # bad peers of each kind (under the per-uid cap of 16, so all are heard at once)
STRANGER = 5001  # a uid that is neither root nor the service's


class Counted(ipc.RefusalLog):
    """A RefusalLog whose clock stands still, counting every line asked of it (logged or held
    back), so a test can wait for the Nth without sleeping."""

    def __init__(self, logger: logging.Logger) -> None:
        self.now = 0.0
        super().__init__(logger, clock=lambda: self.now)
        self.asked = 0
        self._asked = threading.Condition()

    def line(
        self, name: str, peer: ipc.Peer, kind: str, text: str, *, level: int = logging.WARNING
    ) -> None:
        super().line(name, peer, kind, text, level=level)
        with self._asked:
            self.asked += 1
            self._asked.notify_all()

    def wait_for(self, count: int) -> None:
        with self._asked:
            assert self._asked.wait_for(lambda: self.asked >= count, timeout=30), self.asked


def _lines(caplog: pytest.LogCaptureFixture, marker: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if marker in r.getMessage()]


# --- the broker: requests only the fork-server, core or a live worker may make -------------------
def test_the_brokers_refusals_are_a_line_per_uid_and_kind(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    service = BrokerService(DataRoot.resolve(), build_chain(None))
    service.refusals = refusals = Counted(logging.getLogger("shelldon.broker.server"))
    ipc.write_pid_file(run_dir, "forkserver")  # this process; the peers below are not it
    request = CompletionRequest(purpose="turn", sections=())
    for i in range(N):
        peer = ipc.Peer(pid=70_000 + i, uid=STRANGER, gid=STRANGER)
        turn = f"turn-{i}"  # the peer's own words, in the reason: not the key
        for message in (
            wire.Complete(turn_id=turn, request=request, token=f"t{i}"),
            wire.VaultRead(key=f"key{i}"),
            wire.AdmitWorker(turn_id=turn, pid=i, uid=i, token="x", deadline_s=1.0),
            wire.RetireWorker(turn_id=turn, pid=i),
            wire.Say(text="hi"),
        ):
            answer = service.handle(peer, message, lambda reply: None)
            assert isinstance(answer, wire.Refused)
    lines = _lines(caplog, "uid 5001")
    assert len(lines) == 5, lines  # one per kind, not 5 * N
    assert refusals.asked == 5 * N
    refusals.now = 61.0
    service.handle(ipc.Peer(1, STRANGER, STRANGER), wire.VaultRead(key="k"), lambda reply: None)
    assert _lines(caplog, "uid 5001")[-1].endswith(f"({N - 1} more since the last such line)")


# --- core: a request from a uid or a worker it does not serve -----------------------------------
class _IdleRunner(WorkerRunner):
    pass


@pytest.fixture
def children() -> Iterator[list[int]]:
    """N live children of this process (a fork-server's workers, when this process plays it)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
        )
        for _ in range(N)
    ]
    try:
        yield [p.pid for p in procs]
    finally:
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=30)


def test_cores_refusals_of_who_asks_are_a_line_per_uid_and_kind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, children: list[int]
) -> None:
    caplog.set_level(logging.INFO)
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    layout.prepare(root)
    service = CoreService(Stores.open(root), _IdleRunner(root, turn_deadline_s=5.0))
    service.refusals = refusals = Counted(logging.getLogger("shelldon.core.server"))
    ipc.write_pid_file(root.run_dir, "forkserver")  # so its children are workers
    me = os.geteuid()
    for i, child in enumerate(children):
        for peer in (ipc.Peer(child, me, me), ipc.Peer(80_000 + i, STRANGER, STRANGER)):
            answer = service.handle(peer, wire.StatusRequest(), lambda reply: None)
            assert isinstance(answer, wire.Refused)
    assert len(_lines(caplog, "core: refused")) == 2, _lines(caplog, "core: refused")
    assert refusals.asked == 2 * N


# --- the threaded server (core's and the broker's): bad frames, answers never read --------------
def test_a_threaded_servers_bad_frames_and_lost_answers_are_a_line_per_kind(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="shelldon.ipc")
    go = threading.Event()

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg | None:
        assert go.wait(30)  # every client has gone by now
        if isinstance(message, wire.Ping):
            return wire.Pong(name="echo", pid=peer.pid)  # "could not answer"
        respond(wire.Ack())  # "lost … mid-answer"
        return None

    server = ipc.ThreadedServer("echo", run_dir / "echo.sock", handle, mode=0o600)
    server.refusals = refusals = Counted(logging.getLogger("shelldon.ipc"))
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        for i in range(N):  # a frame too large, of another length each time
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(30)
                sock.connect(str(server.path))
                sock.sendall(struct.pack(">I", ipc.MAX_FRAME + 1 + i))
                assert isinstance(
                    wire.decode(ipc.recv_bytes(sock, deadline=time.monotonic() + 30)), wire.Refused
                )
        refusals.wait_for(N)
        for i in range(N):  # a request, and gone before the answer
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.connect(str(server.path))
                sock.sendall(ipc.frame(wire.Ping() if i % 2 else wire.StatusRequest()))
        go.set()
        refusals.wait_for(2 * N)
    finally:
        server.stop()
        thread.join(timeout=10)
    assert len(_lines(caplog, "refused a frame")) == 1
    assert len(_lines(caplog, "could not answer")) == 1
    assert len(_lines(caplog, "mid-answer")) == 1


# --- the fork-server: bad frames from peers it reads in its loop --------------------------------
def test_the_fork_servers_bad_frames_are_one_line(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    server = forkserver.ForkServer(DataRoot.resolve(), drop.resolve_identity(None))
    server.refusals = refusals = Counted(logging.getLogger("shelldon.worker.forkserver"))
    for i in range(N):
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs:
            server._take(mine)  # an allowed peer (this uid), read by the loop
            theirs.sendall(struct.pack(">I", 0) if i % 2 else struct.pack(">I", 1 << 30))
            server._read_peer(mine.fileno())
            answer = wire.decode(ipc.recv_bytes(theirs, deadline=time.monotonic() + 30))
            assert isinstance(answer, wire.Refused) and answer.reason.startswith("bad frame")
    assert len(_lines(caplog, "fork-server: refused a frame")) == 1
    assert refusals.asked == N
