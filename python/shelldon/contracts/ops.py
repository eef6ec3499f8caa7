"""Memory-ops, learning-ops and reminders: everything a worker may propose, and nothing else.

Markdown ops (MemoryOp) are applied by core.memory.CuratedMemory (a `forget` by its
`forget_proposed`, which refuses an owner entry); learning ops go to the
sqlite learnings table through core.history.store.HistoryStore; a reminder (Remind) goes to core's
reminders table (core.proactive.reminders), which resolves its time and refuses one in the past.
Each op is decoded on its own so one bad op never spoils the others.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Final, Literal, get_args

import msgspec

from shelldon import digests

# The collections a `remember` or `merge` op may target; each is a directory of one-entry files.
CollectionName = Literal["facts", "people", "preferences", "capabilities"]
COLLECTION_NAMES: tuple[CollectionName, ...] = get_args(CollectionName)


class _Op(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="op"):
    pass


class RewriteAbout(_Op, frozen=True, tag="rewrite_about"):
    """Replace about.md, the pet's self-summary."""

    content: Document


# A file an entry depends on (relative to the data root, or a project's root): retrieval weighs
# the entry down once the file changes after the entry was last confirmed (core.retrieval.rank).
DependedPath = Annotated[
    str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
]
MAX_DEPENDS_ON = 8

# Lengths a model is told (in the tool schemas, shelldon.broker.tools) but that decoding does not
# enforce: the gate refuses an over-long entry with a reason the audit log keeps, which a decode
# error would hide. The figures are the gate's defaults (core.gate.model.GateLimits).
Title = Annotated[str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": 120})]
Body = Annotated[str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": 1500})]
Document = Annotated[str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": 4000})]
Line = Annotated[str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": 500})]


class Remember(_Op, frozen=True, tag="remember"):
    """Write one entry, <collection>/<stem of name>.md; `depends_on`: the files it depends on."""

    collection: CollectionName
    name: Title
    content: Body
    depends_on: Annotated[tuple[DependedPath, ...], msgspec.Meta(max_length=MAX_DEPENDS_ON)] = ()


class Forget(_Op, frozen=True, tag="forget"):
    """Delete one entry, <collection>/<name> (`name`: the stem the prompt shows). Core refuses
    it for an entry the owner stated: only the owner forgets what the owner said."""

    collection: CollectionName
    name: Title


class LogEpisode(_Op, frozen=True, tag="log_episode"):
    """Append one dated entry to episodes.md."""

    content: Body
    tags: tuple[str, ...] = ()


class RewriteSummary(_Op, frozen=True, tag="rewrite_summary"):
    """Replace summary.md, the running conversation summary (the dream writes it)."""

    content: Document


class CaptureLearning(_Op, frozen=True, tag="capture_learning"):
    """A private observation for the learnings table; recurrence on pattern_key is the signal."""

    observation: Body
    pattern_key: Title | None = None


class ResolveLearning(_Op, frozen=True, tag="resolve_learning"):
    """Mark a pending learning promoted or pruned (the dream's verdict)."""

    id: int
    status: Literal["promoted", "pruned"]


class Merge(_Op, frozen=True, tag="merge"):
    """Consolidate entries of one collection into one (only a dream may propose it, when the
    collection is full). The merged text replaces `sources[0]`; the other sources are retired,
    so the collection shrinks by len(sources) - 1. Applied by core.dream through the gate."""

    collection: CollectionName
    sources: tuple[str, ...]
    content: Body


RepeatKind = Literal["daily", "weekly"]
# How far ahead a reminder may be (about five years): core refuses a later one
# (core.proactive.reminders), and a brain that sets one says so instead of promising it.
REMIND_MAX_AHEAD_SECONDS: Final = 5 * 366 * 24 * 3600


class Remind(_Op, frozen=True, tag="remind"):
    """Remind the owner of `text` later: either `in_seconds` from now, or at the local time `at`
    ("YYYY-MM-DDTHH:MM") in `zone` (an IANA name; omitted: the owner's zone). `repeat` makes it
    daily or weekly at that local time (weekly on `at`'s weekday); a repeat needs `at`. Core
    resolves it, refuses a time in the past, and fires it whatever the budget
    (core.proactive.reminders)."""

    text: Line
    in_seconds: int | None = None
    at: str | None = None
    zone: str | None = None
    repeat: RepeatKind | None = None


MemoryOp = RewriteAbout | Remember | LogEpisode | RewriteSummary
LearningOp = CaptureLearning | ResolveLearning
Op = (
    RewriteAbout
    | Remember
    | LogEpisode
    | RewriteSummary
    | CaptureLearning
    | ResolveLearning
    | Merge
    | Remind
    | Forget
)

_OP_DECODER: msgspec.json.Decoder[Op] = msgspec.json.Decoder(Op)
_OP_CONVERT_TYPE: Any = Op


class OpDecodeError(ValueError):
    """An op that does not fit the contract. The message says why and names the op by a hash; it
    never echoes the op's text: a made-up value (a password in a bogus collection, an invented op
    name, an unknown field's name) must not reach the audit log."""


OP_NAMES: frozenset[str] = frozenset(
    tag for struct in get_args(Op) if isinstance(tag := struct.__struct_config__.tag, str)
)
# msgspec quotes the offending value ("Invalid enum value 'x' - at `$.collection`") and an
# unknown field's name ("Object contains unknown field `x`"): both are the model's text.
_QUOTED_VALUE = re.compile(r"""(Invalid (?:enum )?value ).*?(?= - at `|$)""")
_UNKNOWN_FIELD = re.compile(r"unknown field `[^`]*`")


def op_digest(raw: object) -> str:
    """The first 12 hex digits of the op's sha256: how a log line names a refused op."""
    if isinstance(raw, bytes):
        data = raw
    elif isinstance(raw, str):
        data = raw.encode("utf-8", "replace")
    else:
        try:
            data = json.dumps(raw, sort_keys=True, ensure_ascii=False, default=repr).encode()
        except (TypeError, ValueError, RecursionError):
            data = repr(type(raw)).encode()
    return digests.sha256_hex(data)[:12]


def safe_reason(message: str) -> str:
    """A decode error's message with every value the model wrote taken out."""
    message = _QUOTED_VALUE.sub(r"\1(not shown)", message)
    return _UNKNOWN_FIELD.sub("an unknown field", message)


def decode_op(raw: bytes | str | dict[str, Any]) -> Op:
    """Decode one op from JSON bytes/str or an already-parsed mapping. Raises OpDecodeError."""
    try:
        if isinstance(raw, dict):
            return msgspec.convert(raw, _OP_CONVERT_TYPE, strict=True)  # type: ignore[no-any-return]
        return _OP_DECODER.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        reason = safe_reason(str(exc))
        raise OpDecodeError(f"{reason} (op sha256 {op_digest(raw)})") from None
    except (TypeError, ValueError, RecursionError) as exc:  # hostile shapes msgspec rejects late
        raise OpDecodeError(f"undecodable op: {type(exc).__name__}") from None


def decode_ops(raws: list[Any]) -> tuple[list[Op], list[tuple[int, str]]]:
    """Decode each op on its own. Returns (valid ops, [(index, reason)] for the dropped ones)."""
    ops: list[Op] = []
    dropped: list[tuple[int, str]] = []
    for index, raw in enumerate(raws):
        try:
            ops.append(decode_op(raw))
        except OpDecodeError as exc:
            dropped.append((index, str(exc)))
    return ops, dropped


def encode_op(op: Op) -> bytes:
    return msgspec.json.encode(op)


def op_name(op: object) -> str:
    """An op's name as the wire spells it (its msgspec tag: "remember", "merge"); anything that is
    not an op (a caller's mistake, audited as such) by its type's name."""
    tag = getattr(getattr(type(op), "__struct_config__", None), "tag", None)
    return tag if isinstance(tag, str) else type(op).__name__
