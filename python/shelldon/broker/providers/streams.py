"""A streamed answer folded back into the answer the same request would get unstreamed, so each
wire's `parse` reads one shape whichever way the server sent it.

Why the providers stream (`"stream": true`): a call the turn gives up on is closed, and a server
that streams notices the closed connection at its next token and stops generating; llama.cpp then
frees the slot, so the next turn is not queued behind an abandoned one (docs/brain.md). The
deadline also cuts a long generation between two tokens, and the words that arrived are kept
(marked cut by the token budget, so the reply check keeps only whole sentences).

- OpenAI chat completions: `data:` chunks of `chat.completion.chunk`, `choices[0].delta` carrying
  `content` pieces and `tool_calls` pieces (by `index`: the first piece has `id` and
  `function.name`, every piece a slice of `function.arguments`; a server that omits `index`, or
  repeats one index for several calls, is read by the pieces' ids and names), `finish_reason` on
  the last
  chunk, `usage` on a final chunk with no choices (`stream_options.include_usage`), then
  `data: [DONE]`. A chunk with `error` is the server failing mid-stream.
- Anthropic messages: `message_start` (the message, with its input usage), per block
  `content_block_start` (a `text` block or a `tool_use` block with `id` and `name`),
  `content_block_delta` (`text_delta.text` or `input_json_delta.partial_json`),
  `content_block_stop`, then `message_delta` (`stop_reason`, output usage) and `message_stop`;
  `ping` anywhere; `error` (e.g. `overloaded_error`) when it fails mid-stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shelldon.broker.providers.base import ErrorKind, ProviderError
from shelldon.broker.providers.http import SseEvent
from shelldon.contracts.json_in import loads_mended

# Mid-stream errors worth another attempt (as their HTTP statuses would be: 5xx, 529).
_RETRYABLE_ERRORS = frozenset({"overloaded_error", "api_error", "server_error"})


def _json(event: SseEvent) -> Any:
    try:
        return loads_mended(event.data)
    except (ValueError, RecursionError):
        raise ProviderError("malformed", "a streamed event is not JSON") from None


def _index(value: Any, otherwise: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else otherwise


def _starts_call(piece: dict[str, Any], call: dict[str, Any]) -> bool:
    """Does `piece` open a call other than `call`: a new id, or a name where one was given?"""
    new_id = piece.get("id")
    if isinstance(new_id, str) and new_id and call["id"] and new_id != call["id"]:
        return True
    function = piece.get("function")
    name = function.get("name") if isinstance(function, dict) else None
    return bool(isinstance(name, str) and name and call["function"]["name"] and not new_id)


def _call_index(piece: dict[str, Any], calls: dict[int, dict[str, Any]]) -> int:
    """Which call a tool-call piece belongs to. By its `index`, as the wire says; a server that
    sends none (or the same index for every call) is read by what the piece carries: a new id or
    a name opens the next call, anything else continues the last one."""
    given = piece.get("index")
    if isinstance(given, int) and not isinstance(given, bool):
        if given in calls and _starts_call(piece, calls[given]):
            return max(calls) + 1
        return given
    if not calls:
        return 0
    last = max(calls)
    return last + 1 if _starts_call(piece, calls[last]) else last


def _failed(error: Any) -> ProviderError:
    kind_name = error.get("type") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    kind: ErrorKind = "server" if kind_name in _RETRYABLE_ERRORS else "malformed"
    detail = " ".join(str(message or kind_name or "error").split())[:160]
    return ProviderError(kind, f"the stream failed: {detail}")


def openai_answer(events: Sequence[SseEvent], complete: bool) -> dict[str, Any]:
    """The chat.completion the chunks add up to."""
    content: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish: Any = None
    usage: Any = None
    named: dict[str, Any] = {}  # the answer's id, model and creation time, from its chunks
    for event in events:
        chunk = _json(event)
        if not isinstance(chunk, dict):
            continue
        if chunk.get("error"):
            raise _failed(chunk["error"])
        named.update({k: chunk[k] for k in ("id", "model", "created") if k in chunk})
        if isinstance(chunk.get("usage"), dict):
            usage = chunk["usage"]
        choices = chunk.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            continue
        choice = choices[0]
        finish = choice.get("finish_reason") or finish
        delta = choice.get("delta")
        if not isinstance(delta, dict):
            continue
        if isinstance(delta.get("content"), str):
            content.append(delta["content"])
        pieces = delta.get("tool_calls")
        for piece in pieces if isinstance(pieces, list) else ():
            if not isinstance(piece, dict):
                continue
            index = _call_index(piece, calls)
            call = calls.setdefault(
                index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}}
            )
            if isinstance(piece.get("id"), str):
                call["id"] = piece["id"]
            function = piece.get("function")
            if isinstance(function, dict):
                name = function.get("name")
                if isinstance(name, str) and name != call["function"]["name"]:
                    call["function"]["name"] += name  # a name said again in each piece: once
                if isinstance(function.get("arguments"), str):
                    call["function"]["arguments"] += function["arguments"]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    elif message["content"] is None:
        message["content"] = ""
    if not complete:
        finish = "length"  # the deadline cut it: as if the token budget had
    return {
        **named,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage,
    }


def anthropic_answer(events: Sequence[SseEvent], complete: bool) -> dict[str, Any]:
    """The message the events add up to."""
    blocks: dict[int, dict[str, Any]] = {}
    partial_json: dict[int, list[str]] = {}
    usage: dict[str, Any] = {}
    stop_reason: Any = None
    for event in events:
        if event.event == "ping":
            continue
        data = _json(event)
        if not isinstance(data, dict):
            continue
        kind = data.get("type") or event.event
        if kind == "error":
            raise _failed(data.get("error"))
        if kind == "message_start" and isinstance(data.get("message"), dict):
            started = data["message"].get("usage")
            usage.update(started if isinstance(started, dict) else {})
        elif kind == "content_block_start" and isinstance(data.get("content_block"), dict):
            index = _index(data.get("index"), len(blocks))
            blocks[index] = dict(data["content_block"])
        elif kind == "content_block_delta" and isinstance(data.get("delta"), dict):
            index = _index(data.get("index"), len(blocks) - 1)
            block = blocks.setdefault(index, {"type": "text", "text": ""})
            delta = data["delta"]
            if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
                block["text"] = str(block.get("text") or "") + delta["text"]
            elif delta.get("type") == "input_json_delta":
                partial_json.setdefault(index, []).append(str(delta.get("partial_json") or ""))
        elif kind == "message_delta":
            delta = data.get("delta")
            if isinstance(delta, dict):
                stop_reason = delta.get("stop_reason") or stop_reason
            if isinstance(data.get("usage"), dict):
                usage.update(data["usage"])
    for index, pieces in partial_json.items():
        text = "".join(pieces)
        try:
            blocks[index]["input"] = loads_mended(text) if text.strip() else {}
        except (ValueError, RecursionError):
            blocks[index]["input"] = text  # broken arguments: dropped later, with a reason
    if not complete:
        stop_reason = "max_tokens"
    return {
        "type": "message",
        "role": "assistant",
        "content": [blocks[index] for index in sorted(blocks)],
        "stop_reason": stop_reason,
        "usage": usage,
    }
