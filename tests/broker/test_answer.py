"""From a provider's raw answer to the reply the chain hands on (broker.answer): numbers past
what any field (and the wire's 64 bits) can hold are dropped with a note, from the reply's JSON
and from native tool calls alike, and the turn's other ops are kept."""

from __future__ import annotations

import contextlib
import json

from shelldon.broker.answer import Unusable, read_answer
from shelldon.broker.providers.base import RawCompletion, ToolCall
from shelldon.broker.providers.json_http import token_count, usage_from
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.contracts.ops import OpDecodeError, decode_op
from support.json_variants import variants

REQUEST = CompletionRequest(
    purpose="turn", sections=(PromptSection(kind="message", text="# The owner says\nhi"),)
)
FACT = {"op": "remember", "collection": "facts", "name": "tea", "content": "Mia likes tea."}


def _read(raw: RawCompletion) -> tuple[list[object], list[str]]:
    answer = read_answer(raw, REQUEST, provider="fake", max_reply_chars=4000, max_ops=8)
    wire.encode(wire.TurnResult(turn_id="t", reply=answer.text, ops=answer.ops))  # it travels
    return list(answer.ops), list(answer.dropped)


def test_an_op_with_a_number_past_64_bits_is_dropped_and_said() -> None:
    huge = {"op": "remind", "text": "stretch", "in_seconds": 10**30}
    body = json.dumps({"reply": "Sure.", "ops": [huge, FACT]})
    ops, dropped = _read(RawCompletion(text=body))
    assert ops == [FACT]
    assert any("too large" in note for note in dropped), dropped


def test_a_tool_call_with_such_a_number_is_dropped_too() -> None:
    call = ToolCall(
        id="c1", name="remind", arguments='{"text": "x", "in_seconds": ' + "9" * 40 + "}"
    )
    keep = ToolCall(
        id="c2", name="remember", arguments=json.dumps({k: v for k, v in FACT.items() if k != "op"})
    )
    ops, dropped = _read(RawCompletion(text="Okay.", tool_calls=(call, keep)))
    assert [op["op"] for op in ops] == ["remember"]
    assert any("too large" in note for note in dropped), dropped


def test_a_usage_figure_past_any_count_is_unknown() -> None:
    assert token_count(10**30) is None and token_count(2**40 + 1) is None
    assert token_count(123) == 123 and token_count(True) is None and token_count(-1) is None
    usage = usage_from({"usage": {"in": 10**30, "out": 7}}, "in", "out")
    assert usage is not None and (usage.prompt_tokens, usage.completion_tokens) == (None, 7)


def test_half_an_emoji_in_the_reply_or_an_op_is_mended_not_fatal() -> None:
    # JSON may escape a lone surrogate ("\ud83d": half an emoji, as a cut small model writes
    # it); no UTF-8 encoder takes it, so it used to fail the answer's frame.
    body = json.dumps({"reply": "Done \ud83d!", "ops": [{**FACT, "name": "tea \udfff"}]})
    ops, _ = _read(RawCompletion(text=body))
    assert ops == [{**FACT, "name": "tea \ufffd"}]
    answer = read_answer(
        RawCompletion(text=body), REQUEST, provider="fake", max_reply_chars=4000, max_ops=8
    )
    assert answer.text == "Done \ufffd!"
    arguments = '{"collection": "facts", "name": "x\\ud800", "content": "Mia likes tea."}'
    ops, _ = _read(RawCompletion(text="ok", tool_calls=(ToolCall("c", "remember", arguments),)))
    assert [op["name"] for op in ops] == ["x\ufffd"]


ENVELOPE = {
    "reply": "Noted: you like tea, and I'll remind you to stretch.",
    "ops": [
        FACT,
        {"op": "remind", "text": "stretch", "in_seconds": 600},
        {"op": "remind", "text": "water", "at": "2026-12-07T09:00", "repeat": "daily"},
        {"op": "log_episode", "text": "We talked about tea.", "tags": ["tea", "habits"]},
        {"op": "forget", "name": "coffee"},
        {"op": "capture_learning", "pattern_key": "tea", "text": "Mia drinks tea at night."},
    ],
}


def test_any_value_anywhere_in_the_envelope_is_read_or_dropped_never_a_fault() -> None:
    """Each value of a full reply, replaced in turn by each value of other JSON types: the
    answer is always read (an op that cannot be one is core's to refuse, as the wire carries
    it), or refused as unusable; nothing else is raised and nothing that cannot travel leaves."""
    tried = 0
    for variant in variants(ENVELOPE):
        for raw in (
            RawCompletion(text=json.dumps(variant)),
            RawCompletion(text=json.dumps(variant), cut=True),
        ):
            try:
                ops, _ = _read(raw)
            except Unusable:
                continue
            for op in ops:
                with contextlib.suppress(OpDecodeError):  # core refuses it, with a reason
                    decode_op(op)
            tried += 1
    assert tried > 500
