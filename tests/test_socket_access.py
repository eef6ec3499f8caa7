"""Nobody but the pet's own uids gets in: drills against the real process set.

A third uid (the run's throwaway `stranger_user`) tries every socket; a process of the worker uid
that no turn spawned asks the broker for a completion; the fork-server is made unable to take a
turn. Meanwhile the owner's turns, through a worker really dropped to the run's `worker_user` and a
fake HTTP provider, must go on unharmed, or (when no worker can start) be kept as degraded turns.
Each drill prints its figures (`pytest -s tests/test_socket_access.py`; docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import socket
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fakes.fake_provider import FakeProvider
from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.core.history.store import open_readonly
from shelldon.core.turn.apply import DEGRADE_TEXT
from support import users
from support.marks import needs_root
from support.pet import Pet, owner_turns, start_pet
from support.users import TestUser

ATTEMPTS = 40  # per socket: the flood that degraded every owner turn before Step 9
SOCKETS = ("core", "broker", "forkserver")
REQUEST = CompletionRequest(purpose="turn", sections=(PromptSection(kind="message", text="hi"),))


class Hold:
    """Children that keep their connections open until `release()` (the pipe's close)."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        self.pids: list[int] = []

    def release(self) -> None:
        os.close(self.write_end)
        for pid in self.pids:
            os.waitpid(pid, 0)
        os.close(self.read_end)


def as_user(user: TestUser, body: Callable[[], Any], *, hold: Hold | None = None) -> Any:
    """Run `body` in a forked child dropped to `user`; what it returned (JSON). With `hold` the
    child then holds on, its sockets open, until the hold is released."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through the pipe
        os.close(read_end)
        if hold is not None:
            os.close(hold.write_end)  # only the parent's copy may keep the hold
        try:
            users.become(user)
            result = body()
        except BaseException as exc:
            result = {"error": f"{type(exc).__name__}: {exc}"}
        os.write(write_end, json.dumps(result).encode())
        os.close(write_end)
        if hold is not None:
            os.read(hold.read_end, 1)
        os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    if hold is None:
        os.waitpid(pid, 0)
    else:
        hold.pids.append(pid)
    return json.loads(b"".join(chunks))


def knock(path: Path, attempts: int) -> Callable[[], dict[str, Any]]:
    """`attempts` connections to `path`, kept open: how each went (refused by the mode, refused by
    the server with a Refused frame or a close, or answered)."""

    def body() -> dict[str, Any]:
        outcome = {"tried": 0, "eacces": 0, "refused": 0, "answered": 0, "reasons": []}
        held = []
        for _ in range(attempts):
            outcome["tried"] += 1
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            held.append(sock)  # idle and open, as the flood held them
            try:
                sock.settimeout(10)
                sock.connect(os.fspath(path))
            except PermissionError as exc:
                assert exc.errno == errno.EACCES
                outcome["eacces"] += 1
                continue
            with contextlib.suppress(ipc.PeerClosed):
                ipc.send(sock, wire.Ping())
            try:
                answer = ipc.recv(sock, deadline=time.monotonic() + 10)
            except (ipc.PeerClosed, ConnectionResetError):
                outcome["refused"] += 1
                continue
            if isinstance(answer, wire.Refused):
                outcome["refused"] += 1
                if answer.reason not in outcome["reasons"]:
                    outcome["reasons"].append(answer.reason)
            else:
                outcome["answered"] += 1
        return outcome

    return body


@needs_root("a third uid and the worker uid")
def test_a_third_uid_cannot_connect_to_any_socket_and_owner_turns_go_on(
    guarded_pet: Pet, fake: FakeProvider, stranger_user: TestUser, worker_user: TestUser
) -> None:
    run = guarded_pet.root.run_dir
    modes = {n: guarded_pet.root.socket(n).stat() for n in SOCKETS}
    assert {n: stat.S_IMODE(st.st_mode) for n, st in modes.items()} == dict.fromkeys(SOCKETS, 0o660)
    assert modes["broker"].st_gid == worker_user.gid  # the workers' way in
    assert modes["forkserver"].st_gid == run.stat().st_gid  # the service's group

    hold = Hold()
    tried = refused = 0
    try:
        for name in SOCKETS:
            out = as_user(stranger_user, knock(guarded_pet.root.socket(name), ATTEMPTS), hold=hold)
            assert out == {
                "tried": ATTEMPTS,
                "eacces": ATTEMPTS,
                "refused": 0,
                "answered": 0,
                "reasons": [],
            }, out
            tried += out["tried"]
            refused += out["eacces"]
        owner_turns(guarded_pet, fake, 3)  # while the stranger still holds its attempts
    finally:
        hold.release()
    print(f"\ndrill third-uid sockets: {tried} connection attempts, {refused} refused (EACCES)")


@needs_root("a third uid and the worker uid")
def test_with_an_open_mode_a_third_uid_is_refused_before_any_cap_and_owner_turns_go_on(
    guarded_pet: Pet, fake: FakeProvider, stranger_user: TestUser
) -> None:
    """The second gate alone: as if the modes were 0666 (a mistake, or an older card), the
    stranger's 40 idle connections per socket are refused at accept, unheard and uncounted."""
    for name in ("broker", "forkserver"):
        os.chmod(guarded_pet.root.socket(name), 0o666)
    hold = Hold()
    figures = {}
    try:
        for name in ("broker", "forkserver"):
            out = as_user(stranger_user, knock(guarded_pet.root.socket(name), ATTEMPTS), hold=hold)
            assert out["tried"] == ATTEMPTS and out["refused"] == ATTEMPTS, out
            assert out["answered"] == 0 and out["eacces"] == 0, out
            assert "too many connections" not in out["reasons"], (
                out
            )  # refused for who, not how many
            figures[name] = out
        owner_turns(guarded_pet, fake, 3)  # the stranger's connections are all still open
    finally:
        hold.release()
    guarded_pet.wait_for_log(rf"broker: refused pid \d+ uid {stranger_user.uid} unheard")
    guarded_pet.wait_for_log(rf"fork-server: refused pid \d+ uid {stranger_user.uid} unheard")
    total = sum(f["tried"] for f in figures.values())
    print(f"\ndrill open-mode flood: {total} idle third-uid connections, {total} refused at accept")


@needs_root("the worker uid")
def test_a_process_of_the_worker_uid_no_turn_spawned_is_refused_by_the_broker(
    guarded_pet: Pet, fake: FakeProvider, worker_user: TestUser
) -> None:
    broker = guarded_pet.root.socket("broker")

    def ask_for_a_completion() -> dict[str, Any]:
        with ipc.connect(broker) as sock:  # the mode lets the worker uid connect
            with contextlib.suppress(ipc.PeerClosed):
                ipc.send(sock, wire.Complete(turn_id="t", request=REQUEST, token="00" * 16))
            try:
                answer = ipc.recv(sock, deadline=time.monotonic() + 10)
            except ipc.PeerClosed:
                return {"pid": os.getpid(), "answer": "closed"}
        return {"pid": os.getpid(), "answer": getattr(answer, "reason", type(answer).__name__)}

    before = len(fake.requests)
    out = as_user(worker_user, ask_for_a_completion)
    assert out["answer"] == "not a live turn's worker", out
    guarded_pet.wait_for_log(
        rf"broker: refused pid {out['pid']} uid {worker_user.uid} unheard: not a live turn's worker"
    )
    assert len(fake.requests) == before  # no completion was paid for it
    owner_turns(guarded_pet, fake, 1)  # the worker the fork-server spawned still gets its own


def test_a_fork_server_that_cannot_take_the_turn_keeps_the_owners_message_as_a_degraded_turn(
    run_dir: Path,
) -> None:
    """Hammered: the fork-server stopped and its backlog full, so core cannot even connect. The
    owner gets the degrade reply and the message is in history, not silently dropped."""
    pet = start_pet({"SHELLDON_TURN_DEADLINE": "2"})
    hammer: list[socket.socket] = []
    forkserver = pet.pid_of("forkserver")
    try:
        os.kill(forkserver, signal.SIGSTOP)
        for _ in range(5000):  # until the kernel queues no more (ipc.LISTEN_BACKLOG)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.setblocking(False)
            hammer.append(sock)
            try:
                sock.connect(os.fspath(pet.root.socket("forkserver")))
            except BlockingIOError:
                break
        else:
            pytest.fail("the fork-server's backlog never filled")
        said = pet.cli("say", "please keep these words of mine")
        assert said.returncode == 0, said.stderr
        assert said.stdout.strip() == DEGRADE_TEXT
        status = json.loads(pet.cli("status", "--json").stdout)
        assert status["last_turn"]["outcome"] == "spawn_failed"
    finally:
        for sock in hammer:
            sock.close()
        os.kill(forkserver, signal.SIGCONT)
    try:
        rows = [(r["role"], r["content"]) for r in open_readonly(pet.root.history_db).recent(2)]
        assert rows == [("owner", "please keep these words of mine"), ("pet", DEGRADE_TEXT)]
        pet.wait_for_log("kept as a degraded turn")  # logged before the reply; read as it comes
        again = pet.cli("say", "are you back?")  # the fork-server serves again
        assert again.returncode == 0 and again.stdout.strip() != DEGRADE_TEXT, pet.log
    finally:
        assert pet.stop() == 0, pet.log
    print(f"\ndrill hammered fork-server: {len(hammer)} connections queued; the message kept")
