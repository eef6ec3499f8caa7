"""Whatever a provider's server puts at any place of its answer, each wire reads it or refuses it
as `ProviderError("malformed")`: never another exception (which the chain logs as a provider bug,
with a traceback). Every value of a well-formed answer, and of each streamed event, is replaced
in turn by each value of another JSON type."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from shelldon.broker.providers import make_provider
from shelldon.broker.providers.base import ProviderError, RawCompletion
from shelldon.broker.providers.http import SseEvent
from shelldon.contracts.config import ProviderConfig
from support.json_variants import variants

OPENAI_ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": [{"type": "text", "text": "Hi."}],
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "recall", "arguments": '{"query": "tea"}'},
                    }
                ],
            },
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 3},
}
ANTHROPIC_ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Hi."},
        {"type": "tool_use", "id": "toolu_1", "name": "recall", "input": {"query": "tea"}},
    ],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 10, "output_tokens": 3},
}
OPENAI_EVENTS = [
    {"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]},
    {
        "id": "c",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "function": {"name": "recall", "arguments": ""},
                        }
                    ]
                },
            }
        ],
    },
    {
        "choices": [
            {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}}
        ]
    },
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    {"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 3}},
]
ANTHROPIC_EVENTS = [
    ("message_start", {"type": "message_start", "message": {"usage": {"input_tokens": 10}}}),
    (
        "content_block_start",
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ),
    (
        "content_block_delta",
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    ),
    (
        "content_block_start",
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "recall", "input": {}},
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": "tea"}'},
        },
    ),
    (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 3},
        },
    ),
]


def _provider(kind: str) -> Any:
    spec = {"name": kind, "kind": kind, "base_url": "http://127.0.0.1:9/v1", "model": "m"}
    return make_provider(msgspec.convert(spec, ProviderConfig), lambda name: None)


def _read_or_refuse(read: Any) -> None:
    try:
        completion = read()
    except ProviderError as error:
        assert error.kind == "malformed", error
        return
    assert isinstance(completion, RawCompletion)
    assert isinstance(completion.text, str)
    for call in completion.tool_calls:
        assert isinstance(call.name, str) and isinstance(call.arguments, str | dict)


@pytest.mark.parametrize(
    ("kind", "answer"), [("openai", OPENAI_ANSWER), ("anthropic", ANTHROPIC_ANSWER)]
)
def test_any_value_anywhere_in_an_answer_is_read_or_refused(kind: str, answer: Any) -> None:
    provider = _provider(kind)
    _read_or_refuse(lambda: provider.parse(answer))  # the answer itself reads
    assert provider.parse(answer).text.startswith("Hi")
    tried = 0
    for variant in variants(answer):
        _read_or_refuse(lambda variant=variant: provider.parse(variant))
        tried += 1
    assert tried > 200


def _event_variants(events: list[tuple[str, Any]]) -> Iterator[list[tuple[str, Any]]]:
    for n, (name, data) in enumerate(events):
        for variant in variants(data):
            yield [*events[:n], (name, variant), *events[n + 1 :]]


@pytest.mark.parametrize(
    ("kind", "events"),
    [
        ("openai", [("", data) for data in OPENAI_EVENTS]),
        ("anthropic", ANTHROPIC_EVENTS),
    ],
)
def test_any_value_anywhere_in_a_stream_is_read_or_refused(
    kind: str, events: list[tuple[str, Any]]
) -> None:
    provider = _provider(kind)

    def read(stream: list[tuple[str, Any]], complete: bool) -> RawCompletion:
        sse = [SseEvent(name, json.dumps(data)) for name, data in stream]
        return provider.parse(provider.assemble_stream(sse, complete))

    assert read(events, True).text.startswith("Hi")
    tried = 0
    for variant in _event_variants(events):
        for complete in (True, False):
            _read_or_refuse(lambda variant=variant, complete=complete: read(variant, complete))
            tried += 1
    assert tried > 400
