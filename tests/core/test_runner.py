"""core.runner: a turn that comes while the fork-server is still starting waits for its socket
(the units start core, the broker and the fork-server side by side), within bounds."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.core import runner
from shelldon.core.runner import WorkerRunner
from shelldon.paths import DataRoot


def _answer_one(listener: socket.socket) -> None:
    conn, _ = listener.accept()
    with conn:
        request = ipc.recv(conn, deadline=time.monotonic() + 10)
        assert isinstance(request, wire.SpawnTurn)
        ipc.send(conn, wire.TurnResult(turn_id=request.turn_id, reply="hello from a late start"))


def test_a_turn_waits_for_a_fork_server_that_is_still_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    root.socket("forkserver").parent.mkdir(parents=True)
    server: list[threading.Thread] = []

    def first_wait_starts_the_server(seconds: float) -> None:
        # The runner found no socket and waits: only now does the fork-server begin to listen.
        if not server:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(root.socket("forkserver")))
            listener.listen(1)
            server.append(threading.Thread(target=_answer_one, args=(listener,), daemon=True))
            server[0].start()

    monkeypatch.setattr(runner, "pause", first_wait_starts_the_server)
    result = WorkerRunner(root, turn_deadline_s=20).spawn("t1", "turn", "hi")
    assert isinstance(result, wire.TurnResult), result
    assert result.reply == "hello from a late start"
    assert server, "the runner never waited"
    server[0].join(timeout=10)


def test_past_the_start_window_the_turn_fails_as_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    root.socket("forkserver").parent.mkdir(parents=True)
    monkeypatch.setattr(runner, "STARTING_WAIT_S", 0.0)
    result = WorkerRunner(root, turn_deadline_s=20).spawn("t2", "turn", "hi")
    assert isinstance(result, wire.TurnFailed)
    assert (result.stage, result.reason.startswith("fork-server unreachable")) == ("spawn", True)


def test_a_clock_line_that_cannot_be_made_is_left_to_the_worker(tmp_path: Path) -> None:
    """A spawn never raises: a history.db that cannot be read for the owner's zone sends no
    clock line (the worker makes its own, fail-soft), and the turn still gets an outcome."""

    def broken() -> str:
        raise OSError("disk I/O error")

    root = DataRoot(tmp_path / "home", tmp_path / "run")
    made = WorkerRunner(root, turn_deadline_s=1.0, clock_line=lambda: "Monday line")
    assert made._clock_line() == "Monday line"
    failing = WorkerRunner(root, turn_deadline_s=1.0, clock_line=broken)
    assert failing._clock_line() == ""
    outcome = failing.spawn("t1", "turn", "hello")  # no fork-server here: a failure, not a raise
    assert isinstance(outcome, wire.TurnFailed)
