"""The reply protocol: what every brain returns as text, and the robust, bounded parser for it.

A brain answers with one JSON object `{"reply": "<owner-facing text>", "ops": [<op>, ...]}`. Models
wrap it in fences, add prose around it, or get cut off mid-object; `parse_reply` copes with all of
that, and with no JSON at all (the text itself becomes the reply, with no ops). Each op is left raw
(a mapping) for core to decode one by one: one bad op never spoils the reply or the other ops.

Everything is bounded: the body read, the reply length, the number of ops and each op's size.
What the parser drops is listed in `BrainReply.dropped` as reasons that never quote the content
(it may hold a secret the model picked up), for the audit log.
"""

from __future__ import annotations

import json
import re
from typing import Any

from shelldon.broker.weak_text import (
    TEXT_OPS_NOTE,
    has_reasoning,
    reasoning_ends,
    scrub,
    without_reasoning,
)
from shelldon.contracts.brain import BrainReply, Usage

MAX_RAW_CHARS = 256_000  # a body past this is cut before parsing (a reply is a few KB)
MAX_OPS = 16
MAX_OP_CHARS = 16_000  # one op, as JSON; the gate has its own, tighter, per-collection limits
_SCAN_STARTS = 64  # how many "{" positions the prose scan tries before giving up

# Asked of providers that support a JSON schema. Ops stay open objects: core decodes each one
# against the closed contract (shelldon.contracts.ops), so the schema only pins the envelope.
REPLY_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reply": {"type": "string", "description": "what the pet says to its owner"},
        "ops": {
            "type": "array",
            "description": (
                "proposed memory, learning and reminder ops, each an object with an 'op' tag "
                "(remember, rewrite_about, log_episode, capture_learning, remind, ...)"
            ),
            "items": {
                "type": "object",
                "properties": {"op": {"type": "string"}},
                "required": ["op"],
            },
        },
    },
    "required": ["reply", "ops"],
}

# One sentence every prompt's system instruction should carry (the worker's prompt owns the rest).
REPLY_FORMAT_INSTRUCTION = (
    "Answer with exactly one JSON object and nothing else: "
    '{"reply": "<what you say to your owner>", '
    '"ops": [<zero or more memory or reminder ops, each an object with an "op" field>]}. '
    'A reminder is {"op": "remind", "text": "...", "in_seconds": N} or '
    '{"op": "remind", "text": "...", "at": "YYYY-MM-DDTHH:MM", "repeat": "daily" | "weekly"}, '
    "in the owner's local time."
)

_DECODER = json.JSONDecoder(strict=False)  # models put raw newlines inside strings
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_SALVAGE_START = re.compile(r'\{\s*"(?:reply|ops)"\s*:')
# Terminal control characters (ESC sequences, carriage returns, NUL…) have no place in a reply the
# owner reads in a terminal; newline and tab stay.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def parse_reply(
    raw: str,
    *,
    max_reply_chars: int = 4000,
    max_ops: int = MAX_OPS,
    max_op_chars: int = MAX_OP_CHARS,
    max_raw_chars: int = MAX_RAW_CHARS,
    provider: str = "",
    usage: Usage | None = None,
    tools: bool = False,
) -> BrainReply:
    """Parse a brain's text into a BrainReply. Never raises on any input string.

    `tools`: the provider was asked in tools mode, where ops come only as native tool calls. The
    text is then read for its words alone: an envelope's or a bare op's ops, and any op-shaped
    JSON in the words (`weak_text.imitates_protocol`), are removed and noted, never proposed."""
    dropped: list[str] = []
    if len(raw) > max_raw_chars:
        raw = raw[:max_raw_chars]
        dropped.append(f"body: cut to {max_raw_chars} chars before parsing")
    # What a weak model wraps around its words (broker.weak_text). The protocol's own JSON is
    # never edited: its ops reach core as the model wrote them, for the gate to judge. A
    # reasoning block before the envelope is removed first (it may hold drafts of it); the
    # template tokens and text-form tool calls only from a body that holds no protocol JSON,
    # and from the envelope's reply below.
    text = raw.strip()
    found = _find_object(text)
    if found is None or has_reasoning(text, found[2]):
        after = _after_reasoning(text)
        unreasoned, removed = after if after is not None else without_reasoning(text)
        if removed:
            dropped.append("body: reasoning block removed")
            text = unreasoned.strip()
            found = _find_object(text)
    if found is None and _bare_ops(text) is None and _SALVAGE_START.search(text) is None:
        text, notes = scrub(text, tools=tools)
        dropped.extend(note for note in notes if note not in dropped)

    reply_value: Any
    ops_value: Any
    if found is not None:
        obj, outside, _ = found
        if outside:
            dropped.append("body: text outside the JSON object ignored")
        reply_value, ops_value = _envelope(obj)
    elif (bare := _bare_ops(text)) is not None:
        reply_value, ops_value = "", bare  # ops and no words: the answer says what they did
        dropped.append("body: ops without the envelope; no words")
    else:
        salvaged = _salvage(text)
        if salvaged is not None:
            reply_value, ops_value, notes = salvaged
            dropped.extend(notes)
        else:
            reply_value, ops_value = text, []
            if text:
                dropped.append("body: no JSON object; the text is the reply, no ops")

    if isinstance(reply_value, str):
        reply_value, notes = scrub(reply_value, tools=tools)
        dropped.extend(note for note in notes if note not in dropped)
    reply = _clean_reply(reply_value, max_reply_chars, dropped)
    if tools and ops_value:  # the other protocol imitated: its ops are words' debris, not ops
        count = len(ops_value) if isinstance(ops_value, list) else 1
        dropped.append(f"ops: {count} {TEXT_OPS_NOTE}")
        ops_value = []
    ops = _bounded_ops(ops_value, max_ops, max_op_chars, dropped)
    return BrainReply(
        text=reply, ops=tuple(ops), provider=provider, usage=usage, dropped=tuple(dropped)
    )


# A small model's spellings of the envelope's two keys: "Reply" or "response" for `reply`, "Ops"
# for `ops` (read case-blind; `reply` itself wins). `{"answer": "hi"}` stays junk (an earlier
# issue's own case: the offline brain answers instead), and so does any other key.
_REPLY_KEYS = ("reply", "response")
_OPS_KEYS = ("ops",)
# What a model nests the reply's text under when it makes `reply` an object.
_TEXT_KEYS = ("text", "content", "message", "reply")


def _keyed(value: dict[str, Any], names: tuple[str, ...]) -> tuple[bool, Any]:
    folded = {k.casefold(): v for k, v in value.items() if isinstance(k, str)}
    for name in names:
        if name in folded:
            return True, folded[name]
    return False, None


def _is_protocol_object(value: Any) -> bool:
    if not isinstance(value, dict) or "op" in value:  # an op alone is no envelope
        return False
    return _keyed(value, _REPLY_KEYS)[0] or _keyed(value, _OPS_KEYS)[0]


def _bare_ops(text: str) -> list[Any] | None:
    """The body when it is an op, or a list of ops, with no envelope around it."""
    decoded = _decode_at(text, 0) if text[:1] in ("{", "[") else None
    if decoded is None or text[decoded[1] :].strip():
        return None
    value = decoded[0]
    items = value if isinstance(value, list) else [value]
    if items and all(isinstance(i, dict) and isinstance(i.get("op"), str) for i in items):
        return items
    return None


def _envelope(obj: dict[str, Any]) -> tuple[Any, Any]:
    """The reply and the ops of a protocol object, read through a small model's near misses: the
    keys in another case or word; the reply as {"text": …} or a list of sentences; the ops as
    one object or as a JSON string of them."""
    _, reply = _keyed(obj, _REPLY_KEYS)
    found, ops = _keyed(obj, _OPS_KEYS)
    if isinstance(reply, dict) and (inner := _keyed(reply, _TEXT_KEYS))[0]:
        reply = inner[1]  # an object without a text key stays one: refused with its note
    elif isinstance(reply, list) and reply and all(isinstance(r, str) for r in reply):
        reply = " ".join(r.strip() for r in reply)
    if isinstance(ops, str) and ops.strip()[:1] in ("[", "{"):
        decoded = _decode_at(ops.strip(), 0)
        ops = decoded[0] if decoded is not None else ops
    if isinstance(ops, dict):
        ops = [ops]
    return (reply if reply is not None else ""), (ops if found else [])


def _decode_at(text: str, index: int) -> tuple[Any, int] | None:
    try:
        return _DECODER.raw_decode(text, index)
    except (ValueError, RecursionError):  # JSONDecodeError, huge ints, hostile nesting
        return None


def _find_object(text: str) -> tuple[dict[str, Any], bool, int] | None:
    """The protocol object in `text`, whether anything else was around it, and where it (or its
    fence) starts."""
    whole = _decode_at(text, 0) if text.startswith("{") else None
    if whole is not None and _is_protocol_object(whole[0]):
        return whole[0], bool(text[whole[1] :].strip()), 0
    for match in _FENCE.finditer(text):
        inner = match.group(1).strip()
        decoded = _decode_at(inner, 0) if inner.startswith("{") else None
        if decoded is not None and _is_protocol_object(decoded[0]):
            outside = bool(text[: match.start()].strip() or text[match.end() :].strip())
            return decoded[0], outside or bool(inner[decoded[1] :].strip()), match.start()
    start = text.find("{")
    tries = 0
    while start != -1 and tries < _SCAN_STARTS:
        decoded = _decode_at(text, start)
        if decoded is not None and _is_protocol_object(decoded[0]):
            return decoded[0], True, start
        tries += 1
        start = text.find("{", start + 1)
    return None


def _after_reasoning(text: str) -> tuple[str, bool] | None:
    """The text after the first reasoning end that a protocol object follows with no reasoning
    before it: a reasoning tag inside the envelope's own strings is not the block's end."""
    for end in reasoning_ends(text):
        rest = text[end:].strip()
        found = _find_object(rest)
        if found is not None and not has_reasoning(rest, found[2]):
            return rest, True
    return None


def _skip(text: str, pos: int, chars: str = " \t\r\n,") -> int:
    while pos < len(text) and text[pos] in chars:
        pos += 1
    return pos


def _scan_string(text: str, pos: int) -> tuple[str, int, bool]:
    """A JSON string starting at text[pos] == '"': (value, end, complete). Lenient when cut off."""
    i = pos + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            try:
                value, end = _DECODER.raw_decode(text, pos)
            except ValueError:
                return text[pos + 1 : i], i + 1, True
            return str(value), end, True
        i += 1
    fragment = text[pos + 1 :]
    # Cut off inside an escape (a lone backslash, a short \\u): drop the dangling tail and decode.
    for cut in range(min(6, len(fragment)) + 1):
        candidate = fragment[: len(fragment) - cut]
        try:
            return str(_DECODER.decode('"' + candidate + '"')), len(text), False
        except ValueError:
            continue
    return fragment, len(text), False


def _salvage(text: str) -> tuple[Any, list[Any], list[str]] | None:
    """A truncated protocol object: keep the reply text and every op that is whole."""
    match = _SALVAGE_START.search(text)
    if match is None:
        return None
    notes = ["body: truncated JSON object; salvaged what was whole"]
    reply: Any = ""
    ops: list[Any] = []
    pos = match.start() + 1
    while True:
        pos = _skip(text, pos)
        if pos >= len(text) or text[pos] != '"':
            break  # the end, a closing brace, or garbage: stop here
        key, pos, complete = _scan_string(text, pos)
        if not complete:
            break
        pos = _skip(text, pos, " \t\r\n")
        if pos >= len(text) or text[pos] != ":":
            break
        pos = _skip(text, pos + 1, " \t\r\n")
        if pos >= len(text):
            break
        if key == "reply" and text[pos] == '"':
            reply, pos, complete = _scan_string(text, pos)
            if not complete:
                notes.append("reply: cut off by the provider; kept what arrived")
                break
        elif key == "ops" and text[pos] == "[":
            pos += 1
            while True:
                pos = _skip(text, pos)
                if pos >= len(text):
                    notes.append("ops: list cut off; kept the whole ops")
                    return reply, ops, notes
                if text[pos] == "]":
                    pos += 1
                    break
                decoded = _decode_at(text, pos)
                if decoded is None:
                    notes.append(f"ops: op {len(ops)} cut off or invalid; it and the rest dropped")
                    return reply, ops, notes
                ops.append(decoded[0])
                pos = decoded[1]
        else:
            decoded = _decode_at(text, pos)
            if decoded is None:
                break
            pos = decoded[1]
    return reply, ops, notes


def _clean_reply(value: Any, limit: int, dropped: list[str]) -> str:
    if value is None:
        value = ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        dropped.append(f"reply: a {type(value).__name__}, not text; dropped")
        return ""
    text = str(value).replace("\r\n", "\n")
    cleaned = _CONTROL.sub("", text)
    if cleaned != text:
        dropped.append("reply: control characters removed")
    cleaned = cleaned.strip()
    if len(cleaned) > limit:
        cut = cleaned[: max(0, limit - 1)]
        space = cut.rfind(" ", int(len(cut) * 0.9))
        cleaned = (cut[:space] if space > 0 else cut).rstrip() + "…"
        dropped.append(f"reply: cut to {limit} chars")
    return cleaned


def _bounded_ops(value: Any, max_ops: int, max_op_chars: int, dropped: list[str]) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        dropped.append(f"ops: a {type(value).__name__}, not a list; all dropped")
        return []
    kept: list[Any] = []
    for index, op in enumerate(value):
        if len(kept) >= max_ops:
            dropped.append(f"ops: {len(value) - index} over the cap of {max_ops} dropped")
            break
        if not isinstance(op, dict):
            dropped.append(f"op {index}: a {type(op).__name__}, not an object; dropped")
            continue
        try:
            size = len(json.dumps(op, ensure_ascii=False))
        except (ValueError, TypeError, RecursionError):
            dropped.append(f"op {index}: not serialisable; dropped")
            continue
        if size > max_op_chars:
            dropped.append(f"op {index}: {size} chars, over the limit of {max_op_chars}; dropped")
            continue
        kept.append(op)
    return kept
