"""The wire's unions: what core's socket serves is one closed list, and every message decodes."""

from __future__ import annotations

import typing

import msgspec
import pytest

from shelldon.contracts import wire


def test_core_serves_exactly_the_requests_its_union_names() -> None:
    assert set(typing.get_args(wire.CoreRequest)) == set(wire.CORE_REQUESTS)
    assert set(wire.CORE_REQUESTS) <= set(typing.get_args(wire.Message))


def test_no_two_messages_share_a_tag() -> None:
    tags = [msgspec.inspect.type_info(t).tag for t in typing.get_args(wire.Message)]
    assert len(tags) == len(set(tags))


def test_a_frame_of_another_version_or_shape_is_refused_with_a_short_reason() -> None:
    ping = msgspec.msgpack.encode({"t": "ping", "v": wire.WIRE_VERSION + 1})
    with pytest.raises(wire.WireError, match="wire version"):
        wire.decode(ping)
    with pytest.raises(wire.WireError, match="undecodable"):
        wire.decode(b"\xc1" * 64)
    assert isinstance(wire.decode(wire.encode(wire.Ping())), wire.Ping)


def test_encodable_tells_what_the_wire_cannot_carry() -> None:
    assert wire.encodable({"op": "remind", "text": "x", "in_seconds": 2**62})
    assert wire.encodable({"n": -(2**63)})
    assert not wire.encodable({"op": "remind", "text": "x", "in_seconds": 10**30})
    assert not wire.encodable({"deep": [[{"n": -(2**70)}]]})
    assert not wire.encodable({"an object": object()})
