"""worker.turn's way to the broker: a broker that is not there, or that did not admit the worker,
is stage "unreached" (no brain ran: a check-in is asked again soon, not charged), never "brain".
A clean-clone CI run: core's first check-in ran 30 ms before the broker was up; its worker read
"broker: FileNotFoundError", the check-in was charged and lost to its cooldown."""

from __future__ import annotations

import os
import select
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shelldon.contracts import wire
from shelldon.core.storage import layout
from shelldon.paths import DataRoot
from shelldon.worker import admission
from shelldon.worker.turn import run_turn


@pytest.fixture
def root(tmp_path: Path, run_dir: Path) -> DataRoot:
    data = DataRoot(tmp_path / "home", run_override=run_dir)
    layout.prepare(data)
    return data


def _spawn() -> wire.SpawnTurn:
    return wire.SpawnTurn(turn_id="t1", purpose="checkin", message="")


def test_a_broker_that_is_not_there_is_unreached(root: DataRoot) -> None:
    assert not root.socket("broker").exists()
    result = run_turn(root, _spawn(), isolated=False, deadline=time.monotonic() + 10, token="x")
    assert isinstance(result, wire.TurnFailed)
    assert result.stage == "unreached", result
    assert result.stage in wire.NOT_STARTED_STAGES


def test_a_worker_the_broker_did_not_admit_asks_it_nothing(root: DataRoot) -> None:
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(os.fspath(root.socket("broker")))
    listening.listen(4)
    try:
        result = run_turn(
            root,
            _spawn(),
            isolated=False,
            deadline=time.monotonic() + 10,
            token="x",
            admitted=lambda: False,
        )
        assert isinstance(result, wire.TurnFailed) and result.stage == "unreached", result
        assert select.select([listening], [], [], 0)[0] == []  # no connection was made
    finally:
        listening.close()


@pytest.mark.parametrize(
    ("settle", "admitted"),
    [
        (lambda go: admission.release(go), True),
        (lambda go: admission.release(go, False), False),
        (os.close, False),  # a fork-server that died before it wrote
    ],
    ids=["admitted", "not admitted", "fork-server gone"],
)
def test_the_go_pipe_says_whether_the_worker_was_admitted(
    settle: Callable[[int], None], admitted: bool
) -> None:
    read_end, write_end = os.pipe()
    settle(write_end)
    assert admission.await_admission(read_end) is admitted
