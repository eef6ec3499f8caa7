"""A worker's stderr is its own pipe: the fork-server logs it with the worker's pid and turn, and
only so much of it, and a worker that floods it neither blocks nor fills the log.

Real forks of a real ForkServer (dev mode, so no root): the turn itself is replaced by a hostile
one that writes to fd 2, since no honest turn writes megabytes of stderr.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import struct
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot
from shelldon.worker import drop, forkserver, turn

Turn = Callable[..., wire.TurnResult | wire.TurnFailed]


def run_one_turn(
    monkeypatch: pytest.MonkeyPatch, body: Callable[[], None], turn_id: str
) -> wire.Message:
    """Spawn one worker whose turn is `body` then a result; drive the fork-server's loop to the
    end of the turn; what core would have received."""

    def hostile_turn(
        root: DataRoot,
        spawn: wire.SpawnTurn,
        *,
        isolated: bool,
        deadline: float,
        token: str,
        admitted: Callable[[], None],
    ) -> wire.TurnResult:
        admitted()
        body()
        return wire.TurnResult(turn_id=spawn.turn_id, reply="done", isolated=isolated)

    monkeypatch.setattr(turn, "run_turn", hostile_turn)  # the child looks it up after the fork
    server = forkserver.ForkServer(DataRoot.resolve(), drop.resolve_identity(None))
    core_side, server_side = socket.socketpair()
    spawn = wire.SpawnTurn(turn_id=turn_id, purpose="turn", message="hi", deadline_s=60)
    assert server._spawn(spawn, server_side)
    while server.turn is not None:
        for key, _ in server._selector.select(5):
            if key.data == "turn":
                server._read_turn()
            elif key.data == "stderr":
                server._read_stderr()
        server._check_deadline()
    server._reap()
    answer = ipc.recv(core_side, deadline=time.monotonic() + 10)
    core_side.close()
    return answer


def worker_lines(caplog: pytest.LogCaptureFixture, turn_id: str) -> list[str]:
    prefix = re.compile(rf"^worker \d+ \(turn {re.escape(turn_id)}\): ")
    return [r.getMessage() for r in caplog.records if prefix.match(r.getMessage())]


def test_a_flooding_worker_neither_blocks_nor_fills_the_log(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="shelldon.worker.forkserver")
    first = b"\x1b[2Jthe first line\n"
    # Words, not one long token: a log filter elsewhere may blank token-shaped runs (32+ chars).
    line = (b"the worker says it once more " * 4)[:99] + b"\n"
    batches = 20  # 2 MB: 30 pipe buffers; a worker nobody read would block on the first
    written = len(first) + batches * 1000 * len(line)

    def flooding() -> None:
        os.write(2, first)
        for _ in range(batches):
            os.write(2, line * 1000)

    answer = run_one_turn(monkeypatch, flooding, "t-flood")
    assert isinstance(answer, wire.TurnResult) and answer.reply == "done"

    lines = worker_lines(caplog, "t-flood")
    # The terminal escape is defused; the line itself is there.
    assert lines[0].endswith(": \ufffd[2Jthe first line")
    logged = sum(len(m.split("): ", 1)[1]) + 1 for m in lines[:-1])
    assert logged <= forkserver.STDERR_LOG_CAP + len(line)  # the cap, give or take the last line
    summary = re.search(r"(\d+) more bytes of stderr not logged", lines[-1])
    assert summary, lines[-1]
    assert logged + int(summary.group(1)) == written  # every byte read: logged or counted


def test_a_last_line_without_newline_and_an_endless_line_are_logged_cut(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="shelldon.worker.forkserver")

    def chatty() -> None:
        os.write(2, b"y " * 2500 + b"\n")
        os.write(2, b"no newline at the end")

    answer = run_one_turn(monkeypatch, chatty, "t-cut")
    assert isinstance(answer, wire.TurnResult)
    lines = worker_lines(caplog, "t-cut")
    assert len(lines) == 2, lines
    cap = forkserver.STDERR_LINE_CAP
    assert lines[0].endswith(f": {('y ' * cap)[:cap]}... (5000 characters)")
    assert lines[1].endswith(": no newline at the end")


def test_the_worker_holds_no_fd_of_the_fork_servers_log(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """fd 2 in the worker is a pipe, not the file the fork-server's own stderr is."""
    caplog.set_level(logging.WARNING, logger="shelldon.worker.forkserver")
    ours = os.fstat(2)

    def report_fd2() -> None:
        mine = os.fstat(2)
        same = (mine.st_dev, mine.st_ino) == (ours.st_dev, ours.st_ino)
        kind = "pipe" if os.path.stat.S_ISFIFO(mine.st_mode) else "not a pipe"
        os.write(2, f"fd2 is {kind}; the fork-server's own: {same}\n".encode())

    run_one_turn(monkeypatch, report_fd2, "t-fd2")
    assert worker_lines(caplog, "t-fd2")[0].endswith(": fd2 is pipe; the fork-server's own: False")


def test_a_peer_other_than_core_cannot_make_the_loop_buffer_a_big_frame(run_dir: Path) -> None:
    """A peer other than core may only Ping: a frame announced over PEER_MAX_FRAME is refused at
    its header, before the loop buffers a byte of its body. Core's limit (1 MiB) applied before,
    and sixteen such peers grew the fork-server, parent of every worker, by megabytes a round."""
    server = forkserver.ForkServer(DataRoot.resolve(), drop.resolve_identity(None))
    for length in (forkserver.PEER_MAX_FRAME + 1, ipc.MAX_FRAME):
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs:
            server._take(mine)  # an allowed peer (this uid), read by the loop
            theirs.sendall(struct.pack(">I", length) + b"\xc1" * 1024)
            server._read_peer(mine.fileno())
            assert not server.peers, "still buffering the frame"
            answer = wire.decode(ipc.recv_bytes(theirs, deadline=time.monotonic() + 30))
        assert isinstance(answer, wire.Refused), answer
        assert f"exceeds the {forkserver.PEER_MAX_FRAME}-byte limit" in answer.reason, answer
    # A Ping is still answered.
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with theirs:
        server._take(mine)
        theirs.sendall(ipc.frame(wire.Ping()))
        server._read_peer(mine.fileno())
        assert isinstance(
            wire.decode(ipc.recv_bytes(theirs, deadline=time.monotonic() + 30)), wire.Pong
        )
