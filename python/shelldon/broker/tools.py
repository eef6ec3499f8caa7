"""Ops as native tool calls: the tool definitions each wire sends, generated from the msgspec
contract (shelldon.contracts.ops), and the way back from a model's tool calls to raw ops.

One tool per op, named by the op's tag (`remember`, `remind`, …). Its JSON Schema is msgspec's
own schema of the op struct (enums for collections and statuses, required fields, the lengths the
contract annotates), less the `op` tag (the tool's name carries it) and with optional fields as
plain types: `anyOf [X, null]` and defaults confuse small models and add nothing (an omitted field
is the default). Nothing here is hand-written but the one-line description each tool gets.

A tool call stays a proposal: `ops_from_calls` turns each call into the raw op mapping the JSON
protocol would have carried, and core decodes and gates it like any other op. A call that cannot
be one (an unknown tool, arguments that are not a JSON object) is dropped here with a reason that
never quotes the arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache
from typing import Any

import msgspec

from shelldon.broker.providers.base import ToolCall
from shelldon.broker.weak_text import loads_arguments
from shelldon.contracts.ops import (
    CaptureLearning,
    Forget,
    LogEpisode,
    Merge,
    OpDecodeError,
    Remember,
    Remind,
    ResolveLearning,
    RewriteAbout,
    RewriteSummary,
    decode_op,
    op_name,
)

log = logging.getLogger(__name__)

# What a model reads about each tool: short, in the prompt's words (the structs' docstrings are
# written for developers and name core's modules).
_DESCRIPTIONS: dict[type[msgspec.Struct], str] = {
    Remember: (
        "Keep one lasting fact in memory: about your owner (facts), the people around them "
        "(people), what they like (preferences) or what you can do (capabilities). `name` is a "
        "short title, `content` one complete sentence."
    ),
    Forget: (
        "Drop one memory entry that is wrong or that the owner asked you to forget "
        "(`name`: the entry's name after the slash). What the owner stated stays."
    ),
    RewriteAbout: "Replace your whole self-summary (about.md).",
    LogEpisode: "Note one thing that happened, dated today.",
    CaptureLearning: (
        "A private observation worth consolidating later; `pattern_key` is a short stable key, "
        "the same each time you notice the same thing."
    ),
    Remind: (
        "Remind the owner later: `in_seconds` from now, or `at` (YYYY-MM-DDTHH:MM, the owner's "
        "local time) with an optional daily or weekly `repeat`."
    ),
    RewriteSummary: "Replace the running summary of the conversation.",
    ResolveLearning: "Mark a pending learning (by its id) promoted or pruned.",
    Merge: (
        "Merge entries of one full collection into one: `sources` are their names, the first "
        "is kept and holds `content`."
    ),
}

TURN_TOOLS: tuple[type[msgspec.Struct], ...] = (
    Remember,
    Forget,
    CaptureLearning,
    Remind,
    LogEpisode,
    RewriteAbout,
)
DREAM_TOOLS: tuple[type[msgspec.Struct], ...] = (
    Remember,
    RewriteAbout,
    ResolveLearning,
    Merge,
    RewriteSummary,
)
TOOL_PURPOSES = ("turn", "checkin", "dream")  # a reflection keeps its own JSON ask (docs/brain.md)


class ToolSpec(msgspec.Struct, frozen=True):
    name: str
    description: str
    parameters: dict[str, Any]


def tools_for(purpose: str) -> tuple[type[msgspec.Struct], ...]:
    """The op structs a request of this purpose may propose as tool calls (none: no tools)."""
    if purpose == "dream":
        return DREAM_TOOLS
    if purpose in ("turn", "checkin"):
        return TURN_TOOLS
    return ()


def _simplify(schema: dict[str, Any]) -> dict[str, Any]:
    """One property's schema without the null alternative and the default."""
    out = {k: v for k, v in schema.items() if k != "default"}
    alternatives = out.get("anyOf")
    if isinstance(alternatives, list):
        kept = [alt for alt in alternatives if alt != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out.update(kept[0])
    return out


@cache
def tool_spec(struct: type[msgspec.Struct]) -> ToolSpec:
    """The tool for one op struct, its parameters generated from the contract."""
    (ref,), components = msgspec.json.schema_components([struct])
    schema = components[ref["$ref"].rsplit("/", 1)[-1]]
    properties = {
        name: _simplify(prop) for name, prop in schema["properties"].items() if name != "op"
    }
    required = [name for name in schema.get("required", []) if name != "op"]
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    tag = struct.__struct_config__.tag
    assert isinstance(tag, str)
    return ToolSpec(tag, _DESCRIPTIONS[struct], parameters)


def specs_for(purpose: str) -> list[ToolSpec]:
    return [tool_spec(struct) for struct in tools_for(purpose)]


def openai_tools(purpose: str) -> list[dict[str, Any]]:
    """The chat-completions `tools` array: `{"type": "function", "function": {...}}` each."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.parameters,
            },
        }
        for spec in specs_for(purpose)
    ]


def anthropic_tools(purpose: str) -> list[dict[str, Any]]:
    """The messages API's `tools` array: `{"name", "description", "input_schema"}` each."""
    return [
        {"name": spec.name, "description": spec.description, "input_schema": spec.parameters}
        for spec in specs_for(purpose)
    ]


class CallResult(msgspec.Struct, frozen=True):
    """One tool call read back: the raw op it proposes (None: dropped) and what the model is told
    about it if it is asked for its words (`outcome`, never quoting the arguments)."""

    op: dict[str, Any] | None
    outcome: str


def read_call(call: ToolCall, index: int, known: frozenset[str]) -> CallResult:
    if call.name not in known:
        # The name is the model's text: not quoted (it reaches the audit log as a parser drop).
        return CallResult(None, f"tool call {index}: no tool of that name; dropped")
    arguments: Any = call.arguments
    if isinstance(arguments, str):
        try:
            arguments, mended = loads_arguments(arguments) if arguments.strip() else ({}, [])
        except (ValueError, RecursionError):
            return CallResult(None, f"tool call {index} ({call.name}): arguments are not JSON")
        if mended:  # logged, not audited as a drop (names only, no text)
            log.info("tool call %d (%s): arguments %s", index, call.name, "; ".join(mended))
    if not isinstance(arguments, dict):
        kind = type(arguments).__name__
        return CallResult(None, f"tool call {index} ({call.name}): arguments are a {kind}")
    raw = {**arguments, "op": call.name}  # the tool's name is the op, whatever the arguments say
    try:
        op = decode_op(raw)
    except OpDecodeError as exc:
        # Still handed to core, which drops it with this reason in the audit log.
        return CallResult(raw, f"tool call {index} ({call.name}): refused: {str(exc)[:160]}")
    return CallResult(raw, f"proposed: core keeps this {op_name(op)} if it passes its checks")


def read_calls(calls: Sequence[ToolCall], purpose: str) -> list[CallResult]:
    known = frozenset(tool_spec(struct).name for struct in tools_for(purpose))
    return [read_call(call, index, known) for index, call in enumerate(calls)]


def ops_from_calls(calls: Sequence[ToolCall], purpose: str) -> tuple[list[Any], list[str]]:
    """The raw ops the calls propose, and the reasons for the calls dropped here."""
    ops: list[Any] = []
    dropped: list[str] = []
    for result in read_calls(calls, purpose):
        if result.op is None:
            dropped.append(result.outcome)
        else:
            ops.append(result.op)
    return ops, dropped
