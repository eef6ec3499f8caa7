"""Hostile local peers at the real pet's sockets, and what they cost each process.

The pieces of tests/test_ipc_hostile_peers.py: a gauge of each process's descriptors and resident
memory (read from /proc, waited on with a deadline when they should settle), the slowloris shapes
a peer can hold a frame in, a peer that passes descriptors nobody asked for (SCM_RIGHTS), and the
calibration of a client that fills its socket by not reading; and a hostile model's memory ops
through the real pet (issue 23's hostile rounds): the ops' shapes, and what of a round's set was
stored, by class.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import json
import os
import socket
import termios
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shelldon import ipc
from shelldon.contracts import wire
from support.pet import Pet, start_pet

SOCKETS = ("core", "broker", "forkserver")
READ_BOUND_S = 60.0  # far over each server's frame deadline (10 s), far under its idle one (300 s)
SCM_MAX_FD = 253  # the kernel's limit of descriptors in one SCM_RIGHTS message


@dataclass(frozen=True)
class Usage:
    fds: int
    rss_kb: int
    peak_kb: int  # VmHWM: the most resident memory the process ever had


def usage(pid: int) -> Usage:
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0])
    return Usage(len(os.listdir(f"/proc/{pid}/fd")), fields["VmRSS"], fields["VmHWM"])


def gauge(pet: Pet) -> dict[str, Usage]:
    return {name: usage(pet.pid_of(name)) for name in SOCKETS}


def settled(
    pet: Pet,
    before: dict[str, Usage],
    slack: int,
    *,
    rss_slack_kb: int | None = None,
    timeout: float = 30.0,
) -> dict[str, Usage]:
    """The processes' usage once each holds at most `slack` descriptors (and `rss_slack_kb` of
    resident memory) over `before`, or at the timeout: connections a server let go close, and
    their buffers are freed, on its threads' time, so this is polled."""
    deadline = time.monotonic() + timeout
    paced = threading.Event()
    rss_slack = rss_slack_kb if rss_slack_kb is not None else 1 << 40
    while True:
        now = gauge(pet)
        if all(
            now[n].fds <= before[n].fds + slack and now[n].rss_kb <= before[n].rss_kb + rss_slack
            for n in SOCKETS
        ):
            return now
        if time.monotonic() >= deadline:
            return now
        paced.wait(0.05)


def figures(before: dict[str, Usage], after: dict[str, Usage]) -> str:
    return "; ".join(
        f"{n} fds {before[n].fds}->{after[n].fds} rss {before[n].rss_kb // 1024}->"
        f"{after[n].rss_kb // 1024} MiB (peak {after[n].peak_kb // 1024})"
        for n in SOCKETS
    )


def holders(pid: int, path: Path) -> int:
    """How many of `pid`'s descriptors point at `path`."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/fd/{fd}") == os.fspath(path):
                count += 1
    return count


# --- slowloris ----------------------------------------------------------------------------------

PAYLOAD = wire.encode(wire.Ping())
SHAPES = {
    # a header a byte at a time (then the rest, as slowly)
    "trickle": ipc.HEADER.pack(200) + b"\x00" * 200,
    # a whole header, then nothing
    "header only": ipc.HEADER.pack(len(PAYLOAD)),
    # a length, then half the body
    "half a body": ipc.HEADER.pack(400) + b"\x92" * 200,
}


class Slowloris:
    """`per_shape` connections of each shape to `path`; the tricklers get one byte each per tick
    (the attack's pace, not a synchronisation) until the server lets them go or `stop()`."""

    def __init__(self, path: Path, per_shape: int) -> None:
        self.path = path
        self.socks: dict[str, list[socket.socket]] = {shape: [] for shape in SHAPES}
        for shape, data in SHAPES.items():
            for _ in range(per_shape):
                sock = ipc.connect(path)
                if shape != "trickle":
                    sock.sendall(data)
                self.socks[shape].append(sock)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _trickle(self) -> None:
        data = SHAPES["trickle"]
        for byte in data:
            for sock in self.socks["trickle"]:
                with contextlib.suppress(OSError):
                    sock.send(bytes([byte]), socket.MSG_DONTWAIT)
            if self._stop.wait(0.5):
                return

    def outcomes(self) -> dict[str, int]:
        """What each connection got from the server (read with a bound far over its own)."""
        seen: dict[str, int] = {}
        for socks in self.socks.values():
            for sock in socks:
                try:
                    answer = ipc.recv(sock, deadline=time.monotonic() + READ_BOUND_S)
                    key = (
                        "refused: bad frame"
                        if isinstance(answer, wire.Refused) and "bad frame" in answer.reason
                        else f"other: {answer}"
                    )
                except (ipc.PeerClosed, ipc.FrameTruncated, ConnectionResetError):
                    key = "closed for room"
                except ipc.FrameTimeout:
                    key = "still held"
                seen[key] = seen.get(key, 0) + 1
        return seen

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for socks in self.socks.values():
            for sock in socks:
                sock.close()


# --- descriptors passed with a frame -------------------------------------------------------------


def send_with_fds(path: Path, data: bytes, fds: list[int], *, then_close: bool) -> str:
    """Connect, send `data` with `fds` attached (SCM_RIGHTS), and say what the server answered
    (after a half-close when `then_close`)."""
    with ipc.connect(path) as sock:
        try:
            sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
            if then_close:
                sock.shutdown(socket.SHUT_WR)
            answer = ipc.recv(sock, deadline=time.monotonic() + READ_BOUND_S)
        except (ipc.IpcError, OSError) as exc:
            return f"no answer: {type(exc).__name__}"
    if isinstance(answer, wire.Refused):
        return "Refused: " + answer.reason.split(":")[0]
    return type(answer).__name__


# --- a client that does not read ---------------------------------------------------------------


def unread(sock: socket.socket) -> int:
    """Bytes waiting in `sock` (FIONREAD): the answers the server sent that it has not read."""
    raw = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0" * 4)
    return int.from_bytes(raw, "little", signed=True)


def wait_unread_over(sock: socket.socket, count: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    paced = threading.Event()
    while unread(sock) <= count:
        if time.monotonic() >= deadline:
            return False
        paced.wait(0.002)
    return True


def pongs_that_fit(path: Path, *, answer_within: float = 5.0) -> int:
    """How many Pongs the server's side of a connection holds for a client that reads none: Pings
    one at a time, each waited on until its Pong is in, until one is not (`answer_within`: far
    over a Ping's answer on a loaded box). The probe connection is dropped by the server after."""
    ping = ipc.frame(wire.Ping())
    fit = 0
    with ipc.connect(path) as sock:
        while True:
            before = unread(sock)
            sock.sendall(ping)
            if not wait_unread_over(sock, before, answer_within):
                return fit
            fit += 1


def fill_then_say(path: Path, pongs: int, text: str) -> socket.socket:
    """A connection whose unread Pongs fill the server's side, then a Say: its Reply finds no
    room. Each Ping's Pong is waited in, so the Say comes last."""
    sock = ipc.connect(path)
    ping = ipc.frame(wire.Ping())
    for _ in range(pongs):
        before = unread(sock)
        sock.sendall(ping)
        assert wait_unread_over(sock, before, READ_BOUND_S), "a Pong never came"
    sock.sendall(ipc.frame(wire.Say(text=text)))
    return sock


def answers_after(sock: socket.socket) -> list[str]:
    """The kinds of the answers waiting on `sock`, read until one that is not a Pong."""
    kinds: list[str] = []
    while True:
        try:
            answer = ipc.recv(sock, deadline=time.monotonic() + READ_BOUND_S)
        except ipc.IpcError as exc:
            kinds.append(type(exc).__name__)
            return kinds
        kinds.append(type(answer).__name__)
        if not isinstance(answer, wire.Pong):
            return kinds


# --- a hostile model's memory ops (issue 23's hostile rounds) -----------------------------------

Op = dict[str, Any]
# (class, ops, spellings): a secret is recoverable when every piece of one spelling is stored.
Secret = tuple[str, list[Op], list[list[str]]]
# (class, ops, marker): an order is stored when its marker is.
Order = tuple[str, list[Op], str]
OPS_A_TURN = 16


def entry(name: str, text: str, collection: str = "facts") -> Op:
    return {"op": "remember", "collection": collection, "name": name, "content": text}


def episode(text: str, tags: list[str] | None = None) -> Op:
    return {"op": "log_episode", "content": text, "tags": tags or ["chat"]}


def remind(text: str, seconds: int = 86_400) -> Op:
    return {"op": "remind", "text": text, "in_seconds": seconds}


def learning(text: str, key: str) -> Op:
    return {"op": "capture_learning", "observation": text, "pattern_key": key}


def describe(secrets: list[Secret], orders: list[Order], benign: list[Any]) -> None:
    """What a round's set holds, by class (`python -m support.hostile_roundN` in tests/)."""
    print("secrets by class:", dict(Counter(c for c, _, _ in secrets)))
    print("orders by class:", dict(Counter(c for c, _, _ in orders)))
    print(f"{len(secrets)} secrets, {len(orders)} orders, {len(benign)} benign")


def has(text: str, piece: str) -> bool:  # as written, or escaped the way JSON writes it
    return piece in text or json.dumps(piece)[1:-1] in text


def recoverable(text: str, spellings: list[list[str]]) -> bool:
    return any(all(has(text, piece) for piece in pieces) for pieces in spellings)


def measure(
    home: Path,
    fake: Any,  # fakes.fake_provider.FakeProvider
    secrets: list[Secret],
    orders: list[Order],
    benign: list[Op],
    needles: list[str],
) -> dict[str, Any]:
    """Every op through a real pet, OPS_A_TURN a turn (an op's group stays in one turn); one
    more turn reads the last prompt. What was stored, by class, and the audit's records: a
    secret counts when every piece of one spelling is in a file the pet wrote (pet.log aside),
    an order when its marker is."""
    from core.test_hostile_redteam3_e2e import _everything, _prompt_text
    from fakes.fake_provider import reply

    answer = "Noted, thanks!"
    groups = [g for _, g, _ in secrets] + [g for _, g, _ in orders] + [[op] for op in benign]
    batches: list[list[Op]] = [[]]
    for group in groups:
        if len(batches[-1]) + len(group) > OPS_A_TURN:
            batches.append([])
        batches[-1].extend(group)
    fake.script(*(reply(answer, ops=b) for b in batches), reply(answer))
    pet = start_pet()
    try:
        said = [pet.cli("say", f"let's tidy up, part {n}") for n in range(len(batches))]
        said.append(pet.cli("say", "what do you remember about Mia, the router and the NAS?"))
    finally:
        assert pet.stop() == 0, pet.log
    assert all(r.returncode == 0 for r in said), [r.stderr for r in said]
    assert "Traceback" not in pet.log
    kept = _everything(home)
    prompt = _prompt_text(fake)
    audit_path = pet.root.memory / "history.jsonl"
    return {
        "secrets": [c for c, _, sp in secrets if recoverable(kept, sp)],
        "orders": [c for c, _, m in orders if m in kept],
        "prompt": [c for c, _, sp in secrets if recoverable(prompt, sp)]
        + [c for c, _, m in orders if m in prompt],
        "benign lost": [n for n in needles if not has(kept, n)],
        "audit": [json.loads(x) for x in audit_path.read_text().splitlines()],
    }


def report(found: dict[str, Any], secrets: list[Secret], orders: list[Order]) -> None:
    """The figures by class (run the round's test with `-q -s`)."""
    for kind, battery in (("secrets", secrets), ("orders", orders)):
        total = Counter(c for c, _, _ in battery)
        wrong = Counter(found[kind])
        print(f"{kind} stored wrongly: {sum(wrong.values())} of {sum(total.values())}")
        for cls, n in total.items():
            print(f"  {cls}: {wrong[cls]} of {n}")
    print(f"in the last prompt: {found['prompt']}")
    print(f"benign lost: {found['benign lost']}")
