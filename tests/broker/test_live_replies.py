"""A real model's replies, replayed: each answer SmolLM2-135M gave in the live run
(tests/fixtures/live_model/smollm2-135m.json, recorded by `just live-model` with the message it
answered) is served again by the fake over real HTTP, with the offline brain behind it. Whatever the
model said, what the chain hands on is words: nothing raw, and the model's own text only when it
passes the reply check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fakes.fake_provider import FakeProvider, body
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.prompt_talk import sentences
from shelldon.broker.reply_check import unusable_reason
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support.providers import http_provider

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "live_model" / "smollm2-135m.json"


def _records() -> list[dict[str, Any]]:
    if not FIXTURE.exists():
        return []
    return [
        r
        for r in json.loads(FIXTURE.read_text())
        if r["answer"] and r["answer"].get("choices") and not r["words_request"]
    ]


RECORDS = _records()


def test_the_fixture_is_a_real_run() -> None:
    if not RECORDS:
        pytest.skip("no recorded live run: `just live-model` records one")
    assert len(RECORDS) >= 20
    assert all(r["answer"]["model"] for r in RECORDS)  # as the server named it, not invented


@pytest.mark.parametrize("record", RECORDS, ids=[f"reply{i}" for i in range(len(RECORDS))])
def test_a_recorded_reply_never_reaches_the_owner_raw(
    fake: FakeProvider, record: dict[str, Any]
) -> None:
    message = record["answered"]
    request = CompletionRequest(
        purpose="turn",
        sections=(
            PromptSection("system", "You are shelldon."),
            PromptSection("message", message if message.startswith("#") else f"# {message}"),
        ),
    )
    fake.script(body(record["answer"]), body(record["answer"]))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(request)
    assert unusable_reason(reply.text) is None or reply.provider == "offline"
    assert "{" not in reply.text and "<what" not in reply.text
    content = record["answer"]["choices"][0]["message"].get("content") or ""
    if reply.provider != "offline" and content.strip():
        # The model's words were shown: they passed the check (perhaps cut to whole sentences,
        # a stage direction or a note about the prompt taken off): each sentence is the model's.
        shown = reply.text.split("\n(")[0]
        assert all(piece.strip() in content for piece in sentences(shown))
