"""What a small model served by llama.cpp, Ollama or vLLM wraps around its words
(broker.weak_text), and the near-JSON it writes as a tool call's arguments.

The wire-level view (each class served by the fake over real HTTP, through the chain, with the
offline brain behind it) is tests/broker/test_weak_models.py.
"""

from __future__ import annotations

import json

import pytest

from shelldon.broker.weak_text import loads_arguments, scrub

ANA = {"collection": "people", "name": "sister", "content": "The owner's sister is Ana."}
A = json.dumps(ANA)

# (written, what the owner may read): one row per shape of the class.
REASONING = [
    ("<think>plan it</think>\n\nHi Sam!", "Hi Sam!"),
    ("<THINK>plan</THINK>Hi Sam!", "Hi Sam!"),
    ("<Thinking>plan</Thinking> Hi Sam!", "Hi Sam!"),
    ("<reasoning>a</reasoning>Hi Sam!", "Hi Sam!"),
    ("the owner greets me, so I greet back.\n</think>\nHi Sam!", "Hi Sam!"),  # no opener
    ("<think>a <think>b</think> c</think>Hi Sam!", "Hi Sam!"),  # nested
    ("<think>still planning how to", ""),  # cut while thinking
    ("Hi Sam! <think>should I add more", "Hi Sam!"),  # a block left open after the words
]
TOKENS = [
    ("Hi Sam!<|im_end|>", "Hi Sam!"),
    ("<|im_start|>assistant\nHi Sam!<|im_end|>\n<|im_start|>user\nbye<|im_end|>", "Hi Sam!"),
    ("<|start_header_id|>assistant<|end_header_id|>\n\nHi Sam!<|eot_id|>", "Hi Sam!"),
    ("Hi Sam!<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nbye", "Hi Sam!"),
    ("<|assistant|>\nHi Sam!<|end|>\n<|user|>\nbye", "Hi Sam!"),
    ("Hi Sam!</s>", "Hi Sam!"),
    ("<s> Hi Sam!</s><s>[INST] bye [/INST]", "Hi Sam!"),
    ("Hi Sam!<end_of_turn>\n<start_of_turn>user\nbye", "Hi Sam!"),
    ("<start_of_turn>model\nHi Sam!<end_of_turn>", "Hi Sam!"),
    ("Hi Sam!<｜end▁of▁sentence｜><｜User｜>bye", "Hi Sam!"),
    ("Hi Sam! [/INST]", "Hi Sam!"),
    ("<|begin_of_text|>Hi Sam!", "Hi Sam!"),
    ("<|im_start|>user\nmy sister is Ana<|im_end|>\n<|im_start|>assistant\nAna!", "Ana!"),
    # Harmony (gpt-oss), found by the held-apart set in tests/broker/test_weak_models.py:
    ("<|channel|>final<|message|>Hi Sam!<|return|>", "Hi Sam!"),
    (
        "<|channel|>analysis<|message|>Greet.<|end|><|start|>assistant<|channel|>final"
        "<|message|>Hi Sam!<|return|>",
        "Hi Sam!",
    ),
]
TEXT_CALLS = [
    ('<tool_call>\n{"name": "remember", "arguments": ' + A + "}\n</tool_call>", ""),
    ('Ana! <tool_call>{"name": "remember", "arguments": ' + A + "}</tool_call>", "Ana!"),
    ('Ana! <tool_call>{"name": "remember", "argu', "Ana!"),  # cut inside the tag
    ('[TOOL_CALLS] [{"name": "remember", "arguments": ' + A + "}]", ""),
    ('<|python_tag|>{"name": "remember", "parameters": ' + A + "}<|eom_id|>", ""),
    ('functools[{"name": "remember", "arguments": ' + A + "}]", ""),
    ('{"name": "remember", "parameters": ' + A + "}", ""),
    ('Ana!\n```json\n{"name": "remember", "arguments": ' + A + "}\n```", "Ana!"),
    ('{"tool_calls": [{"function": {"name": "remember", "arguments": "{}"}}]}', ""),
    ('<function=remember>{"collection": "people"}</function> Ana!', "Ana!"),
]


@pytest.mark.parametrize(("written", "shown"), REASONING + TOKENS + TEXT_CALLS)
def test_only_the_words_for_the_owner_are_left(written: str, shown: str) -> None:
    text, notes = scrub(written)
    assert text == shown
    assert notes  # each removal is said, for the audit
    assert all("Ana" not in note and "Sam" not in note for note in notes)  # never quoted


@pytest.mark.parametrize(
    "plain",
    [
        "Hi Sam! 2 < 3 and 5 > 4, <3",
        'Here is the JSON you asked for:\n```json\n{"city": "Porto"}\n```',
        '{"reply": "Hi!", "ops": [{"op": "remember", "name": "x"}]}',  # the JSON protocol's own
        "I think so. [Note] the list: [1, 2, 3] and {braces}.",
        "Use `a | b` in a shell, or <b>bold</b> in HTML.",
        'A person as JSON:\n```json\n{"name": "Ana", "args": ["Porto"]}\n```',
    ],
)
def test_plain_words_and_the_json_protocol_are_left_alone(plain: str) -> None:
    assert scrub(plain) == (plain, [])


def test_a_text_call_is_counted_never_proposed() -> None:
    _, notes = scrub('[TOOL_CALLS] [{"name": "a", "arguments": {}}, {"name": "b", "args": {}}]')
    assert notes == ["reply: 1 tool call(s) written as text removed; not proposed"]


@pytest.mark.parametrize(
    "written",
    [
        json.dumps(A),  # the object as a JSON string, twice encoded
        json.dumps(json.dumps(A)),  # three times
        "{'collection': 'people', 'name': 'sister', 'content': \"The owner's sister is Ana.\"}",
        A[:-1] + ",}",  # a trailing comma
        "{'collection': 'people', 'name': 'sister', 'content': 'The owner\\'s sister is Ana.',}",
    ],
)
def test_near_json_arguments_are_the_object_the_model_meant(written: str) -> None:
    value, mended = loads_arguments(written)
    assert value == ANA and mended


def test_arguments_mend_only_spellings() -> None:
    assert loads_arguments(A) == (ANA, [])
    value, _ = loads_arguments("{'repeat': None, 'ok': True}")
    assert value == {"repeat": None, "ok": True}
    assert loads_arguments('"just words"') == ("just words", [])  # not an object: refused later
    for broken in ('{"collection": "facts", "content": "hunt', "{nope: ", "x" * 70_000):
        with pytest.raises(ValueError):
            loads_arguments(broken)
