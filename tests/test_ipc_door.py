"""The local sockets as a door: a local client of the owner's uid (or root) misusing them, against
a real running pet (docs/processes.md, "A local client misusing the sockets").

Six classes, each through real sockets: a frame that trickles or stalls (slowloris); a client
that sends and never reads its answers; a process run out of file descriptors by held
connections; fifty owner turns at once; a message meant for another socket; a client killed
right after it sent `Say`. Each prints one figures line (`pytest -s`).
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import typing
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shelldon import ipc
from shelldon.contracts import wire
from support import users
from support.marks import needs_root
from support.pet import Pet
from support.users import TestUser

HEADER = ipc.HEADER
READ_BOUND_S = 60.0  # far over the server's FRAME_WITHIN_S, far under its idle timeout (300 s)


def _history_rows(pet: Pet, like: str) -> list[tuple[str, str, str]]:
    """(turn_id, role, content) of history.db's messages whose content matches `like`."""
    db = sqlite3.connect(f"file:{pet.root.home / 'history.db'}?mode=ro", uri=True)
    try:
        return list(
            db.execute(
                "SELECT turn_id, role, content FROM messages WHERE turn_id IN "
                "(SELECT turn_id FROM messages WHERE content LIKE ?) ORDER BY id",
                (like,),
            )
        )
    finally:
        db.close()


def _journal_rows(pet: Pet) -> int:
    db = sqlite3.connect(f"file:{pet.root.home / 'history.db'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM turn_journal").fetchone()[0])
    finally:
        db.close()


def _no_traceback(pet: Pet) -> None:
    assert "Traceback" not in pet.log, pet.log[-4000:]


# --- (1) slowloris ------------------------------------------------------------------------------


def _answer_or_close(sock: socket.socket) -> wire.Message | None:
    """What the server says on this connection (None: it closed it without a word), read with a
    bound far over the server's own; a timeout here means the server still holds it."""
    try:
        return ipc.recv(sock, deadline=time.monotonic() + READ_BOUND_S)
    except (ipc.PeerClosed, ipc.FrameTruncated):
        return None


def _trickle(sock: socket.socket, data: bytes, stop: threading.Event) -> None:
    """Send `data` a byte a second (the pace of the attack, not a synchronisation) until the
    server closes the connection or `stop` is set."""
    for byte in data:
        if stop.wait(1.0):
            return
        try:
            sock.send(bytes([byte]))
        except OSError:
            return


@pytest.mark.parametrize("name", ["core", "broker"])
def test_a_frame_that_trickles_or_stalls_is_refused_and_the_owner_is_served(
    pet: Pet, name: str
) -> None:
    path = pet.root.socket(name)
    payload = wire.encode(wire.Ping())
    silent = ipc.connect(path)
    silent.sendall(HEADER.pack(len(payload)))  # a length, then silence
    trickler = ipc.connect(path)
    stop = threading.Event()
    frame = HEADER.pack(200) + b"x" * 200  # would take 204 s at a byte a second
    thread = threading.Thread(target=_trickle, args=(trickler, frame, stop), daemon=True)
    thread.start()
    try:
        # Meanwhile the owner is served, on core and the broker alike.
        assert ipc.answers_ping(path)
        reply = pet.say("hello while two clients stall")
        assert reply
        answers = [_answer_or_close(silent), _answer_or_close(trickler)]
    finally:
        stop.set()
        thread.join(timeout=5)
        silent.close()
        trickler.close()
    for answer in answers:
        assert isinstance(answer, wire.Refused), answer
        assert "bad frame" in answer.reason, answer.reason
    stalled = [line for line in pet.lines if f"{name}: refused pid {os.getpid()}" in line]
    assert any("stalled mid-frame" in line for line in stalled), pet.log[-3000:]
    assert len([line for line in stalled if "stalled" in line]) == 1  # once per uid a minute
    _no_traceback(pet)
    print(
        f"slowloris: {name}: 2 stalled connections (a length then silence; a byte a second), "
        f"both refused (bad frame), 1 log line; the owner's turn answered meanwhile"
    )


# --- (2) a client that never reads its answers -------------------------------------------------


def _flood_without_reading(path: os.PathLike[str], pings: int, outcome: list[str]) -> None:
    sock = ipc.connect(path)
    sock.settimeout(READ_BOUND_S)
    try:
        sock.sendall(ipc.frame(wire.Ping()) * pings)
        outcome.append("all sent")  # the server read everything: did it keep answering?
    except (BrokenPipeError, ConnectionResetError):
        outcome.append("let go")
    except TimeoutError:
        outcome.append("held")
    finally:
        sock.close()


@pytest.mark.parametrize("name", ["core", "broker"])
def test_a_client_that_never_reads_is_let_go(pet: Pet, name: str) -> None:
    """Each request's answer waits in the socket; once the buffers are full the server's send
    blocks, and its deadline (ipc.DEFAULT_TIMEOUT) lets the connection go."""
    path = pet.root.socket(name)
    clients, pings = 20, 100_000  # 20: over the per-uid cap of 16; ~6 MB of answers each
    outcome: list[str] = []
    threads = [
        threading.Thread(target=_flood_without_reading, args=(path, pings, outcome), daemon=True)
        for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    assert pet.say("hello while twenty clients do not read")
    for thread in threads:
        thread.join(timeout=READ_BOUND_S * 2)
    assert not any(thread.is_alive() for thread in threads)
    assert Counter(outcome) == {"let go": clients}, Counter(outcome)
    assert ipc.answers_ping(path)
    _no_traceback(pet)
    print(f"never reads: {name}: {clients} clients x {pings} pings unread, {clients} let go")


# --- (3) out of file descriptors ---------------------------------------------------------------

# Descriptors over what each process holds at rest: a turn needs about eight of the fork-server's
# (core's connection, the worker's three pipes, the broker's), so this is a tight but working limit.
ROOM = 12
OUT_OF_FDS_LINE = re.compile(r"(\S+): (?:out of file descriptors at accept|accept failed)")


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _wait_free(pid: int, limit: int, want: int, timeout: float = 10.0) -> int:
    """Descriptors `pid` has free under `limit`, once at least `want` are (or at the timeout):
    a condition polled, as /proc offers no event for it."""
    deadline = time.monotonic() + timeout
    paced = threading.Event()
    while (free := limit - _fds(pid)) < want and time.monotonic() < deadline:
        paced.wait(0.05)
    return free


def test_a_process_out_of_descriptors_keeps_serving_the_owner_and_recovers(pet: Pet) -> None:
    """Each process's RLIMIT_NOFILE lowered to a few over what it holds, then owner connections
    held to each socket until none is accepted: the processes live, the owner's turn is answered
    and stored, no accept loop spins (one log line per process), and all is well once they close.
    Before: core died of the EMFILE ('shelldon core: Too many open files') and took the pet with
    it; the fork-server logged a line per pass of a loop at 100 % CPU."""
    names = ("core", "broker", "forkserver")
    pids = {name: pet.pid_of(name) for name in names}
    before = {name: _fds(pid) for name, pid in pids.items()}
    for name, pid in pids.items():
        limit = before[name] + ROOM
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (limit, limit))
    held: list[socket.socket] = []
    try:
        # Exactly as many connections as the limit leaves room for, one at a time, each heard:
        # without a headroom nothing ever fails at accept, and core is left with no descriptor
        # for its own files (a status could not read, a turn could not write).
        for name in ("core", "broker"):
            for _ in range(ROOM):
                with contextlib.suppress(OSError, ipc.IpcError):
                    sock = ipc.connect(pet.root.socket(name), timeout=2)
                    held.append(sock)
                    ipc.exchange(sock, wire.Ping(), deadline=time.monotonic() + 30)
            free = _wait_free(pids[name], before[name] + ROOM, ipc.FD_HEADROOM // 2)
            assert free >= ipc.FD_HEADROOM // 2, (name, free)
        for name in names:
            for _ in range(2 * ROOM + 8):  # over the limit's room and the per-uid cap
                with contextlib.suppress(OSError, ipc.IpcError):
                    sock = ipc.connect(pet.root.socket(name), timeout=2)
                    held.append(sock)
        assert pet.proc.poll() is None, pet.log[-3000:]
        for sock in held:  # each one heard (or closed for room) before the owner speaks
            with contextlib.suppress(OSError, ipc.IpcError):
                ipc.exchange(sock, wire.Ping(), deadline=time.monotonic() + 30)
        reply = pet.say("hello with every process out of descriptors")
        assert reply
        settled = pet.cli("status")
        assert settled.returncode == 0, (settled.stderr, pet.log[-5000:])
        rows = _history_rows(pet, "hello with every process out of descriptors")
        assert [role for _, role, _ in rows] == ["owner", "pet"], rows
        assert rows[1][2] == reply, (rows, reply)
        last = pet.cli("status", "--json")
        assert '"outcome": "ok"' in last.stdout, (last.stdout[-2000:], pet.log[-4000:])
    finally:
        for sock in held:
            sock.close()
    assert pet.say("hello once they closed")
    for name in names:
        assert ipc.answers_ping(pet.root.socket(name)), name
    lines = [line for line in pet.lines if OUT_OF_FDS_LINE.search(line)]
    per_process = Counter(m.group(1) for line in lines if (m := OUT_OF_FDS_LINE.search(line)))
    assert lines, "the processes never ran out: the drill did not drill"
    assert all(count == 1 for count in per_process.values()), dict(per_process)
    assert pet.proc.poll() is None
    _no_traceback(pet)
    print(
        f"out of descriptors: limits {', '.join(f'{n} {before[n] + ROOM}' for n in names)}; "
        f"{len(held)} connections held; out-of-descriptor log lines {dict(per_process)}; "
        "the owner's turn answered and stored; pings answered after"
    )


# --- (4) many owner turns at once --------------------------------------------------------------

PARALLEL_SAYS = 50


def test_fifty_owner_turns_at_once_are_each_answered_and_stored(pet: Pet) -> None:
    def one(i: int) -> subprocess.CompletedProcess[str]:
        return pet.cli("say", f"parallel note {i:02d}: I like green tea", timeout=300)

    with ThreadPoolExecutor(PARALLEL_SAYS) as pool:
        done = list(pool.map(one, range(PARALLEL_SAYS)))
    answered = [i for i, d in enumerate(done) if d.returncode == 0 and d.stdout.strip()]
    refused = [d for d in done if d.returncode != 0]
    for d in refused:  # a clear refusal: one line, never a traceback
        assert "Traceback" not in d.stderr and len(d.stderr.strip().splitlines()) == 1, d.stderr
    pet.settled()
    rows = _history_rows(pet, "parallel note %")
    stored = {content for _, role, content in rows if role == "owner"}
    for i in answered:  # every acknowledged turn is in history
        assert f"parallel note {i:02d}: I like green tea" in stored, i
    assert len(answered) + len(refused) == PARALLEL_SAYS
    assert _journal_rows(pet) == 0
    _no_traceback(pet)
    print(
        f"{PARALLEL_SAYS} says at once: {len(answered)} answered, {len(refused)} refused, "
        f"{len(stored)} stored, 0 acknowledged missing"
    )


# --- (5) a message meant for another socket ----------------------------------------------------

SERVED = {
    "core": set(wire.CORE_REQUESTS),
    "broker": {wire.Ping, wire.Complete, wire.AdmitWorker, wire.RetireWorker, wire.VaultRead},
    "forkserver": {wire.Ping, wire.SpawnTurn},
}
SERVER_NAME = {"core": "core", "broker": "broker", "forkserver": "fork-server"}
# Completion carries a BrainReply with `Any` fields hypothesis cannot build; Complete (its
# request) stands for the worker's side of the broker.
ALL_MESSAGES = tuple(c for c in typing.get_args(wire.Message) if c is not wire.Completion)


@pytest.mark.parametrize("name", ["core", "broker", "forkserver"])
def test_a_message_for_another_socket_is_refused_in_words_and_logged_once(
    pet: Pet, name: str
) -> None:
    path = pet.root.socket(name)
    others = sorted((c for c in ALL_MESSAGES if c not in SERVED[name]), key=lambda c: c.__name__)
    sent: Counter[str] = Counter()

    @settings(
        max_examples=120,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(st.sampled_from(others).flatmap(st.builds))
    def one(message: wire._Msg) -> None:
        try:
            data = ipc.frame(message)  # hypothesis may build what does not encode: not sent
        except (msgspec.EncodeError, OverflowError, TypeError, ipc.FrameTooLarge):
            assume(False)
        with ipc.connect(path) as sock:
            sock.sendall(data)
            answer = ipc.recv(sock, deadline=time.monotonic() + 10)
        kind = type(message).__name__
        assert isinstance(answer, wire.Refused), (kind, answer)
        assert f"does not serve {kind}" in answer.reason, answer.reason
        sent[kind] += 1

    one()
    assert ipc.answers_ping(path)
    assert pet.say(f"hello after wrong messages on {name}")
    mine = re.compile(
        rf"{SERVER_NAME[name]}: refused pid {os.getpid()} uid \d+ a request: .*does not serve (\w+)"
    )
    logged = Counter(m.group(1) for line in pet.lines if (m := mine.search(line)))
    # Every kind sent is logged, and once: a client looping on one grows no log.
    assert logged == Counter(dict.fromkeys(sent, 1)), (logged, sent)
    _no_traceback(pet)
    print(
        f"wrong socket: {name}: {sum(sent.values())} messages of {len(sent)} kinds it does not "
        f"serve, all refused in words, {sum(logged.values())} log lines (one per kind)"
    )


# --- (6) a client killed right after it sent Say ------------------------------------------------

KILLED_CLIENT = """
import os, signal, sys
from shelldon import ipc
from shelldon.contracts import wire
sock = ipc.connect(sys.argv[1])
ipc.send(sock, wire.Say(text=sys.argv[2]))
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_client_killed_after_say_leaves_its_turn_stored(pet: Pet) -> None:
    """docs/reliability.md: the turn is journaled before the reply is sent; a client that is not
    there to read it changes nothing but the read. Its words and the pet's reply are stored."""
    kills = 5
    for i in range(kills):
        done = subprocess.run(
            [sys.executable, "-c", KILLED_CLIENT, str(pet.root.socket("core")), f"killed {i}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == -9, done.stderr
    assert pet.say("hello after the killed clients")  # waits on core's one-turn gate
    pet.settled()
    rows = _history_rows(pet, "killed %")
    users = [content for _, role, content in rows if role == "owner"]
    assert sorted(users) == [f"killed {i}" for i in range(kills)], rows
    assert Counter(role for _, role, _ in rows) == {"owner": kills, "pet": kills}
    assert _journal_rows(pet) == 0
    _no_traceback(pet)
    print(f"killed clients: {kills} killed after Say, {kills} turns stored whole, journal empty")


@pytest.mark.parametrize("name", ["core", "broker"])
def test_a_server_at_its_very_limit_stays_up_and_recovers(pet: Pet, name: str) -> None:
    """The limit two over what the process holds: accept() itself fails (EMFILE) while clients
    hold connections. The server lives, answers each newcomer or refuses it in words, does not
    spin (one log line), and serves the owner once they close. Before: core and the broker died
    of the EMFILE (the accept loop let it out), and core took the pet with it."""
    pid = pet.pid_of(name)
    limit = _fds(pid) + 2
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (limit, limit))
    held: list[socket.socket] = []
    answers: Counter[str] = Counter()
    try:
        for _ in range(20):
            with contextlib.suppress(OSError, ipc.IpcError):
                held.append(ipc.connect(pet.root.socket(name), timeout=2))
        for sock in held[-5:]:  # the newest: each answered, or refused in words
            try:
                answer = ipc.exchange(sock, wire.Ping(), deadline=time.monotonic() + 30)
            except (ipc.PeerClosed, ipc.FrameTruncated):
                answers["closed for room"] += 1
                continue
            answers[type(answer).__name__] += 1
        assert pet.proc.poll() is None, pet.log[-3000:]
    finally:
        for sock in held:
            sock.close()
    assert ipc.answers_ping(pet.root.socket(name))
    assert pet.say(f"hello once the {name} has its descriptors back")
    assert pet.proc.poll() is None
    lines = [m.group(1) for line in pet.lines if (m := OUT_OF_FDS_LINE.search(line))]
    assert lines == [name], lines  # once: no spin, no line per pass
    assert set(answers) <= {"Pong", "Refused", "closed for room"}, answers
    _no_traceback(pet)
    print(f"very limit: {name} at {limit} descriptors, {len(held)} connections: {dict(answers)}")


def _stall_as(user: TestUser, path: os.PathLike[str]) -> str:
    """In a child of `user`'s uid: connect, send a frame's length and nothing more, and report
    what the server said within READ_BOUND_S (a timeout: it gave the stranger a thread)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through its pipe
        try:
            users.become(user)
            with ipc.connect(path) as sock:
                # Refused at accept and closed, the send may break; the answer is still queued.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    sock.sendall(HEADER.pack(64))
                answer = ipc.recv(sock, deadline=time.monotonic() + READ_BOUND_S)
            said = f"{type(answer).__name__}: {getattr(answer, 'reason', '')}"
        except BaseException as exc:
            said = f"{type(exc).__name__}: {exc}"
        os.write(write_end, said.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    return said


@needs_root("a throwaway third uid")
@pytest.mark.parametrize("name", ["core", "broker", "forkserver"])
def test_a_strangers_stalled_frame_gets_no_thread(
    pet: Pet, stranger_user: TestUser, name: str
) -> None:
    """Another uid, with the socket opened to 0666 on purpose (past the first gate): its stalled
    frame is refused unheard at accept, before any thread reads it, and the owner is served."""
    path = pet.root.socket(name)
    os.chmod(path, 0o666)
    said = _stall_as(stranger_user, path)
    assert said.startswith("Refused: "), said
    assert "bad frame" not in said, said  # refused at accept, never read
    assert pet.say(f"hello after a stranger stalled on {name}")
    _no_traceback(pet)
    print(f"stranger stall: {name}: {said}")
