"""The storm shapes the connect storm does not try (issue 25; tests/support/storm_shapes.py), each
against a real `shelldon run` while the owner talks: the owner always gets in (0 turns degraded),
the log the peers cause stays a few lines, and no server holds more descriptors than its caps
allow, during the storm or after.

The owner-uid shapes run as whoever runs the tests (the owner's uid is the strongest peer: it
passes every admit); the admitted worker needs root (a throwaway worker uid). Each prints one
figures line (`pytest -s`; docs/reliability.md, "Storm shapes").
"""

from __future__ import annotations

import os
import signal

import pytest

from fakes.fake_provider import FakeProvider
from shelldon import ipc
from shelldon.core.turn.apply import DEGRADE_TEXT
from shelldon.worker.forkserver import MAX_PEERS
from support.hostile import SOCKETS, gauge, settled
from support.marks import needs_root
from support.pet import Pet
from support.storm import Storm
from support.storm_shapes import (
    SHAPES,
    WORKER_SHAPES,
    FdWatch,
    Shape,
    Talk,
    admit_pid_as_worker,
    owner_talks,
)
from support.users import TestUser

TURNS = 3
MAX_PER_UID = 16  # ipc.ThreadedServer's default cap, core's and the broker's
# Descriptors a server may hold over its count at rest while a storm runs: a uid's cap (or the
# fork-server's MAX_PEERS), as many again closed for room and not yet let go by their threads (a
# storm at the cap reconnects as fast as it is closed: 31 over rest seen on a loaded box), and
# the owner's own turn's few. An admitted worker's 400 (before the per-pid cap) is far past it.
FD_STORM_SLACK = 2 * max(MAX_PER_UID, MAX_PEERS) + 12
FD_AFTER_SLACK = 2  # once the storm is gone
LINES_PER_PROCESS = 4  # one per kind per uid a minute (ipc.RefusalLog): a drill is under a minute
_MARKS = ("refused", "stalled", "bad frame", "not reading", "could not answer", "lost pid", "peer")


def _peer_lines(pet: Pet, since: int) -> list[str]:
    return [line for line in pet.lines[since:] if any(mark in line for mark in _MARKS)]


def _storm(
    pet: Pet, shape: Shape, storms: list[Storm], turns: int = TURNS
) -> tuple[Talk, dict[str, int], dict[str, int], list[dict[str, object]]]:
    """Start `storms`, let the owner talk, release them: (the talk, descriptors at rest, the most
    while storming)."""
    pids = {name: pet.pid_of(name) for name in SOCKETS}
    rest = {name: gauge(pet)[name].fds for name in SOCKETS}
    with FdWatch(pids) as watch:
        try:
            for storm in storms:
                storm.start()
            assert all(storm.wait_started() for storm in storms), "a storm never started"
            if shape.sigstop:
                for storm in storms:
                    os.kill(storm.pid, signal.SIGSTOP)
            talk = owner_talks(pet, turns, DEGRADE_TEXT)
        finally:
            if shape.sigstop:
                for storm in storms:
                    os.kill(storm.pid, signal.SIGCONT)
            outcomes = [storm.finish() for storm in storms]
    return talk, rest, dict(watch.most), outcomes


def _check(
    pet: Pet,
    shape: Shape,
    since: int,
    talk: Talk,
    rest: dict[str, int],
    most: dict[str, int],
    outcomes: list[dict[str, object]],
    *,
    storm_slack: int = FD_STORM_SLACK,
) -> None:
    errors = [o["error"] for o in outcomes if "error" in o]
    assert not errors, errors
    before = gauge(pet)
    for name in SOCKETS:
        before[name] = before[name].__class__(rest[name], before[name].rss_kb, 0)
    after = settled(pet, before, FD_AFTER_SLACK)
    lines = _peer_lines(pet, since)
    print(
        f"\nstorm shape {shape.name!r}: {len(outcomes)} storming processes; owner turns "
        f"{len(talk.bad)} of {talk.turns} degraded (slowest {talk.slowest_s:.1f} s); peer log "
        f"{len(lines)} lines ({sum(len(line) for line in lines)} bytes); descriptors rest/most/"
        f"after: "
        + ", ".join(f"{n} {rest[n]}/{most[n]}/{after[n].fds}" for n in SOCKETS)
        + f"; outcomes {outcomes}"
    )
    assert not talk.bad, talk.bad
    for name in SOCKETS:
        assert ipc.answers_ping(pet.root.socket(name)), name
        assert most[name] <= rest[name] + storm_slack, (name, rest, most)
        assert after[name].fds <= rest[name] + FD_AFTER_SLACK, (name, rest, after)
    assert len(lines) <= LINES_PER_PROCESS * len(SOCKETS), lines
    assert "Traceback" not in pet.log, pet.log[-4000:]


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_a_storm_shape_while_the_owner_talks(pet: Pet, shape: Shape) -> None:
    assert pet.say("hello, a first turn before the storm")
    since = len(pet.lines)
    storms = [
        Storm(pet.root.socket(name), None, shape.loop)
        for name in shape.sockets
        for _ in range(shape.per_socket)
    ]
    talk, rest, most, outcomes = _storm(pet, shape, storms, shape.turns)
    _check(pet, shape, since, talk, rest, most, outcomes)


# Provider calls the storm's worker may cause: a real worker asks once a turn.
WORKER_COMPLETIONS = {"admitted worker": 0, "admitted worker asks": 1}


@needs_root("the worker's throwaway uid")
@pytest.mark.parametrize("shape", WORKER_SHAPES, ids=[s.name for s in WORKER_SHAPES])
def test_an_admitted_worker_storming_the_broker(
    guarded_pet: Pet, fake: FakeProvider, worker_user: TestUser, shape: Shape
) -> None:
    """The sandboxed worker is the likeliest hostile local peer, and the one peer of its uid the
    broker lets in: while admitted (as the fork-server admits a turn's worker) it holds as many
    connections as it can, or asks for completions at full rate, while the owner talks."""
    pet = guarded_pet
    assert pet.say("hello, a first turn before the storm")
    since = len(pet.lines)
    asked_before = len(fake.requests)
    storm = Storm(pet.root.socket("broker"), worker_user, shape.loop)
    pids = {name: pet.pid_of(name) for name in SOCKETS}
    rest = {name: gauge(pet)[name].fds for name in SOCKETS}
    with FdWatch(pids) as watch:
        try:
            storm.start()
            admit_pid_as_worker(pet, storm.pid, worker_user.uid, 300.0)
            assert storm.wait_started(), "the worker's storm never started"
            talk = owner_talks(pet, TURNS, DEGRADE_TEXT)
        finally:
            outcomes = [storm.finish()]
    assert outcomes[0].get("admitted"), outcomes
    storm_calls = len(fake.requests) - asked_before - talk.turns
    print(f"\nprovider calls the storm's worker caused: {storm_calls}")
    _check(pet, shape, since, talk, rest, dict(watch.most), outcomes)
    assert storm_calls <= WORKER_COMPLETIONS[shape.name], storm_calls
