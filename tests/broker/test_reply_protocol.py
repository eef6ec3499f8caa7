"""parse_reply: fenced, wrapped, truncated and hostile bodies; bounded; it never raises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shelldon.broker.protocol import MAX_OPS, parse_reply
from shelldon.contracts.brain import Usage
from shelldon.contracts.ops import decode_ops

REMEMBER = {"op": "remember", "collection": "people", "name": "ana", "content": "Ana is my sister."}
EPISODE = {"op": "log_episode", "content": "Talked about Ana."}


def body(reply: str = "Hello!", ops: list[object] | None = None) -> str:
    return json.dumps({"reply": reply, "ops": [REMEMBER] if ops is None else ops})


def test_a_clean_object_gives_reply_and_raw_ops() -> None:
    parsed = parse_reply(body(), provider="p", usage=Usage(prompt_tokens=3, completion_tokens=4))
    assert parsed.text == "Hello!"
    assert parsed.ops == (REMEMBER,)
    assert parsed.provider == "p"
    assert parsed.usage == Usage(prompt_tokens=3, completion_tokens=4)
    assert parsed.dropped == ()
    ops, bad = decode_ops(list(parsed.ops))
    assert len(ops) == 1 and not bad


def test_fenced_json_with_prose_around_it() -> None:
    raw = f"Sure! Here you go:\n```json\n{body()}\n```\nHope that helps."
    parsed = parse_reply(raw)
    assert parsed.text == "Hello!"
    assert parsed.ops == (REMEMBER,)
    assert parsed.dropped == ("body: text outside the JSON object ignored",)


def test_leading_and_trailing_prose_without_a_fence() -> None:
    parsed = parse_reply(f"Thinking {{not json}} ... {body('Hi there')} trailing words")
    assert parsed.text == "Hi there"
    assert parsed.ops == (REMEMBER,)


def test_truncated_object_keeps_the_reply_and_the_whole_ops() -> None:
    full = body("Nice to meet Ana.", [REMEMBER, EPISODE, REMEMBER])
    cut = full[: full.rindex("Ana is my sister")]  # inside the third op
    parsed = parse_reply(cut)
    assert parsed.text == "Nice to meet Ana."
    assert parsed.ops == (REMEMBER, EPISODE)
    assert any("truncated" in reason for reason in parsed.dropped)
    assert any("op 2" in reason for reason in parsed.dropped)


def test_truncated_inside_the_reply_keeps_what_arrived() -> None:
    parsed = parse_reply('{"reply": "I was saying that Ana \\u00e9 is gre')
    assert parsed.text == "I was saying that Ana é is gre"
    assert parsed.ops == ()
    assert any("cut off" in reason for reason in parsed.dropped)


def test_truncated_inside_an_escape() -> None:
    parsed = parse_reply('{"reply": "tab\\tthen \\u00')
    assert parsed.text == "tab\tthen"


def test_ops_first_then_truncated_reply() -> None:
    parsed = parse_reply('{"ops": [' + json.dumps(EPISODE) + '], "reply": "half a sen')
    assert parsed.ops == (EPISODE,)
    assert parsed.text == "half a sen"


def test_a_reasoning_block_and_its_drafts_are_not_the_answer() -> None:
    draft = '{"reply": "draft answer", "ops": []}'
    raw = f"<think>\nMaybe {draft}? No, shorter.\n</think>\n{body('Final answer')}"
    parsed = parse_reply(raw)
    assert parsed.text == "Final answer"
    assert parsed.ops == (REMEMBER,)
    assert "body: reasoning block removed" in parsed.dropped


def test_cut_off_while_still_thinking_is_an_empty_answer() -> None:
    parsed = parse_reply('<think>I should answer {"reply": "dra')
    assert parsed.text == "" and parsed.ops == ()


def test_no_json_at_all_is_the_reply_without_ops() -> None:
    parsed = parse_reply("  Just a plain answer.  ")
    assert parsed.text == "Just a plain answer."
    assert parsed.ops == ()
    assert parsed.dropped == ("body: no JSON object; the text is the reply, no ops",)


def test_an_object_of_another_shape_is_not_the_protocol() -> None:
    parsed = parse_reply('{"answer": "hi"}')
    assert parsed.text == '{"answer": "hi"}'
    assert parsed.ops == ()


def test_raw_newlines_inside_strings_are_accepted() -> None:
    parsed = parse_reply('{"reply": "line one\nline two", "ops": []}')
    assert parsed.text == "line one\nline two"


def test_the_reply_is_cut_to_the_limit() -> None:
    parsed = parse_reply(body("word " * 200), max_reply_chars=50)
    assert len(parsed.text) <= 50
    assert parsed.text.endswith("…")
    assert "reply: cut to 50 chars" in parsed.dropped


def test_ops_are_capped_and_non_objects_dropped() -> None:
    ops: list[object] = [EPISODE] * (MAX_OPS + 5)
    ops.insert(1, "not an op")
    ops.insert(2, ["nor", "this"])
    parsed = parse_reply(body(ops=ops))
    assert len(parsed.ops) == MAX_OPS
    assert "op 1: a str, not an object; dropped" in parsed.dropped
    assert "op 2: a list, not an object; dropped" in parsed.dropped
    assert any("over the cap" in reason for reason in parsed.dropped)


def test_an_oversized_op_is_dropped_and_the_rest_kept() -> None:
    big = {"op": "log_episode", "content": "x" * 500}
    parsed = parse_reply(body(ops=[big, EPISODE]), max_op_chars=200)
    assert parsed.ops == (EPISODE,)
    assert any(reason.startswith("op 0:") for reason in parsed.dropped)


def test_ops_that_are_not_a_list_are_dropped_whole() -> None:
    parsed = parse_reply('{"reply": "ok", "ops": 7}')
    assert parsed.text == "ok"
    assert parsed.ops == ()
    assert "ops: a int, not a list; all dropped" in parsed.dropped


@pytest.mark.parametrize(
    ("body", "text", "ops"),
    [
        # A small model's near misses of the envelope (broker.protocol._envelope).
        ('{"Reply": "Hi there!", "Ops": []}', "Hi there!", 0),
        ('{"response": "Hi there!", "ops": []}', "Hi there!", 0),
        ('{"reply": {"text": "Hi there!"}, "ops": []}', "Hi there!", 0),
        ('{"reply": ["Hi", "there!"], "ops": []}', "Hi there!", 0),
        ('{"reply": "ok", "ops": {"op": "forget", "collection": "facts", "name": "x"}}', "ok", 1),
        ('{"reply": "ok", "ops": "[{\\"op\\": \\"forget\\"}]"}', "ok", 1),
        ('{"op": "forget", "collection": "facts", "name": "x"}', "", 1),  # an op, no envelope
        ('[{"op": "forget", "collection": "facts", "name": "x"}]', "", 1),
        ('{"answer": "hi"}', '{"answer": "hi"}', 0),  # junk still: the offline brain answers
        ("[1, 2, 3]", "[1, 2, 3]", 0),
    ],
)
def test_a_small_models_near_misses_of_the_envelope(body: str, text: str, ops: int) -> None:
    parsed = parse_reply(body)
    assert (parsed.text, len(parsed.ops)) == (text, ops)


def test_a_reply_that_is_not_text_is_dropped() -> None:
    parsed = parse_reply('{"reply": {"nested": true}, "ops": []}')
    assert parsed.text == ""
    assert "reply: a dict, not text; dropped" in parsed.dropped


def test_terminal_control_characters_are_removed() -> None:
    parsed = parse_reply(body("safe\x1b[2Jtext\rmore\x00"))
    assert parsed.text == "safe[2Jtextmore"
    assert "reply: control characters removed" in parsed.dropped


def test_dropped_reasons_never_quote_the_content() -> None:
    secret = "sk-live-abcdefghijklmnop1234"
    hostile = [secret, {"op": "log_episode", "content": secret * 2000}, 7]
    parsed = parse_reply(body(f"{secret}", hostile) + " and " + secret, max_op_chars=1000)
    assert all(secret not in reason for reason in parsed.dropped)


def test_hostile_nesting_and_huge_numbers_do_not_raise() -> None:
    deep = '{"reply": "x", "ops": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    parsed = parse_reply(deep)
    assert parsed.ops == ()
    huge = '{"reply": "n", "ops": [{"op": "resolve_learning", "id": ' + "9" * 10_000 + "}]}"
    assert parse_reply(huge).ops == ()


def test_an_enormous_body_is_cut_before_parsing() -> None:
    parsed = parse_reply("a" * 1000, max_raw_chars=100)
    assert len(parsed.text) == 100
    assert "body: cut to 100 chars before parsing" in parsed.dropped


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_never_raises_and_stays_bounded(raw: str) -> None:
    parsed = parse_reply(raw, max_reply_chars=120, max_ops=3)
    assert len(parsed.text) <= 120
    assert len(parsed.ops) <= 3
    assert all(isinstance(op, dict) for op in parsed.ops)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.integers(min_value=0, max_value=400))
def test_any_prefix_of_a_valid_body_salvages_a_prefix_of_the_reply(reply: str, cut: int) -> None:
    full = body(reply, [EPISODE, REMEMBER])
    parsed = parse_reply(full[:cut], max_reply_chars=10_000)
    assert all(op in (EPISODE, REMEMBER) for op in parsed.ops)
    if cut >= len(full):
        assert parsed.ops == (EPISODE, REMEMBER)
