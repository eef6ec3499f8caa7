"""A local peer hammering the real pet's sockets, measured: the owner always gets in, and no
process keeps what the peer cost it (docs/reliability.md, "Hostile peers at the sockets").

The classes the other socket drills leave (tests/test_ipc_door.py, _fuzz.py, _storm.py,
test_socket_access.py): slowloris in its three shapes, many at once on every socket, while the
owner's `shelldon say`s run together; descriptors passed with a frame (SCM_RIGHTS) that nobody
asked for; a peer that half-closes after its frame; a client whose unread answers fill its socket
before it asks for a turn; and a stranger holding connections past each process's open-file limit.
Each measures each process's descriptors and resident memory before and after, and the log the
peers caused, and prints one figures line (`pytest -s`). The long forms run with `-m drill`.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import socket
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.core.turn.apply import DEGRADE_TEXT
from shelldon.worker import forkserver
from support import users
from support.hostile import (
    SCM_MAX_FD,
    SOCKETS,
    Slowloris,
    answers_after,
    figures,
    fill_then_say,
    gauge,
    holders,
    pongs_that_fit,
    send_with_fds,
    settled,
)
from support.marks import needs_root
from support.pet import Pet
from support.users import TestUser

FD_SLACK = 2  # descriptors a process may hold over its count at rest once the peers are gone
RSS_SLACK_KB = 8 * 1024  # resident memory a process may keep over its count at rest, after
# Core over many turns: its own caches (history, recall's index) grow with the turns, peers or
# not (+7 MiB over 40 turns here).
TURNS_RSS_SLACK_KB = 16 * 1024
# Lines the hostile peers may cause per process: one per kind (stalled, bad frame, not reading,
# refused at accept ...) per uid a minute (ipc.RefusalLog); a drill is well under a minute a kind.
LINES_PER_PROCESS = 6


def _stored_owner_texts(pet: Pet, like: str) -> set[str]:
    db = sqlite3.connect(f"file:{pet.root.home / 'history.db'}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT content FROM messages WHERE role = 'owner' AND content LIKE ?", (like,)
        )
        return {content for (content,) in rows}
    finally:
        db.close()


def _peer_lines(pet: Pet, since: int) -> list[str]:
    """The log lines a misbehaving peer can cause, after line `since`."""
    marks = ("refused", "stalled", "bad frame", "not reading", "could not answer", "lost pid")
    return [line for line in pet.lines[since:] if any(mark in line for mark in marks)]


def _no_traceback(pet: Pet) -> None:
    assert "Traceback" not in pet.log, pet.log[-4000:]


def _warm(pet: Pet) -> None:
    """One turn and a ping of each socket first: what a process holds at rest is measured after
    its first turn's caches, not before."""
    assert pet.say("hello, a first turn before the drill")
    for name in SOCKETS:
        assert ipc.answers_ping(pet.root.socket(name)), name


# --- slowloris, many at once, while the owner's says run together ------------------------------

SHORT = {"per_shape": 6, "says": 10}  # 18 stalled connections a socket: over the uid cap of 16
LONG = {"per_shape": 20, "says": 40}


def _slowloris_drill(pet: Pet, *, per_shape: int, says: int) -> None:
    _warm(pet)
    before = gauge(pet)
    since = len(pet.lines)
    storms = [Slowloris(pet.root.socket(name), per_shape) for name in SOCKETS]
    try:

        def one(i: int) -> tuple[int, str, str]:
            done = pet.cli("say", f"stalled-storm note {i:02d}: I like green tea", timeout=300)
            return done.returncode, done.stdout.strip(), done.stderr.strip()

        with ThreadPoolExecutor(says) as pool:
            results = list(pool.map(one, range(says)))
        held = gauge(pet)
        outcomes = {storm.path.stem: storm.outcomes() for storm in storms}
    finally:
        for storm in storms:
            storm.stop()
    answered = [i for i, (code, out, _) in enumerate(results) if code == 0 and out]
    degraded = [i for i, (_, out, _) in enumerate(results) if DEGRADE_TEXT in out]
    for code, _, err in results:  # a say not answered says why in one line, never a traceback
        if code != 0:
            assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert not degraded, [results[i] for i in degraded]
    pet.settled()
    stored = _stored_owner_texts(pet, "stalled-storm note %")
    missing = [i for i in answered if f"stalled-storm note {i:02d}: I like green tea" not in stored]
    assert not missing, missing
    for name, seen in outcomes.items():  # every stalled frame let go: refused, or closed for room
        assert set(seen) <= {"refused: bad frame", "closed for room"}, (name, seen)
    after = settled(pet, before, FD_SLACK)
    for name in SOCKETS:
        slack = TURNS_RSS_SLACK_KB if name == "core" else RSS_SLACK_KB
        assert after[name].fds <= before[name].fds + FD_SLACK, figures(before, after)
        assert after[name].rss_kb <= before[name].rss_kb + slack, figures(before, after)
    lines = _peer_lines(pet, since)
    assert len(lines) <= LINES_PER_PROCESS * len(SOCKETS), lines
    for name in SOCKETS:
        assert ipc.answers_ping(pet.root.socket(name)), name
    _no_traceback(pet)
    print(
        f"\nslowloris: {3 * per_shape} stalled connections a socket (a byte every 0.5 s, a header "
        f"then nothing, a length then half the body) x 3 sockets; {says} says at once: "
        f"{len(answered)} answered, {says - len(answered)} refused in a line, {len(degraded)} "
        f"degraded, {len(answered)} stored; outcomes {outcomes}; held: {figures(before, held)}; "
        f"after: {figures(before, after)}; peer log lines {len(lines)} "
        f"({sum(len(line) for line in lines)} bytes)"
    )


def test_slowloris_on_every_socket_while_the_owner_says_at_once(pet: Pet) -> None:
    _slowloris_drill(pet, **SHORT)


@pytest.mark.drill
def test_slowloris_on_every_socket_while_the_owner_says_at_once_long(pet: Pet) -> None:
    _slowloris_drill(pet, **LONG)


# --- frames at the size limit, many at once ----------------------------------------------------

BIG_ROUNDS = 3
BIG_HELD_KB = 16 * ipc.MAX_FRAME // 1024  # 16 peers' frames in memory at once (the per-uid cap)


def _big_frame(path: Path, data: bytes) -> str:
    with ipc.connect(path) as sock:
        with contextlib.suppress(OSError):  # refused at the header: the rest may not be taken
            sock.sendall(data)
        try:
            answer = ipc.recv(sock, deadline=time.monotonic() + 60)
        except ipc.IpcError as exc:
            return type(exc).__name__
    if isinstance(answer, wire.Refused):
        return f"{path.stem}: {answer.reason}"
    return f"{path.stem}: {type(answer).__name__}"


def test_frames_at_the_size_limit_many_at_once_leave_no_process_bigger(pet: Pet) -> None:
    """Sixteen peers a socket at once (the per-uid cap, the fork-server's MAX_PEERS), each a whole
    frame of the largest length a server takes (1 MiB) with a payload that is no message, three
    rounds: each refused; no process keeps more than the frames one round could make it hold at
    once (BIG_HELD_KB), nor grows round over round (RSS_SLACK_KB: glibc keeps some of what a
    thread freed in its arena until later activity trims it). Before,
    the fork-server buffered each peer's frame up to core's limit and grew 21 -> 43 MiB over the
    three rounds (the parent of every worker); its peers may only Ping, and are now refused at
    the header past forkserver.PEER_MAX_FRAME."""
    _warm(pet)
    before = gauge(pet)
    data = ipc.HEADER.pack(ipc.MAX_FRAME) + b"\xc1" * ipc.MAX_FRAME
    answers: Counter[str] = Counter()
    rounds = []
    for _ in range(BIG_ROUNDS):
        paths = [pet.root.socket(name) for name in SOCKETS for _ in range(16)]
        with ThreadPoolExecutor(len(paths)) as pool:
            answers.update(pool.map(lambda path: _big_frame(path, data), paths))
        rounds.append(settled(pet, before, FD_SLACK, rss_slack_kb=RSS_SLACK_KB))
    first = rounds[0]
    after = rounds[-1]
    assert all(": bad frame: " in answer for answer in answers), answers
    # The fork-server's peers are refused at the header: not a byte of a body buffered.
    limit = f"exceeds the {forkserver.PEER_MAX_FRAME}-byte limit"
    assert all(limit in a for a in answers if a.startswith("forkserver:")), answers
    for name in SOCKETS:
        assert after[name].fds <= before[name].fds + FD_SLACK, figures(before, after)
        assert after[name].rss_kb <= before[name].rss_kb + BIG_HELD_KB, figures(before, after)
        assert after[name].rss_kb <= first[name].rss_kb + RSS_SLACK_KB, figures(first, after)
    assert pet.say("hello after the big frames")
    _no_traceback(pet)
    kinds: Counter[str] = Counter()
    for answer, count in answers.items():
        where, _, reason = answer.partition(": bad frame: ")
        kinds[f"{where}: {reason.split(' (')[0]}"] += count
    print(
        f"\nbig frames: {BIG_ROUNDS} rounds x 16 peers x 3 sockets of 1 MiB frames, "
        f"{dict(kinds)}; after each round: " + " | ".join(figures(before, r) for r in rounds)
    )


# --- descriptors nobody asked for --------------------------------------------------------------

PASSES = 20  # connections a socket, each passing SCM_MAX_FD descriptors


def test_descriptors_passed_with_a_frame_are_closed_not_kept(pet: Pet) -> None:
    """A peer attaches the most descriptors the kernel lets one message carry (253, all to one
    marker file) to a good frame, to a half frame cut by a half-close, and to garbage: no process
    of the pet holds one of them after, nor more descriptors than at rest."""
    _warm(pet)
    before = gauge(pet)
    since = len(pet.lines)
    with tempfile.NamedTemporaryFile(prefix="shd-passed-") as marker:
        marker_path = Path(marker.name)
        fds = [os.open(marker_path, os.O_RDONLY) for _ in range(SCM_MAX_FD)]
        try:
            assert holders(os.getpid(), marker_path) == SCM_MAX_FD + 1  # and the temp file: seen
            said: Counter[str] = Counter()
            for name in SOCKETS:
                path = pet.root.socket(name)
                for i in range(PASSES):
                    data, close = [
                        (ipc.frame(wire.Ping()), False),
                        (ipc.HEADER.pack(64) + b"\x00" * 10, True),
                        (ipc.HEADER.pack(8) + b"\xc1" * 8, False),
                    ][i % 3]
                    said[f"{name}: {send_with_fds(path, data, fds, then_close=close)}"] += 1
            assert pet.say("hello after the descriptors")
            after = settled(pet, before, FD_SLACK)
            kept = {name: holders(pet.pid_of(name), marker_path) for name in SOCKETS}
        finally:
            for fd in fds:
                os.close(fd)
    assert kept == dict.fromkeys(SOCKETS, 0), kept
    for name in SOCKETS:
        assert after[name].fds <= before[name].fds + FD_SLACK, figures(before, after)
        assert f"{name}: Pong" in said, said  # the good frame was answered, fds or not
    assert all(key.split(": ", 1)[1] in {"Pong", "Refused: bad frame"} for key in said), said
    lines = _peer_lines(pet, since)
    assert len(lines) <= LINES_PER_PROCESS * len(SOCKETS), lines
    _no_traceback(pet)
    print(
        f"\nSCM_RIGHTS: {PASSES} connections a socket x {SCM_MAX_FD} descriptors "
        f"({3 * PASSES * SCM_MAX_FD} passed); answers {dict(said)}; kept by the pet {kept}; "
        f"{figures(before, after)}; peer log lines {len(lines)}"
    )


# --- a peer that half-closes after its frame ---------------------------------------------------


def _half_closed(path: Path, data: bytes) -> list[str]:
    """Send `data`, shut the write side, and read every answer until the server closes."""
    kinds: list[str] = []
    with ipc.connect(path) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        while True:
            try:
                answer = ipc.recv(sock, deadline=time.monotonic() + 60)
            except ipc.PeerClosed:
                return kinds
            except ipc.IpcError as exc:
                kinds.append(type(exc).__name__)
                return kinds
            kinds.append(type(answer).__name__)


def test_a_peer_that_half_closes_after_its_frames_gets_every_answer(pet: Pet) -> None:
    """Pings pipelined then a half-close: each answered, then the server closes; a half frame
    then a half-close: refused. On core a Say then a half-close: the turn is answered and
    stored."""
    _warm(pet)
    before = gauge(pet)
    ping = ipc.frame(wire.Ping())
    seen = {}
    for name in SOCKETS:
        path = pet.root.socket(name)
        pipelined = _half_closed(path, ping * 3)
        # The fork-server reads a peer other than core for one Ping only, then closes.
        assert pipelined == (["Pong"] if name == "forkserver" else ["Pong"] * 3), (name, pipelined)
        cut = _half_closed(path, ipc.HEADER.pack(100) + b"\x00" * 10)
        assert cut == ["Refused"], (name, cut)
        seen[name] = (pipelined, cut)
    said = _half_closed(pet.root.socket("core"), ipc.frame(wire.Say(text="half-closed hello")))
    assert said == ["Reply"], said
    pet.settled()
    assert _stored_owner_texts(pet, "half-closed hello") == {"half-closed hello"}
    after = settled(pet, before, FD_SLACK)
    for name in SOCKETS:
        assert after[name].fds <= before[name].fds + FD_SLACK, figures(before, after)
    _no_traceback(pet)
    print(f"\nhalf-closed: {seen}; core's Say answered and stored; {figures(before, after)}")


# --- a client whose unread answers fill its socket, then asks for a turn ------------------------

BLOCKERS = 3


def _wait_stored(pet: Pet, like: str, count: int, timeout: float = 60.0) -> set[str]:
    """The owner's stored texts matching `like`, once there are `count` (or at the timeout)."""
    deadline = time.monotonic() + timeout
    paced = threading.Event()
    while len(stored := _stored_owner_texts(pet, like)) < count and time.monotonic() < deadline:
        paced.wait(0.05)
    return stored


def test_a_client_that_fills_its_socket_then_says_does_not_hold_the_owners_turn(
    pet: Pet,
) -> None:
    """Each blocker leaves as many Pongs unread as core's side of its socket takes before a
    waiting send stops (support.hostile.pongs_that_fit), then sends a Say. Core sent a Say's
    Reply under its one-turn gate with a send that waited for room for up to 10 s: each blocker
    held the gate that long, the owner's turn behind three of them took 30 s, and the blockers'
    Replies were dropped (their turns stored, never told). Now the Reply goes into the socket
    without waiting (what does not fit waits for the client after the turn, outside the gate):
    the owner's turn is not held, and each blocker, once it reads, finds its whole answer."""
    _warm(pet)
    path = pet.root.socket("core")
    fit = pongs_that_fit(path)
    blockers = [fill_then_say(path, fit, f"blocker {i} never reads") for i in range(BLOCKERS)]
    try:
        # Their turns are journaled before their Replies are sent: the owner now waits on them.
        stored = _wait_stored(pet, "blocker % never reads", BLOCKERS)
        assert len(stored) == BLOCKERS, stored
        reply = pet.say("hello while three clients do not read")
        assert reply and DEGRADE_TEXT not in reply
        got = [answers_after(sock) for sock in blockers]
    finally:
        for sock in blockers:
            sock.close()
    for kinds in got:
        assert kinds == ["Pong"] * fit + ["Reply"], Counter(kinds)
    _no_traceback(pet)
    print(
        f"\nfull socket: {BLOCKERS} clients, {fit} unread Pongs each, then a Say: the owner's turn "
        f"answered; each blocker's Reply delivered whole once it read"
    )


# --- a stranger holding connections past each process's open-file limit ------------------------

ROOM = 32  # descriptors each process is left over what it holds at rest


def _hold_as(user: TestUser, paths: list[Path], per_socket: int, release: int) -> tuple[int, int]:
    """Fork a child of `user`'s uid that opens `per_socket` connections to each path and holds
    them until `release` is readable; (its pid, the read end of its report pipe)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through its pipe
        try:
            users.become(user)
            held: list[socket.socket] = []
            counts: Counter[str] = Counter()
            for path in paths:
                for _ in range(per_socket):
                    try:
                        held.append(ipc.connect(path, timeout=10))
                        counts["connected"] += 1
                    except OSError as exc:
                        counts[type(exc).__name__] += 1
            report = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
            os.write(write_end, report.encode() + b"\n")
            os.read(release, 1)
            for sock in held:
                with contextlib.suppress(ipc.IpcError, OSError):
                    answer = ipc.recv(sock, deadline=time.monotonic() + 10)
                    counts[f"read {type(answer).__name__}"] += 1
            report = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
            os.write(write_end, report.encode() + b"\n")
        finally:
            os._exit(0)
    os.close(write_end)
    return pid, read_end


@needs_root("a throwaway third uid")
def test_a_stranger_holding_connections_past_each_limit_costs_no_descriptor(
    pet: Pet, stranger_user: TestUser
) -> None:
    """The sockets opened to 0666 on purpose (past the first gate); each process's RLIMIT_NOFILE
    lowered to ROOM over what it holds; a stranger holds four times ROOM connections to each
    socket while the owner talks. Each is refused at accept and closed there, so no process holds
    a descriptor for any, and the owner's turn is answered and stored."""
    _warm(pet)
    before = gauge(pet)
    since = len(pet.lines)
    pids = {name: pet.pid_of(name) for name in SOCKETS}
    for name, pid in pids.items():
        limit = before[name].fds + ROOM
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (limit, limit))
        os.chmod(pet.root.socket(name), 0o666)
    release_r, release_w = os.pipe()
    child, report = _hold_as(
        stranger_user, [pet.root.socket(n) for n in SOCKETS], 4 * ROOM, release_r
    )
    with os.fdopen(report, "rb") as reports:
        opened = reports.readline().decode().strip()
        held = gauge(pet)
        reply = pet.say("hello while a stranger holds connections")
        os.write(release_w, b"x")
        read = reports.readline().decode().strip()
    os.waitpid(child, 0)
    os.close(release_r)
    os.close(release_w)
    assert f"connected={3 * 4 * ROOM}" in opened, opened
    assert reply and DEGRADE_TEXT not in reply
    assert _stored_owner_texts(pet, "hello while a stranger holds connections")
    assert f"read Refused={3 * 4 * ROOM}" in read, read
    for name in SOCKETS:
        assert held[name].fds <= before[name].fds + FD_SLACK, figures(before, held)
    out_of_fds = [line for line in pet.lines[since:] if re.search("out of file descriptors", line)]
    assert not out_of_fds, out_of_fds
    lines = _peer_lines(pet, since)
    assert len(lines) <= LINES_PER_PROCESS * len(SOCKETS), lines
    _no_traceback(pet)
    print(
        f"\nstranger past the limit: {4 * ROOM} connections a socket held (limits at rest + "
        f"{ROOM}); stranger: {opened}; {read}; held: {figures(before, held)}; the owner's turn "
        f"answered and stored; peer log lines {len(lines)}"
    )
