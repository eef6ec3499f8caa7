"""Frame fuzzers: every socket the pet listens on, against a real running pet.

The pet listens on three sockets (`shelldon.ipc`'s frames on each): core's (the owner's CLI and the
broker's Telegram poller), the broker's (workers and core), the fork-server's (core). Hypothesis
makes bad frames of every kind: a length prefix over the 1 MiB limit or zero, a stream cut inside
the header or the payload, payloads that are random bytes, JSON, msgpack with an unknown type tag,
a known tag with fields of the wrong types, another wire version, or nesting tens of thousands
deep. Each goes over a fresh connection of its own, exactly as a hostile or broken local client
would send it. For each: the server answers `Refused` (the client is told, never left hanging)
and still answers a Ping straight after; the log has one line per uid a minute for all of them
(ipc.RefusalLog, with the count of the rest), not a line each; after the whole run, the owner's
next turn works and is recorded.

`just test` sends a few dozen frames per socket; `just drill` (the `drill` marker) sends
`SHELLDON_FUZZ_FRAMES` (default 1,000) per socket. Each run prints its tally
("frame fuzz: <socket>: N bad frames sent, N refused with M log lines, N pings answered after
one"); docs/reliability.md has the last long run's.

Not covered here: the worker's reply pipe to the fork-server (inherited at the fork, not a socket
anyone can connect to; the fork-server checks its frame the same way, worker/forkserver.py).
"""

from __future__ import annotations

import json
import os
import re
import socket
import struct
import time
import typing
from collections import Counter
from dataclasses import dataclass

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shelldon import ipc
from shelldon.contracts import wire
from support.pet import Pet

SOCKETS = ("core", "broker", "forkserver")
# The log line each server writes when it refuses a frame (ipc.ThreadedServer, the fork-server).
REFUSAL_LINE = {
    "core": r"core: refused a frame from pid (\d+)",
    "broker": r"broker: refused a frame from pid (\d+)",
    "forkserver": r"fork-server: refused a frame from pid (\d+)",
}
DEFAULT_FRAMES = 50
DRILL_FRAMES = int(os.environ.get("SHELLDON_FUZZ_FRAMES", "1000"))
HEADER = struct.Struct(">I")

TAGS = sorted(
    cls.__struct_config__.tag  # type: ignore[attr-defined]
    for cls in typing.get_args(wire.Message)
)
MSGPACK_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


@dataclass(frozen=True)
class BadFrame:
    kind: str
    data: bytes  # everything the client sends before closing its side


def _framed(payload: bytes) -> bytes:
    return HEADER.pack(len(payload)) + payload


def _undecodable(payload: bytes) -> bool:
    try:
        wire.decode(payload)
    except wire.WireError:
        return True
    return False


def _nested(depth: int, in_field: bool) -> bytes:
    """msgpack arrays nested `depth` deep, alone or as the text of a Say."""
    deep = b"\x91" * depth + b"\xc0"
    if not in_field:
        return deep
    head = msgspec.msgpack.encode({"t": "say", "v": 1})
    # The map's header says two entries; make it three and append "text": <the nesting>.
    return b"\x83" + head[1:] + msgspec.msgpack.encode("text") + deep


@st.composite
def bad_frames(draw: st.DrawFn) -> BadFrame:
    kind = draw(
        st.sampled_from(
            [
                "too-long",
                "empty",
                "cut-header",
                "cut-payload",
                "garbage",
                "json",
                "unknown-tag",
                "wrong-fields",
                "wrong-version",
                "nesting",
            ]
        )
    )
    if kind == "too-long":
        length = draw(st.integers(ipc.MAX_FRAME + 1, 2**32 - 1))
        return BadFrame(kind, HEADER.pack(length) + draw(st.binary(max_size=64)))
    if kind == "empty":
        return BadFrame(kind, HEADER.pack(0))
    if kind == "cut-header":
        return BadFrame(kind, draw(st.binary(min_size=1, max_size=3)))
    if kind == "cut-payload":
        length = draw(st.integers(1, ipc.MAX_FRAME))
        sent = draw(st.binary(max_size=min(length - 1, 512)))
        return BadFrame(kind, HEADER.pack(length) + sent)
    if kind == "garbage":
        payload = draw(st.binary(min_size=1, max_size=2048))
    elif kind == "json":
        value = draw(MSGPACK_VALUES.filter(lambda v: not isinstance(v, bytes)) | _json_message())
        payload = json.dumps(value, default=repr).encode()
    elif kind == "unknown-tag":
        fields = draw(st.dictionaries(st.text(max_size=10), MSGPACK_VALUES, max_size=4))
        tag = draw(st.text(max_size=30).filter(lambda t: t not in TAGS) | MSGPACK_VALUES)
        payload = msgspec.msgpack.encode({**fields, "t": tag, "v": 1})
    elif kind == "wrong-fields":
        tag = draw(st.sampled_from(TAGS))
        names = _field_names(tag)
        fields = draw(
            st.dictionaries(
                st.sampled_from(names) if names else st.just("x"), MSGPACK_VALUES, max_size=4
            )
        )
        payload = msgspec.msgpack.encode({**fields, "t": tag, "v": 1})
    elif kind == "wrong-version":
        version = draw(st.integers(-(2**63), 2**64 - 1).filter(lambda v: v != wire.WIRE_VERSION))
        payload = msgspec.msgpack.encode({"t": "ping", "v": version})
    else:
        payload = _nested(draw(st.integers(1_000, 200_000)), draw(st.booleans()))
    assume(_undecodable(payload))
    return BadFrame(kind, _framed(payload))


@st.composite
def _json_message(draw: st.DrawFn) -> dict[str, object]:
    """What a client speaking JSON instead of msgpack would send: a plausible message."""
    return {"t": draw(st.sampled_from(TAGS)), "v": 1, "text": draw(st.text(max_size=40))}


def _field_names(tag: str) -> list[str]:
    for cls in typing.get_args(wire.Message):
        if cls.__struct_config__.tag == tag:
            return [f.name for f in msgspec.structs.fields(cls) if f.name != "v"]
    raise AssertionError(tag)


def send_bad(path: os.PathLike[str], frame: BadFrame) -> wire.Message:
    """Send the frame on a fresh connection, close our side, read the server's answer."""
    with ipc.connect(path, timeout=10) as sock:
        try:
            sock.sendall(frame.data)
            sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # it refused before reading it all; its answer is still there to read
        return ipc.recv(sock, deadline=time.monotonic() + 10)


def wait_for_lines(pet: Pet, pattern: str, count: int, timeout: float = 60.0) -> int:
    """Wait (woken by each new log line) until `count` lines match; how many do."""
    regex = re.compile(pattern)
    mine = str(os.getpid())

    def seen() -> int:
        return sum(1 for line in pet.lines if (m := regex.search(line)) and m.group(1) == mine)

    with pet.changed:
        pet.changed.wait_for(lambda: seen() >= count or pet.ended.is_set(), timeout)
        return seen()


def fuzz(pet: Pet, name: str, frames: int) -> Counter[str]:
    path = pet.root.socket(name)
    tally: Counter[str] = Counter()

    @settings(
        max_examples=frames,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        database=None,
    )
    @given(bad_frames())
    def one(frame: BadFrame) -> None:
        tally["sent"] += 1
        tally[frame.kind] += 1
        answer = send_bad(path, frame)
        assert isinstance(answer, wire.Refused), (frame.kind, answer)
        assert "bad frame" in answer.reason, (frame.kind, answer.reason)
        tally["refused"] += 1
        # The server still serves: a Ping on a new connection is answered straight away.
        assert ipc.answers_ping(path), f"{name} stopped answering after a {frame.kind} frame"
        tally["pinged"] += 1

    started = time.monotonic()
    one()
    tally["logged"] = wait_for_lines(pet, REFUSAL_LINE[name], 1)
    # One line a minute per uid and kind (ipc.RefusalLog): the bound for this run's length.
    tally["bound"] = 1 + int((time.monotonic() - started) // ipc.REFUSAL_LOG_INTERVAL_S)
    print(
        f"frame fuzz: {name}: {tally['sent']} bad frames sent, {tally['refused']} refused with "
        f"{tally['logged']} log lines, {tally['pinged']} pings answered after one; kinds: "
        + ", ".join(f"{k} {tally[k]}" for k in sorted(tally) if "-" in k or k in _ONE_WORD)
    )
    return tally


_ONE_WORD = ("empty", "garbage", "json", "nesting")


def check(pet: Pet, name: str, tally: Counter[str]) -> None:
    assert tally["sent"] == tally["refused"] == tally["pinged"] > 0, tally
    assert 1 <= tally["logged"] <= tally["bound"], tally
    # Every process still runs and the owner's next turn works and is recorded.
    assert pet.proc.poll() is None, pet.log
    reply = pet.say(f"hello after the {name} fuzz")
    assert reply
    status = pet.cli("status")
    assert status.returncode == 0, status.stderr


@pytest.mark.parametrize("name", SOCKETS)
def test_bad_frames_are_refused_and_the_pet_goes_on(pet: Pet, name: str) -> None:
    check(pet, name, fuzz(pet, name, DEFAULT_FRAMES))


@pytest.mark.drill
@pytest.mark.parametrize("name", SOCKETS)
def test_bad_frames_drill(pet: Pet, name: str) -> None:
    check(pet, name, fuzz(pet, name, DRILL_FRAMES))
