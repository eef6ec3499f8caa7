"""`shelldon say`'s part of the wire, without msgspec: a Say encoded, and a Reply or a Refused read.

msgspec costs about four bare interpreters to import, more than the rest of `say` together
(docs/cli.md, "Start time"), and `say` sends one message and reads one answer. So its frame is
written here in msgpack as `contracts.wire` writes it (the same bytes: tests/contracts/
test_wire_say.py holds them equal), and the answer is read with a small msgpack reader. Only an
answer that `contracts.wire` would decode to exactly a Reply or a Refused is taken here
(`reply_or_refused`); anything else is left to `contracts.wire` itself, so no answer is read
differently by the two.

`WIRE_VERSION` lives here so that both read it from one place.
"""

from __future__ import annotations

import struct

WIRE_VERSION = 1
MAX_DEPTH = 32  # nesting a reader follows; wire's messages nest three or four levels

_REPLY_FIELDS = {"t": str, "v": int, "text": str, "turn_id": str, "degraded": bool, "provider": str}
_REPLY_REQUIRED = frozenset({"text", "turn_id"})
_REFUSED_FIELDS = {"t": str, "v": int, "reason": str}
_REFUSED_REQUIRED = frozenset({"reason"})


class NotMsgpack(ValueError):
    """Bytes this reader does not take (malformed, or a kind wire's messages never hold)."""


def _str_header(size: int) -> bytes:
    if size < 32:
        return bytes((0xA0 | size,))
    if size < 1 << 8:
        return b"\xd9" + struct.pack(">B", size)
    if size < 1 << 16:
        return b"\xda" + struct.pack(">H", size)
    return b"\xdb" + struct.pack(">I", size)


def _str(text: str) -> bytes:
    data = text.encode("utf-8")
    return _str_header(len(data)) + data


def encode_say(text: str) -> bytes:
    """`wire.encode(wire.Say(text=text))`: a 3-entry map, the tag first and `v` last."""
    return b"\x83" + _str("t") + _str("say") + _str("text") + _str(text) + _str("v") + b"\x01"


def reply_or_refused(payload: bytes) -> tuple[str, str] | None:
    """("reply", text) or ("refused", reason) when `payload` is exactly what `contracts.wire`
    decodes to a Reply or a Refused of this wire version; None for anything else."""
    try:
        value, end = _read(payload, 0, 0)
    except NotMsgpack:
        return None
    if end != len(payload) or not isinstance(value, dict):
        return None
    tag = value.get("t")
    if tag == "reply":
        fields, required, answer = _REPLY_FIELDS, _REPLY_REQUIRED, "text"
    elif tag == "refused":
        fields, required, answer = _REFUSED_FIELDS, _REFUSED_REQUIRED, "reason"
    else:
        return None
    if not required <= value.keys() or not value.keys() <= fields.keys():
        return None
    for key, kind in fields.items():
        # bool is an int to isinstance, never the other way round on the wire
        if key in value and (type(value[key]) is not kind):
            return None
    if value.get("v", WIRE_VERSION) != WIRE_VERSION:
        return None
    return str(tag), str(value[answer])


def _need(payload: bytes, at: int, size: int) -> None:
    if at + size > len(payload):
        raise NotMsgpack("truncated")


def _read(payload: bytes, at: int, depth: int) -> tuple[object, int]:
    """The value at `at` and where it ends."""
    if depth > MAX_DEPTH:
        raise NotMsgpack("nested too deep")
    _need(payload, at, 1)
    lead = payload[at]
    at += 1
    if lead <= 0x7F:
        return lead, at
    if lead >= 0xE0:
        return lead - 0x100, at
    if 0xA0 <= lead <= 0xBF:
        return _text(payload, at, lead & 0x1F)
    if 0x80 <= lead <= 0x8F:
        return _map(payload, at, lead & 0x0F, depth)
    if 0x90 <= lead <= 0x9F:
        return _array(payload, at, lead & 0x0F, depth)
    simple = {0xC0: None, 0xC2: False, 0xC3: True}
    if lead in simple:
        return simple[lead], at
    fixed = _FIXED.get(lead)
    if fixed is not None:
        _need(payload, at, fixed.size)
        return fixed.unpack_from(payload, at)[0], at + fixed.size
    sized = _SIZED.get(lead)
    if sized is None:
        raise NotMsgpack(f"type byte {lead:#x}")
    kind, header = sized
    _need(payload, at, header.size)
    size = header.unpack_from(payload, at)[0]
    at += header.size
    if kind == "str":
        return _text(payload, at, size)
    if kind == "bin":
        _need(payload, at, size)
        return payload[at : at + size], at + size
    if kind == "array":
        return _array(payload, at, size, depth)
    return _map(payload, at, size, depth)


def _text(payload: bytes, at: int, size: int) -> tuple[str, int]:
    _need(payload, at, size)
    try:
        return payload[at : at + size].decode("utf-8"), at + size
    except UnicodeDecodeError:
        raise NotMsgpack("a string that is not UTF-8") from None


def _array(payload: bytes, at: int, count: int, depth: int) -> tuple[list[object], int]:
    _need(payload, at, count)  # every item is at least one byte: a huge count fails here
    items = []
    for _ in range(count):
        item, at = _read(payload, at, depth + 1)
        items.append(item)
    return items, at


def _map(payload: bytes, at: int, count: int, depth: int) -> tuple[dict[object, object], int]:
    _need(payload, at, 2 * count)
    items: dict[object, object] = {}
    for _ in range(count):
        key, at = _read(payload, at, depth + 1)
        if not isinstance(key, str | int) or key in items:
            raise NotMsgpack("a map key that is not a unique string or integer")
        items[key], at = _read(payload, at, depth + 1)
    return items, at


_FIXED = {
    0xCA: struct.Struct(">f"),
    0xCB: struct.Struct(">d"),
    0xCC: struct.Struct(">B"),
    0xCD: struct.Struct(">H"),
    0xCE: struct.Struct(">I"),
    0xCF: struct.Struct(">Q"),
    0xD0: struct.Struct(">b"),
    0xD1: struct.Struct(">h"),
    0xD2: struct.Struct(">i"),
    0xD3: struct.Struct(">q"),
}
_U8, _U16, _U32 = struct.Struct(">B"), struct.Struct(">H"), struct.Struct(">I")
_SIZED = {
    0xC4: ("bin", _U8),
    0xC5: ("bin", _U16),
    0xC6: ("bin", _U32),
    0xD9: ("str", _U8),
    0xDA: ("str", _U16),
    0xDB: ("str", _U32),
    0xDC: ("array", _U16),
    0xDD: ("array", _U32),
    0xDE: ("map", _U16),
    0xDF: ("map", _U32),
}
