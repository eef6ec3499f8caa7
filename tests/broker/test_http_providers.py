"""The OpenAI and Anthropic providers against a real HTTP server on 127.0.0.1 (tests/fakes).

Each path the chain must handle goes through real sockets: a good answer in both wire formats,
a slow answer (timeout), 429 + Retry-After, 500, malformed JSON, a truncated body, a truncated
reply object, hostile ops, a bad key, a refused connection, and the key's whereabouts.
"""

from __future__ import annotations

import json
import logging
import socket
import time

import msgspec
import pytest

from fakes.fake_provider import (
    FAKE_KEY,
    HOSTILE_OPS,
    FakeProvider,
    body,
    echo,
    hostile,
    malformed,
    raw,
    reply,
    slow,
    status,
    truncated,
)
from shelldon.broker.chain import ChainExhausted, ProviderChain
from shelldon.broker.protocol import REPLY_FORMAT_INSTRUCTION
from shelldon.broker.providers import make_provider
from shelldon.broker.providers.base import Provider, ProviderError
from shelldon.broker.server import build_chain
from shelldon.config import ConfigError, parse_config
from shelldon.contracts.brain import CompletionRequest, PromptSection, Usage
from shelldon.contracts.config import ProviderConfig
from shelldon.contracts.ops import decode_ops

REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection(kind="system", text="You are shelldon."),
        PromptSection(kind="about", text="I am a pet."),
        PromptSection(kind="message", text="my sister is called Ana"),
    ),
)
WIRES = ["openai", "anthropic"]


def spec(fake: FakeProvider, kind: str, **overrides: object) -> ProviderConfig:
    base = {
        "name": f"fake-{kind}",
        "kind": kind,
        "base_url": fake.openai_base_url if kind == "openai" else fake.anthropic_base_url,
        "model": "fake-model",
        "key": "fake_key",
        "timeout": 5.0,
        "retries": 0,
        "response_format": "json_object" if kind == "openai" else "none",
    }
    base.update(overrides)
    return msgspec.convert(base, ProviderConfig)


def provider(fake: FakeProvider, kind: str, **overrides: object) -> Provider:
    return make_provider(spec(fake, kind, **overrides), lambda name: FAKE_KEY)


class NoSleep:
    def __init__(self) -> None:
        self.slept: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)


@pytest.mark.parametrize("kind", WIRES)
def test_a_good_answer_in_each_wire_format(fake: FakeProvider, kind: str) -> None:
    ops = [{"op": "remember", "collection": "people", "name": "ana", "content": "Sister: Ana."}]
    fake.script(reply("Nice to meet Ana!", ops=ops, usage=(120, 30)))
    result = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert result.text == "Nice to meet Ana!"
    assert result.ops == tuple(ops)
    assert result.usage == Usage(prompt_tokens=120, completion_tokens=30)
    assert result.provider == f"fake-{kind}"
    (sent,) = fake.requests
    assert sent.wire == kind
    assert sent.user_text() == "my sister is called Ana"
    assert sent.system_text().startswith("You are shelldon.\n\nI am a pet.")
    assert REPLY_FORMAT_INSTRUCTION in sent.system_text()
    assert sent.json["model"] == "fake-model"


def test_openai_asks_for_the_configured_json_mode(fake: FakeProvider) -> None:
    for mode, expected in [("json_schema", "json_schema"), ("json_object", "json_object")]:
        ProviderChain([provider(fake, "openai", response_format=mode)]).complete(REQUEST)
        assert fake.requests[-1].json["response_format"]["type"] == expected
    ProviderChain([provider(fake, "openai", response_format="none")]).complete(REQUEST)
    assert "response_format" not in fake.requests[-1].json
    schema = fake.requests[0].json["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["reply", "ops"]


@pytest.mark.parametrize("kind", WIRES)
def test_a_dream_gets_its_own_token_budget_and_its_directive_as_the_message(
    fake: FakeProvider, kind: str
) -> None:
    dream = CompletionRequest(
        purpose="dream",
        sections=(
            PromptSection(kind="system", text="You are shelldon."),
            PromptSection(kind="dream", text="# Dream: consolidate\n1. likes tea"),
        ),
    )
    fake.script(reply("", ops=[{"op": "rewrite_summary", "content": "We talked."}]))
    result = ProviderChain([provider(fake, kind, max_tokens=100, dream_max_tokens=3000)]).complete(
        dream
    )
    assert result.ops == ({"op": "rewrite_summary", "content": "We talked."},)
    assert fake.requests[0].json["max_tokens"] == 3000
    assert fake.requests[0].user_text().startswith("# Dream: consolidate")


def test_openai_token_field_is_configurable(fake: FakeProvider) -> None:
    ProviderChain([provider(fake, "openai", max_tokens_field="max_completion_tokens")]).complete(
        REQUEST
    )
    sent = fake.requests[0].json
    assert sent["max_completion_tokens"] == 1024 and "max_tokens" not in sent


def test_a_pasted_key_with_a_line_break_is_refused_at_start_up(fake: FakeProvider) -> None:
    with pytest.raises(ConfigError) as caught:
        make_provider(spec(fake, "openai"), lambda name: "sk-abc\r\nX-Evil: 1")
    assert "does not look like an API key" in str(caught.value)
    assert "sk-abc" not in str(caught.value)


def test_anthropic_keeps_only_text_blocks(fake: FakeProvider) -> None:
    answer = {"reply": "Hi", "ops": []}
    fake.script(
        body(
            {
                "content": [
                    {"type": "thinking", "thinking": '{"reply": "draft"}'},
                    {"type": "text", "text": json.dumps(answer)[:10]},
                    {"type": "text", "text": json.dumps(answer)[10:]},
                ],
                "usage": {"input_tokens": 5, "output_tokens": True},
            }
        ),
        body({"content": [{"type": "thinking", "thinking": "only thoughts"}]}),
    )
    result = ProviderChain([provider(fake, "anthropic")]).complete(REQUEST)
    assert result.text == "Hi"
    assert result.usage == Usage(prompt_tokens=5, completion_tokens=None)  # a bool is no count
    with pytest.raises(ProviderError) as caught:
        provider(fake, "anthropic").complete(REQUEST)
    assert caught.value.message == "the answer has no text block"


def test_openai_content_parts_refusals_and_missing_choices(fake: FakeProvider) -> None:
    parts = [{"type": "text", "text": '{"reply": "from '}, {"type": "text", "text": 'parts"}'}]
    fake.script(
        body({"choices": [{"message": {"role": "assistant", "content": parts}}]}),
        body({"choices": [{"message": {"content": None, "refusal": "I can't help with that."}}]}),
        body({"choices": []}),
        body({"error": {"message": "overloaded"}}),
    )
    openai = provider(fake, "openai")
    assert ProviderChain([openai]).complete(REQUEST).text == "from parts"
    for expected in ("a refusal", "no choices[0].message", "no choices[0].message"):
        with pytest.raises(ProviderError) as caught:
            openai.complete(REQUEST)
        assert caught.value.kind == "malformed" and expected in caught.value.message


def test_anthropic_sends_its_version_header(fake: FakeProvider) -> None:
    ProviderChain([provider(fake, "anthropic")]).complete(REQUEST)
    assert fake.requests[0].headers["anthropic-version"] == "2023-06-01"
    assert fake.requests[0].json["system"].startswith("You are shelldon.")


@pytest.mark.parametrize("kind", WIRES)
def test_the_key_is_in_the_auth_header_and_nowhere_else(
    fake: FakeProvider, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake.script(status(500), reply("fine"))
    the_chain = ProviderChain([provider(fake, kind, retries=1, backoff=0.0)], sleep=NoSleep())
    the_chain.complete(REQUEST)
    header = "authorization" if kind == "openai" else "x-api-key"
    for sent in fake.requests:
        expected = f"Bearer {FAKE_KEY}" if kind == "openai" else FAKE_KEY
        assert sent.headers[header] == expected
        others = {k: v for k, v in sent.headers.items() if k != header}
        assert FAKE_KEY not in json.dumps(others)
        assert FAKE_KEY.encode() not in sent.body
        assert FAKE_KEY not in sent.path
    assert FAKE_KEY not in caplog.text
    assert FAKE_KEY not in repr(the_chain)


@pytest.mark.parametrize("kind", WIRES)
def test_a_bad_key_is_a_client_error_without_retry_or_key(fake: FakeProvider, kind: str) -> None:
    wrong = make_provider(spec(fake, kind, retries=3), lambda name: "sk-wrong-key-000000000")
    sleep = NoSleep()
    with pytest.raises(ChainExhausted) as caught:
        ProviderChain([wrong], sleep=sleep).complete(REQUEST)
    (attempt,) = caught.value.attempts
    assert attempt.kind == "client"
    assert "HTTP 401" in attempt.message
    assert "sk-wrong" not in str(caught.value)
    assert sleep.slept == [] and len(fake.requests) == 1


def test_a_slow_answer_times_out_and_the_next_provider_answers(fake: FakeProvider) -> None:
    fake.script(slow(30))
    quick = provider(fake, "openai", timeout=0.3)
    backup = provider(fake, "anthropic")
    result = ProviderChain([quick, backup]).complete(REQUEST)
    assert result.provider == "fake-anthropic"
    with pytest.raises(ProviderError) as caught:
        fake.script(slow(30))
        quick.complete(REQUEST)
    assert caught.value.kind == "timeout"


@pytest.mark.parametrize("kind", WIRES)
def test_429_honours_retry_after_then_succeeds(fake: FakeProvider, kind: str) -> None:
    fake.script(status(429, retry_after=3), reply("after the wait"))
    sleep = NoSleep()
    chain = ProviderChain([provider(fake, kind, retries=2)], sleep=sleep)
    assert chain.complete(REQUEST).text == "after the wait"
    assert sleep.slept == [3.0]


def test_a_retry_after_date_is_understood(fake: FakeProvider) -> None:
    fake.script(status(429, retry_after="Wed, 21 Oct 2015 07:28:00 GMT"), reply("ok"))
    sleep = NoSleep()
    ProviderChain([provider(fake, "openai", retries=1)], sleep=sleep).complete(REQUEST)
    assert sleep.slept == [0.0]  # a date in the past: retry at once


def test_a_long_retry_after_moves_on_without_waiting(fake: FakeProvider) -> None:
    fake.script(status(429, retry_after=3600), reply("from the backup"))
    sleep = NoSleep()
    chain = ProviderChain(
        [provider(fake, "openai", retries=3), provider(fake, "anthropic")], sleep=sleep
    )
    assert chain.complete(REQUEST).provider == "fake-anthropic"
    assert sleep.slept == []


@pytest.mark.parametrize("code", [500, 502, 503, 529])
def test_5xx_is_retried_then_falls_back(fake: FakeProvider, code: int) -> None:
    fake.script(status(code), status(code), reply("backup"))
    sleep = NoSleep()
    chain = ProviderChain(
        [provider(fake, "openai", retries=1, backoff=0.25), provider(fake, "anthropic")],
        sleep=sleep,
    )
    result = chain.complete(REQUEST)
    assert result.provider == "fake-anthropic"
    assert len(sleep.slept) == 1 and 0 < sleep.slept[0] <= 0.25
    assert [r.wire for r in fake.requests] == ["openai", "openai", "anthropic"]


@pytest.mark.parametrize("kind", WIRES)
def test_a_malformed_body_falls_back_without_retry(fake: FakeProvider, kind: str) -> None:
    fake.script(malformed(), reply("backup"))
    with pytest.raises(ProviderError) as caught:
        provider(fake, kind, retries=2).complete(REQUEST)
    assert caught.value.kind == "malformed"
    fake.script(malformed(), reply("backup"))
    result = ProviderChain([provider(fake, kind, retries=2), provider(fake, "openai")]).complete(
        REQUEST
    )
    assert result.text == "backup"


@pytest.mark.parametrize("kind", WIRES)
def test_a_truncated_body_is_malformed(fake: FakeProvider, kind: str) -> None:
    fake.script(truncated())
    with pytest.raises(ProviderError) as caught:
        provider(fake, kind).complete(REQUEST)
    assert caught.value.kind == "malformed"
    assert "cut short" in caught.value.message


def test_an_oversized_body_is_refused(fake: FakeProvider) -> None:
    fake.script(reply("x" * 5000))
    with pytest.raises(ProviderError) as caught:
        provider(fake, "openai", max_response_bytes=2048).complete(REQUEST)
    assert caught.value.kind == "malformed"


@pytest.mark.parametrize("kind", WIRES)
def test_a_reply_object_cut_off_by_the_model_is_salvaged(fake: FakeProvider, kind: str) -> None:
    whole = json.dumps(
        {"reply": "Noted, Ana is your sister.", "ops": [{"op": "log_episode", "content": "A"}] * 2}
    )
    fake.script(raw(whole[: whole.rindex('"content"')]))
    result = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert result.text == "Noted, Ana is your sister."
    assert result.ops == ({"op": "log_episode", "content": "A"},)
    assert result.dropped


def test_fenced_json_with_prose_from_a_real_answer(fake: FakeProvider) -> None:
    fake.script(raw('Here:\n```json\n{"reply": "Hello", "ops": []}\n```'))
    assert ProviderChain([provider(fake, "anthropic")]).complete(REQUEST).text == "Hello"


@pytest.mark.parametrize("kind", WIRES)
def test_hostile_ops_arrive_raw_and_the_reply_still_goes_out(fake: FakeProvider, kind: str) -> None:
    fake.script(hostile("Sure, done!"))
    result = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert result.text == "Sure, done!"
    # The parser drops the oversized rewrite (op 6) and passes the rest on raw, for core.
    assert any(reason.startswith("op 6:") for reason in result.dropped)
    assert list(result.ops) == HOSTILE_OPS[:6] + HOSTILE_OPS[7:]
    decoded, refused = decode_ops(list(result.ops))
    # The contract refuses the shapes it can see: a collection outside the four, an unknown op,
    # an extra field claiming owner provenance, a non-integer id. Names, secrets and instructions
    # decode and are the gate's to refuse (core).
    assert [index for index, _ in refused] == [0, 6, 7, 8]
    assert len(decoded) == 5


def test_connection_refused_falls_back(fake: FakeProvider) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead_port = sock.getsockname()[1]
    dead = provider(fake, "openai", base_url=f"http://127.0.0.1:{dead_port}/v1", retries=1)
    sleep = NoSleep()
    result = ProviderChain([dead, provider(fake, "anthropic")], sleep=sleep).complete(REQUEST)
    assert result.provider == "fake-anthropic"
    assert len(sleep.slept) == 1
    with pytest.raises(ProviderError) as caught:
        dead.complete(REQUEST)
    assert caught.value.kind == "connect"


def test_the_whole_chain_failing_is_exhausted_with_each_reason(fake: FakeProvider) -> None:
    fake.script(status(503), malformed())
    chain = ProviderChain([provider(fake, "openai"), provider(fake, "anthropic")])
    with pytest.raises(ChainExhausted) as caught:
        chain.complete(REQUEST)
    assert [(a.provider, a.kind) for a in caught.value.attempts] == [
        ("fake-openai", "server"),
        ("fake-anthropic", "malformed"),
    ]


def test_build_chain_from_toml_talks_to_the_fake(fake: FakeProvider) -> None:
    config = parse_config(
        fake.provider_table(name="primary", model="m", key="fake_key", retries=0)
        + "\n"
        + fake.provider_table(name="secondary", kind="anthropic", model="m", key="fake_key")
    )
    fake.script(status(400), echo())
    chain = build_chain(config, read_secret=lambda name: FAKE_KEY if name == "fake_key" else None)
    result = chain.complete(REQUEST)
    assert (result.provider, result.text) == ("secondary", "echo: my sister is called Ana")


def test_an_error_echoing_the_key_is_scrubbed(fake: FakeProvider) -> None:
    fake.script(status(401, message=f"Incorrect API key provided: {FAKE_KEY}"))
    with pytest.raises(ProviderError) as caught:
        provider(fake, "openai").complete(REQUEST)
    assert FAKE_KEY not in str(caught.value)
    assert "Incorrect API key provided" in str(caught.value)


def test_the_turn_deadline_bounds_a_slow_provider(fake: FakeProvider) -> None:
    fake.script(slow(30))
    patient = provider(fake, "openai", timeout=60.0, retries=3)
    chain = ProviderChain([patient], sleep=NoSleep())
    with pytest.raises(ChainExhausted) as caught:
        chain.complete(REQUEST, deadline=time.monotonic() + 0.3)
    (attempt,) = caught.value.attempts  # no retry: its pause would pass the deadline
    assert attempt.kind == "timeout"
    assert "no answer within 0.3s" in attempt.message


def test_no_call_once_the_deadline_has_passed(fake: FakeProvider) -> None:
    chain = ProviderChain([provider(fake, "openai")])
    with pytest.raises(ChainExhausted) as caught:
        chain.complete(REQUEST, deadline=time.monotonic() - 1)
    assert caught.value.attempts[0].message == "no time left in the turn"
    assert fake.requests == []
