"""Streamed answers (shelldon.broker.providers.streams, http.py's event reading): both wires ask
to stream, the fake answers in each wire's documented event format over real HTTP, and a call
the turn gives up on is closed, so the server sees the client leave before the next request
arrives (what lets llama.cpp free its slot); the words that arrived before the deadline are kept."""

from __future__ import annotations

import json
import time

import pytest

from fakes.fake_provider import FakeProvider, call, reply, status, stream_hold, tool_calls
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.providers.base import ProviderError
from shelldon.broker.providers.http import SseEvent
from shelldon.broker.providers.streams import anthropic_answer, openai_answer
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support.providers import http_provider

REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection("system", "You are shelldon."),
        PromptSection("message", "# The owner says\ntell me a long story"),
    ),
)
WIRES = ["openai", "anthropic"]
ANA = {"collection": "people", "title": "Ana", "body": "The owner's sister."}
# Past the first streamed words even on a loaded box; the rest never comes before it.
DEADLINE_S = 2.0


@pytest.mark.parametrize("kind", WIRES)
def test_both_wires_ask_to_stream_and_read_the_events(fake: FakeProvider, kind: str) -> None:
    fake.script(reply("Once upon a time there was a small pet.", usage=(40, 12)))
    raw = http_provider(fake, kind).complete(REQUEST)
    sent = fake.requests[0].json
    assert sent["stream"] is True
    if kind == "openai":
        assert sent["stream_options"] == {"include_usage": True}
    assert "text/event-stream" in fake.requests[0].headers["accept"]
    assert '"Once upon a time there was a small pet."' in raw.text  # the JSON envelope, whole
    assert raw.usage is not None and (raw.usage.prompt_tokens, raw.usage.completion_tokens) == (
        40,
        12,
    )
    assert not raw.cut


@pytest.mark.parametrize("kind", WIRES)
def test_streamed_tool_calls_are_put_back_together(fake: FakeProvider, kind: str) -> None:
    fake.script(
        tool_calls(
            call(
                "remember", {"collection": "people", "title": "Ana", "body": "The owner's sister."}
            ),
            call("remind", {"text": "call Ana", "due": "2026-12-03T09:00:00Z"}),
            text="Noted!",
        )
    )
    raw = http_provider(fake, kind).complete(REQUEST)
    assert raw.text == "Noted!"
    assert [c.name for c in raw.tool_calls] == ["remember", "remind"]
    arguments = raw.tool_calls[0].arguments
    parsed = arguments if isinstance(arguments, dict) else json.loads(arguments)
    assert parsed == ANA
    assert len({c.id for c in raw.tool_calls}) == 2


@pytest.mark.parametrize("kind", WIRES)
def test_a_call_past_its_deadline_is_closed_before_the_next_request(
    fake: FakeProvider, kind: str
) -> None:
    fake.script(stream_hold("Once upon a time, a pet. It went on and on"), reply("Hi again."))
    provider = http_provider(fake, kind, protocol="plain")
    raw = provider.complete(REQUEST, deadline=time.monotonic() + DEADLINE_S)
    # The first words arrived; the deadline cut the rest, as a token budget would have.
    assert (
        raw.cut and raw.text and "Once upon a time, a pet. It went on and on".startswith(raw.text)
    )
    # The client left (the server's recv saw EOF) before anyone asked for the next turn ...
    assert fake.wait_closed(0, timeout=20)
    provider.complete(REQUEST)
    # ... so the next request finds the server free, not queued behind a generation nobody reads.
    assert fake.seen == [("request", 0), ("streaming", 0), ("closed", 0), ("request", 1)]


def test_the_deadline_keeps_the_whole_sentences_that_arrived(fake: FakeProvider) -> None:
    fake.script(stream_hold("Sure. Once upon"))  # the first piece: "Sure. O"
    chain = ProviderChain([http_provider(fake, "openai", protocol="plain"), OfflineBrain()])
    answer = chain.complete(REQUEST, deadline=time.monotonic() + DEADLINE_S)
    assert fake.wait_closed(0, timeout=20)
    assert (answer.provider, answer.text) == ("fake-openai", "Sure.")


def _events(*pairs: tuple[str, str]) -> list[SseEvent]:
    return [SseEvent(name, data) for name, data in pairs]


def test_a_stream_that_fails_midway_is_a_provider_error() -> None:
    overloaded = _events(
        ("message_start", '{"type": "message_start", "message": {"usage": {"input_tokens": 3}}}'),
        ("error", '{"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}'),
    )
    with pytest.raises(ProviderError) as caught:
        anthropic_answer(overloaded, True)
    assert caught.value.kind == "server"  # like a 529: worth another attempt
    with pytest.raises(ProviderError) as caught:
        openai_answer(_events(("", '{"error": {"message": "bad", "type": "invalid"}}')), True)
    assert caught.value.kind == "malformed"
    with pytest.raises(ProviderError):
        openai_answer(_events(("", "not json")), True)


def test_broken_streamed_arguments_stay_broken_for_the_tool_reader() -> None:
    answer = anthropic_answer(
        _events(
            (
                "content_block_start",
                '{"type": "content_block_start", "index": 0, "content_block":'
                ' {"type": "tool_use", "id": "toolu_1", "name": "remember", "input": {}}}',
            ),
            (
                "content_block_delta",
                '{"type": "content_block_delta", "index": 0, "delta":'
                ' {"type": "input_json_delta", "partial_json": "{\\"title\\": \\"An"}}',
            ),
        ),
        False,  # the deadline cut it mid-arguments
    )
    assert answer["content"][0]["input"] == '{"title": "An'
    assert answer["stop_reason"] == "max_tokens"


@pytest.mark.parametrize("kind", WIRES)
def test_a_server_that_refuses_to_stream_is_asked_unstreamed(fake: FakeProvider, kind: str) -> None:
    fake.script(
        status(400, message="Unrecognized request argument supplied: stream_options"),
        reply("Hello!"),
        reply("Hello again!"),
    )
    provider = http_provider(fake, kind, protocol="plain")
    assert "Hello!" in provider.complete(REQUEST).text
    assert "Hello again!" in provider.complete(REQUEST).text
    sent = [r.json for r in fake.requests]
    assert [s["stream"] for s in sent] == [True, False, False]
    assert all("stream_options" not in s for s in sent[1:])


def test_another_client_error_is_not_taken_for_a_refused_stream(fake: FakeProvider) -> None:
    fake.script(status(400, message="model not found"))
    with pytest.raises(ProviderError) as caught:
        http_provider(fake, "openai").complete(REQUEST)
    assert caught.value.status == 400
    assert len(fake.requests) == 1
