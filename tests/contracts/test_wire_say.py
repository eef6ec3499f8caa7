"""`shelldon say`'s msgspec-free codec: the Say it writes is byte for byte what contracts.wire
writes, and an answer it takes is exactly one contracts.wire decodes to that Reply or Refused
(anything else it leaves to contracts.wire)."""

from __future__ import annotations

import random

import msgspec
import pytest

from shelldon.contracts import wire
from shelldon.contracts.wire_say import encode_say, reply_or_refused

TEXTS = [
    "",
    "hi",
    "x" * 31,
    "x" * 32,
    "y" * 255,
    "y" * 256,
    "z" * 65535,
    "z" * 65536,
    "naïve café ünïcödé",
    "🐢 and a ZWJ: 👩‍💻",
    "line one\nline two\ttab",
]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_a_say_is_the_bytes_contracts_wire_writes(text: str) -> None:
    assert encode_say(text) == wire.encode(wire.Say(text=text))


def _wire_answer(payload: bytes) -> tuple[str, str] | None:
    """What contracts.wire makes of `payload`, in reply_or_refused's shape."""
    try:
        message = wire.decode(payload)
    except wire.WireError:
        return None
    if isinstance(message, wire.Reply):
        return ("reply", message.text)
    if isinstance(message, wire.Refused):
        return ("refused", message.reason)
    return None


ANSWERS: list[object] = [
    wire.Reply(text="hello there", turn_id="t1"),
    wire.Reply(text="é" * 300, turn_id="t2", degraded=True, provider="offline"),
    wire.Reply(text="", turn_id=""),
    wire.Refused(reason="too many connections (16 open by uid 1000)"),
    wire.Ack(detail="ok"),
    wire.Pong(name="core", pid=1, detail=""),
    wire.Status(processes=(), last_turn=None, memory_counts={"facts": 1}, vault_isolation=True),
]
# Maps that are nearly a Reply or a Refused: each is one way contracts.wire refuses (or reads
# otherwise), so the codec must not take it.
NEAR_MISSES: list[dict[str, object]] = [
    {"t": "reply", "v": 1, "text": "hi"},  # no turn_id
    {"t": "reply", "v": 2, "text": "hi", "turn_id": "t"},  # another version
    {"t": "reply", "v": 1, "text": "hi", "turn_id": "t", "sudo": True},  # an unknown field
    {"t": "reply", "v": 1, "text": b"hi", "turn_id": "t"},  # bytes, not a string
    {"t": "reply", "v": 1, "text": "hi", "turn_id": "t", "degraded": 1},  # an int, not a bool
    {"t": "reply", "v": True, "text": "hi", "turn_id": "t"},  # a bool, not an int
    {"t": "refused", "v": 1},  # no reason
    {"t": "refused", "v": 1, "reason": 7},
    {"t": "Reply", "v": 1, "text": "hi", "turn_id": "t"},  # tags are case-sensitive
    {"v": 1, "text": "hi", "turn_id": "t"},  # no tag
]


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda a: type(a).__name__)
def test_every_answer_reads_as_contracts_wire_reads_it(answer: wire._Msg) -> None:
    payload = wire.encode(answer)
    assert reply_or_refused(payload) == _wire_answer(payload)


@pytest.mark.parametrize("fields", NEAR_MISSES, ids=range(len(NEAR_MISSES)))
def test_a_near_miss_is_left_to_contracts_wire(fields: dict[str, object]) -> None:
    payload = msgspec.msgpack.encode(fields)
    assert reply_or_refused(payload) is None
    assert reply_or_refused(payload) == _wire_answer(payload)


def test_a_reply_without_its_defaults_or_its_version_is_taken_as_wire_takes_it() -> None:
    payload = msgspec.msgpack.encode({"turn_id": "t", "text": "hi", "t": "reply"})
    assert reply_or_refused(payload) == _wire_answer(payload) == ("reply", "hi")


def test_damaged_answers_are_never_taken_otherwise_than_wire_takes_them() -> None:
    """Every truncation and thousands of random byte flips of real answers: where the codec
    takes one, contracts.wire decodes it to the same Reply or Refused."""
    rng = random.Random(25)
    payloads = [wire.encode(a) for a in ANSWERS]  # type: ignore[arg-type]
    taken = 0
    for payload in payloads:
        for cut in range(len(payload)):
            assert reply_or_refused(payload[:cut]) is None
        for _ in range(2000):
            damaged = bytearray(payload)
            for _ in range(rng.randint(1, 3)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            mine = reply_or_refused(bytes(damaged))
            if mine is not None:
                taken += 1
                assert mine == _wire_answer(bytes(damaged)), bytes(damaged)
    assert taken > 100  # the flips did leave answers to take (text bytes changed, say)


def test_deep_nesting_and_huge_counts_are_refused_without_reading_on() -> None:
    assert reply_or_refused(b"\x91" * 10_000 + b"\xc0") is None
    assert reply_or_refused(b"\xdf\xff\xff\xff\xff") is None  # a map of 4 G entries, no bytes
    assert reply_or_refused(b"\xdb\xff\xff\xff\xff") is None  # a 4 GiB string, no bytes
