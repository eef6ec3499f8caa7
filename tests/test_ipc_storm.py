"""The owner always gets in: connect storms on every socket from every uid, and a pile of idle owner
connections, while the owner talks to the real pet (tests/support/storm.py).

The sockets are opened to 0666 first, so the stranger reaches all three and only the second gate
(each server's admit, at accept) stands between it and the pet; the worker uid and root storm too.
Twenty connections of the owner's own uid are held open and idle, as twenty open `shelldon chat`s
would be. The short form runs in the default suite; the long form (`-m drill`) storms with more
processes through more turns. Each prints its figures (`pytest -s`; docs/reliability.md).
"""

from __future__ import annotations

import os
import socket
import time

import pytest

from fakes.fake_provider import FakeProvider
from shelldon import ipc
from shelldon.ipc import REFUSAL_LOG_INTERVAL_S
from support.marks import needs_root
from support.pet import Pet, owner_turns
from support.storm import Storm, refusal_lines
from support.users import TestUser

SOCKETS = ("core", "broker", "forkserver")
IDLE_OWNER_CONNECTIONS = 20  # over the per-uid cap of 16
SHORT = {"turns": 3, "per_storm": 1}
LONG = {"turns": 12, "per_storm": 3}


def _storm_drill(
    pet: Pet,
    fake: FakeProvider,
    worker_user: TestUser,
    stranger_user: TestUser,
    *,
    turns: int,
    per_storm: int,
) -> None:
    for name in SOCKETS:
        os.chmod(pet.root.socket(name), 0o666)
    idle: list[socket.socket] = [
        ipc.connect(pet.root.socket("core")) for _ in range(IDLE_OWNER_CONNECTIONS)
    ]
    storms = [
        Storm(pet.root.socket(name), user)
        for name in SOCKETS
        for user in (None, worker_user, stranger_user)
        for _ in range(per_storm)
    ]
    lines_before = len(pet.lines)
    started = time.monotonic()
    try:
        for storm in storms:
            storm.start()
        assert all(storm.wait_started() for storm in storms), "a storm never started"
        owner_turns(pet, fake, turns)  # asserts every turn ok, through the fake provider
    finally:
        outcomes = [storm.finish() for storm in storms]
        for sock in idle:
            sock.close()
    elapsed = time.monotonic() - started
    errors = [o["error"] for o in outcomes if "error" in o]
    assert not errors, errors
    new_lines = pet.lines[lines_before:]
    refusals = refusal_lines(new_lines)
    # One line per server, uid and reason per interval: 3 servers x 2 refused uids x at most 2
    # reasons each, for every interval begun.
    intervals = 1 + int(elapsed // REFUSAL_LOG_INTERVAL_S)
    assert len(refusals) <= 3 * 2 * 2 * intervals, refusals[:20]
    attempts = sum(o["tried"] for o in outcomes)
    by = {}
    for storm, outcome in zip(storms, outcomes, strict=True):
        key = f"{storm.path.stem}/{storm.who}"
        tried, answered, refused = by.get(key, (0, 0, 0))
        by[key] = (
            tried + outcome["tried"],
            answered + outcome["answered"],
            refused + outcome["refused"],
        )
    # The second gate held: nobody but root was answered on any socket.
    for key, (_, answered, _) in by.items():
        if not key.endswith("/root"):
            assert answered == 0, (key, by)
    grown = sum(len(line) for line in new_lines)
    print(
        f"\ndrill connect storm: {len(storms)} storming processes, {attempts} connections in "
        f"{elapsed:.1f} s while {turns} owner turns ran, 0 degraded; {IDLE_OWNER_CONNECTIONS} idle "
        f"owner connections held; the log grew {len(new_lines)} lines ({grown} bytes), "
        f"{len(refusals)} of them refusals"
    )
    for key, (tried, answered, refused) in sorted(by.items()):
        print(f"  {key}: {tried} tried, {answered} answered, {refused} refused")


@needs_root("a third uid and the worker uid")
def test_the_owner_gets_in_through_connect_storms_and_idle_connections(
    guarded_pet: Pet, fake: FakeProvider, worker_user: TestUser, stranger_user: TestUser
) -> None:
    _storm_drill(guarded_pet, fake, worker_user, stranger_user, **SHORT)


@pytest.mark.drill
@needs_root("a third uid and the worker uid")
def test_the_owner_gets_in_through_connect_storms_long(
    guarded_pet: Pet, fake: FakeProvider, worker_user: TestUser, stranger_user: TestUser
) -> None:
    _storm_drill(guarded_pet, fake, worker_user, stranger_user, **LONG)
