"""Ops as native tool calls, over real HTTP on 127.0.0.1 against fakes that answer in each wire's
documented tool-call format (tests/fakes/fake_provider.py): the tools sent, several calls, a call
with no text (the second request for words), arguments that are not JSON, a tool that does not
exist, and the schemas generated from the contract.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from fakes.fake_provider import FakeProvider, call, raw, status, tool_calls
from shelldon.broker.chain import ProviderChain
from shelldon.broker.tools import DREAM_TOOLS, TURN_TOOLS, anthropic_tools, openai_tools, tool_spec
from shelldon.contracts.brain import CompletionRequest, PromptSection, Usage
from shelldon.contracts.ops import COLLECTION_NAMES, decode_ops
from shelldon.contracts.reply_format import DREAM_JSON_ASK, DREAM_TOOL_ASK, TOOL_REPLY_BLOCK
from shelldon.worker.prompt import SYSTEM_INSTRUCTION
from support.providers import http_provider as provider

WIRES = ["openai", "anthropic"]
REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection("system", SYSTEM_INSTRUCTION),
        PromptSection("message", "# The owner says\nmy sister is called Ana and I love tea"),
    ),
)
ANA = {"collection": "people", "name": "sister", "content": "The owner's sister is Ana."}
BROKEN = '{"collection": "facts", "name": "pw", "content": "hunt'
TEA = {"collection": "preferences", "name": "tea", "content": "The owner loves tea."}


def sent_tools(kind: str, sent: Any) -> dict[str, dict[str, Any]]:
    """name -> parameters schema, as the request carried them in its wire."""
    if kind == "openai":
        assert all(tool["type"] == "function" for tool in sent["tools"])
        return {t["function"]["name"]: t["function"]["parameters"] for t in sent["tools"]}
    return {t["name"]: t["input_schema"] for t in sent["tools"]}


def test_the_schemas_are_the_contracts() -> None:
    remember = tool_spec(TURN_TOOLS[0]).parameters
    assert "op" not in remember["properties"]
    assert remember["required"] == ["collection", "name", "content"]
    assert sorted(remember["properties"]["collection"]["enum"]) == sorted(COLLECTION_NAMES)
    assert remember["properties"]["name"]["maxLength"] == 120
    assert remember["properties"]["depends_on"]["maxItems"] == 8
    remind = next(tool_spec(s) for s in TURN_TOOLS if tool_spec(s).name == "remind").parameters
    assert remind["properties"]["in_seconds"] == {"type": "integer"}  # no anyOf null, no default
    assert remind["properties"]["repeat"]["enum"] == ["daily", "weekly"]
    # Each schema accepts what the contract decodes and refuses what it refuses.
    for struct in {*TURN_TOOLS, *DREAM_TOOLS}:
        jsonschema.Draft202012Validator.check_schema(tool_spec(struct).parameters)
    validator = jsonschema.Draft202012Validator(remember)
    validator.validate(ANA)
    assert not decode_ops([{"op": "remember", **ANA}])[1]
    for bad in ({"collection": "people", "name": "x"}, {**ANA, "collection": "secrets"}):
        assert not validator.is_valid(bad)
        assert decode_ops([{"op": "remember", **bad}])[1]
    assert {t["function"]["name"] for t in openai_tools("dream")} == {
        "remember",
        "rewrite_about",
        "resolve_learning",
        "merge",
        "rewrite_summary",
    }
    assert anthropic_tools("reflect") == []


@pytest.mark.parametrize("kind", WIRES)
def test_the_request_offers_tools_and_asks_for_plain_words(fake: FakeProvider, kind: str) -> None:
    fake.script(raw("Hello!"))
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Hello!"
    (sent,) = fake.requests
    tools = sent_tools(kind, sent.json)
    assert set(tools) == {tool_spec(s).name for s in TURN_TOOLS}
    assert sent.json["tool_choice"] == ("auto" if kind == "openai" else {"type": "auto"})
    assert "response_format" not in sent.json
    system = sent.system_text()
    assert TOOL_REPLY_BLOCK in system
    assert '{"reply"' not in system and "<what you say" not in system


@pytest.mark.parametrize("kind", WIRES)
def test_several_tool_calls_beside_text_become_ops(fake: FakeProvider, kind: str) -> None:
    fake.script(
        tool_calls(call("remember", ANA), call("remember", TEA), text="Ana and tea, noted!")
    )
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Ana and tea, noted!"
    assert list(reply.ops) == [{"op": "remember", **ANA}, {"op": "remember", **TEA}]
    ops, dropped = decode_ops(list(reply.ops))
    assert len(ops) == 2 and not dropped
    assert len(fake.requests) == 1  # words came with the calls: no second request


@pytest.mark.parametrize("kind", WIRES)
def test_tool_calls_without_text_ask_once_more_for_words(fake: FakeProvider, kind: str) -> None:
    fake.script(
        tool_calls(call("remember", ANA), call("remember", {"collection": "x"}), usage=(900, 40)),
        raw("Nice, I'll remember Ana.", usage=(960, 12)),
    )
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Nice, I'll remember Ana."
    assert reply.ops[0] == {"op": "remember", **ANA}
    assert reply.usage == Usage(prompt_tokens=1860, completion_tokens=52)
    first, second = fake.requests
    messages = second.json["messages"]
    if kind == "openai":
        assistant, *results = messages[-3:]
        assert [c["id"] for c in assistant["tool_calls"]] == ["call_fake0", "call_fake1"]
        assert [r["tool_call_id"] for r in results] == ["call_fake0", "call_fake1"]
        assert results[0]["content"].startswith("proposed")
        assert results[1]["content"].startswith("tool call 1 (remember): refused")
        assert second.json["tool_choice"] == "none"
    else:
        assistant, user = messages[-2:]
        assert [b["type"] for b in assistant["content"]] == ["tool_use", "tool_use"]
        results = [b for b in user["content"] if b["type"] == "tool_result"]
        assert [r["tool_use_id"] for r in results] == ["toolu_fake0", "toolu_fake1"]
        assert "is_error" not in results[0]
        assert second.json["tool_choice"] == {"type": "none"}
    assert first.json["messages"] == messages[: len(first.json["messages"])]


@pytest.mark.parametrize("kind", WIRES)
def test_broken_arguments_and_unknown_tools_are_dropped_with_a_reason(
    fake: FakeProvider, kind: str
) -> None:
    fake.script(
        tool_calls(
            call("remember", raw_arguments=BROKEN),
            call("write_file", {"path": "/etc/passwd", "content": "hunter2"}),
            call("remember", ANA),
            text="Okay!",
        )
    )
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Okay!"
    assert list(reply.ops) == [{"op": "remember", **ANA}]
    reasons = " | ".join(reply.dropped)
    assert "tool call 0 (remember): arguments are" in reasons
    assert "tool call 1: no tool of that name" in reasons
    for invented in ("hunt", "passwd", "write_file"):
        assert invented not in reasons


@pytest.mark.parametrize("kind", WIRES)
def test_no_words_at_all_still_tells_the_owner(fake: FakeProvider, kind: str) -> None:
    """The second request fails, or answers junk: the ops stand, the owner gets a plain line."""
    fake.script(tool_calls(call("remember", ANA)), status(500))
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Got it, I'll keep that in mind."
    assert list(reply.ops) == [{"op": "remember", **ANA}]
    fake.script(tool_calls(call("remind", {"text": "tea", "in_seconds": 600})), raw('{"x": 1}'))
    reply = ProviderChain([provider(fake, kind)]).complete(REQUEST)
    assert reply.text == "Okay, I'll remind you."
    assert reply.ops[0]["op"] == "remind"


@pytest.mark.parametrize("kind", WIRES)
def test_a_dream_offers_the_dream_tools_and_its_ask_is_swapped(
    fake: FakeProvider, kind: str
) -> None:
    dream = CompletionRequest(
        purpose="dream",
        sections=(
            PromptSection("system", SYSTEM_INSTRUCTION),
            PromptSection("dream", f"# Dream: tidy your memory\n{DREAM_JSON_ASK}\n- [1] tea"),
        ),
    )
    fake.script(
        tool_calls(call("resolve_learning", {"id": 1, "status": "pruned"}), text="Slept well.")
    )
    reply = ProviderChain([provider(fake, kind)]).complete(dream)
    assert reply.ops == ({"op": "resolve_learning", "id": 1, "status": "pruned"},)
    (sent,) = fake.requests
    assert set(sent_tools(kind, sent.json)) == {tool_spec(s).name for s in DREAM_TOOLS}
    assert DREAM_TOOL_ASK in sent.user_text() and DREAM_JSON_ASK not in sent.user_text()


@pytest.mark.parametrize("kind", WIRES)
def test_a_reflection_keeps_its_json_ask(fake: FakeProvider, kind: str) -> None:
    reflect = CompletionRequest(
        purpose="reflect",
        sections=(PromptSection("system", "You are memory."), PromptSection("reflect", "digest")),
    )
    fake.script(raw(json.dumps({"reply": "one fact", "ops": []})))
    assert ProviderChain([provider(fake, kind)]).complete(reflect).text == "one fact"
    (sent,) = fake.requests
    assert "tools" not in sent.json
    if kind == "openai":
        assert sent.json["response_format"] == {"type": "json_object"}


@pytest.mark.parametrize(
    ("protocol", "field"),
    [("json_schema", "json_schema"), ("json_object", "json_object"), ("plain", None)],
)
def test_the_json_protocols_stay_as_fallbacks(
    fake: FakeProvider, protocol: str, field: str | None
) -> None:
    fake.script(raw(json.dumps({"reply": "hi", "ops": [{"op": "remember", **ANA}]})))
    reply = ProviderChain([provider(fake, "openai", protocol=protocol)]).complete(REQUEST)
    assert reply.text == "hi" and len(reply.ops) == 1
    (sent,) = fake.requests
    assert "tools" not in sent.json
    assert sent.json.get("response_format", {}).get("type") == field
    assert '{"reply": "<what you say to your owner>"' in sent.system_text()
