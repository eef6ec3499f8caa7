"""Failures mid-turn end in the degrade reply within the turn deadline, and the next turn works.

The processes run one by one, as systemd units would (Type=notify, READY=1 on a test socket),
with a real HTTP fake provider on 127.0.0.1 as the brain: a worker killed mid-turn, a broker killed
mid-turn (then restarted, as systemd would), a brain that never answers.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, RecordedRequest, Step, reply, slow
from shelldon import ipc
from shelldon.contracts import wire
from shelldon.core import runner
from shelldon.core.turn import apply as turns
from shelldon.paths import DataRoot
from support.pet import Units, alive

TURN_DEADLINE_S = 4.0
# A generous bound on the whole exchange: the deadline, the fork-server's kill and relay grace, and
# slack for a loaded CI box. The fake's "never answers" would take 120 s.
REPLY_BOUND_S = TURN_DEADLINE_S + runner.RELAY_GRACE_S + 10
NEVER = 120.0


def degrade_text() -> str:
    return turns.DEGRADE_TEXT


class Brain:
    """The fake provider, with an event per request so a test knows the turn is mid-flight."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.next_step: Step = reply("hello from the fake brain")
        self.fake = FakeProvider(responder=self._respond)

    def _respond(self, request: RecordedRequest) -> Step:
        self.arrived.set()
        return self.next_step


@pytest.fixture
def brain() -> Iterator[Brain]:
    b = Brain()
    b.fake.start()
    yield b
    b.fake.stop()


@pytest.fixture
def units(run_dir: Path, brain: Brain) -> Iterator[Units]:
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    # The file's turn fits the timeout (checked at load); the turns run under TURN_DEADLINE_S.
    (root.home / "shelldon.toml").write_text(
        brain.fake.provider_table(timeout=NEVER, retries=0) + "\n[worker]\nturn_timeout = 130\n"
    )
    u = Units(root, env={"SHELLDON_TURN_DEADLINE": str(TURN_DEADLINE_S)})
    try:
        for name in ("broker", "forkserver", "core"):
            u.start(name)
        yield u
    finally:
        u.stop_all()


def say(root: DataRoot, text: str) -> wire.Reply:
    answer = ipc.request(root.socket("core"), wire.Say(text=text), timeout=REPLY_BOUND_S)
    assert isinstance(answer, wire.Reply), answer
    return answer


def say_in_background(root: DataRoot, text: str) -> tuple[threading.Thread, list[object]]:
    box: list[object] = []

    def run() -> None:
        try:
            box.append(say(root, text))
        except BaseException as exc:
            box.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


def worker_of(forkserver_pid: int) -> int:
    """The fork-server's one child: the worker of the turn in flight."""
    children = Path(f"/proc/{forkserver_pid}/task/{forkserver_pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def assert_next_turn_works(root: DataRoot, brain: Brain) -> None:
    brain.arrived.clear()
    brain.next_step = reply("I am back")
    answer = say(root, "are you back?")
    assert answer.degraded is False
    assert answer.text == "I am back"


def test_a_normal_turn_goes_through_the_fake_brain(units: Units, brain: Brain) -> None:
    answer = say(units.root, "hello")
    assert answer == wire.Reply(
        text="hello from the fake brain", turn_id=answer.turn_id, degraded=False, provider="fake"
    )
    assert brain.arrived.is_set()


def test_a_brain_that_never_answers_gets_the_degrade_reply(units: Units, brain: Brain) -> None:
    brain.next_step = slow(NEVER, then=reply("far too late"))
    started = time.monotonic()
    answer = say(units.root, "are you thinking?")
    assert answer.degraded is True
    assert answer.text.startswith(degrade_text())
    assert "my model link is down: it did not answer in time" in answer.text  # and why
    assert time.monotonic() - started < NEVER  # it did not wait for the brain
    # The chain gave up inside the turn (the worker keeps a margin to relay its answer), so the
    # fork-server had nothing to kill.
    assert "fake failed: timeout" in units.log_text()
    assert_next_turn_works(units.root, brain)


def test_killing_the_worker_mid_turn_gets_the_degrade_reply(units: Units, brain: Brain) -> None:
    brain.next_step = slow(NEVER)
    thread, box = say_in_background(units.root, "think hard")
    assert brain.arrived.wait(REPLY_BOUND_S), units.log_text()
    worker = worker_of(units.procs["forkserver"].pid)
    os.kill(worker, signal.SIGKILL)
    thread.join(REPLY_BOUND_S)
    assert box and isinstance(box[0], wire.Reply), box
    assert box[0].degraded is True
    assert box[0].text == degrade_text()
    assert "killed by SIGKILL" in units.log_text()
    assert not alive(worker)
    assert_next_turn_works(units.root, brain)


def test_killing_the_broker_mid_turn_gets_the_degrade_reply(units: Units, brain: Brain) -> None:
    brain.next_step = slow(NEVER)
    thread, box = say_in_background(units.root, "think hard")
    assert brain.arrived.wait(REPLY_BOUND_S), units.log_text()
    units.kill("broker")
    thread.join(REPLY_BOUND_S)
    assert box and isinstance(box[0], wire.Reply), box
    assert box[0].degraded is True
    assert box[0].text == degrade_text()
    # A turn while the broker is down also degrades (the worker cannot reach it) ...
    down = say(units.root, "anyone there?")
    assert down.degraded is True
    # ... and once it is back (systemd's Restart=on-failure), turns work again.
    units.start("broker")
    assert_next_turn_works(units.root, brain)


def test_the_units_notify_ready_and_stop_cleanly(units: Units) -> None:
    pids = {name: proc.pid for name, proc in units.procs.items()}
    for pid in pids.values():
        assert any(p == pid and "READY=1" in m for p, m in units.messages)
    codes = units.stop_all()
    assert codes == {"broker": 0, "forkserver": 0, "core": 0}
    for name in pids:
        assert not units.root.socket(name).exists()


def test_each_process_pings_the_systemd_watchdog(run_dir: Path) -> None:
    root = DataRoot.resolve()
    units = Units(root, watchdog_usec=400_000)  # 0.4 s: a ping every 0.2 s
    try:
        pids = {name: units.start(name) for name in ("broker", "forkserver", "core")}
        for name, pid in pids.items():
            units.wait_for(pid, "WATCHDOG=1", timeout=30)
            assert any(p == pid and "WATCHDOG=1" in m for p, m in units.messages), name
    finally:
        codes = units.stop_all()
    assert set(codes.values()) == {0}
    stopping = {p for p, m in units.messages if "STOPPING=1" in m.split("\n")}
    assert set(pids.values()) <= stopping
