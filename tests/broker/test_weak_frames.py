"""A prompt format's plain-text frames around a small model's words (broker.weak_frames, called
last by broker.weak_text.scrub): speaker labels, answer tags, quotes around the whole answer,
newlines escaped twice. Then the second held-apart set of weak-model replies: template families
the first sets did not name (Granite, Command R, Zephyr, Vicuna, Alpaca, OpenChat, Phi-4,
DeepSeek's tool-call tokens, Gemma's `tool_code`, ReAct), served by the fake over real HTTP and
read by the chain with the offline brain behind it (docs/brain.md, "Weak models at the provider
door").
"""

from __future__ import annotations

import re

import pytest

from broker.test_weak_models import REQUEST, _unreadable
from fakes.fake_provider import FakeProvider, Step, cut, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.weak_frames import unframe
from shelldon.broker.weak_text import scrub
from support.providers import http_provider

WORDS = "Ana is a lovely name!"

# (class, what the model wrote): the owner reads WORDS.
FRAMED = [
    ("own label", f"Assistant: {WORDS}"),
    ("own label, other casing", f"ASSISTANT:{WORDS}"),
    ("bot label", f"Bot: {WORDS}"),
    ("ai label", f"AI: {WORDS}"),
    ("response label", f"Response: {WORDS}"),
    ("answer label on its own line", f"Answer:\n{WORDS}"),
    ("alpaca header", f"### Response:\n{WORDS}"),
    ("bold label", f"**Assistant:** {WORDS}"),
    ("bold label, colon outside", f"**Assistant**: {WORDS}"),
    ("openchat label", f"GPT4 Correct Assistant: {WORDS}"),
    ("next turn on its own line", f"{WORDS}\nUser: and my brother?"),
    ("next turn in capitals inline", f"{WORDS} USER: thanks"),
    ("human next turn", f"{WORDS}\n\nHuman: ok"),
    ("alpaca next instruction", f"{WORDS}\n### Instruction:\nsay more"),
    ("alpaca next input", f"{WORDS}\n\n### Input: more"),
    ("label and next turn", f"Assistant: {WORDS}\nUser: cool"),
    ("answer tag", f"<answer>{WORDS}</answer>"),
    ("response tag unclosed", f"<response>\n{WORDS}"),
    ("final answer tag", f"<final_answer>{WORDS}</final_answer>"),
    ("quoted", f'"{WORDS}"'),
    ("curly quoted", f"“{WORDS}”"),
]


@pytest.mark.parametrize(("case", "written"), FRAMED, ids=[c[0] for c in FRAMED])
def test_a_frame_is_taken_off(case: str, written: str) -> None:
    text, notes = scrub(written)
    assert text == WORDS
    assert "reply: a prompt format's plain-text frame removed" in notes


def test_newlines_escaped_twice_are_line_breaks() -> None:
    assert unframe("Ana!\\nWhat a lovely name.\\n\\nTell me about her?") == (
        "Ana!\nWhat a lovely name.\n\nTell me about her?",
        True,
    )
    assert unframe('She said \\"hi\\".\\nSo sweet.')[0] == 'She said "hi".\nSo sweet.'


# Answers a good model writes that look like a frame and are not one: left as they are.
UNFRAMED = [
    "Response times vary: most days it's quick.",
    "Answers vary, but I'd say Tuesday.",
    "Here's the recipe.\nInput: 3 eggs, flour.\nOutput: a cake!",
    "Question: what did she say? Answer: nothing yet.",
    "Type your name where it says User: on the screen.",
    "Save it as C:\\new\\notes.txt on your laptop.",
    "In Python, print('a\\nb') prints two lines.",
    "Use `\\n` for a new line.",
    '"Hello," she said, "nice to meet you."',
    "The user manual is on the shelf.",
    "She wrote <answer> in the form, oddly.",
    "Ana is lovely.\nUsers of the app love her too.",
]


@pytest.mark.parametrize("written", UNFRAMED)
def test_what_only_looks_like_a_frame_stays(written: str) -> None:
    assert unframe(written) == (written, False)


def test_a_frame_with_nothing_inside_is_left_for_the_check() -> None:
    """A label with no words after it is not taken off: the reply check refuses what is left."""
    assert unframe("Assistant:") == ("Assistant:", False)
    assert unframe("<answer></answer>")[0] == "<answer></answer>"


# --- the second held-apart set: written before these fixes, run once, then fixed ------------
#
# First run (before weak_frames and the weak_text changes of the same commit): 11 of 28 reached
# the owner unreadable by the judge below (a role word glued to the words, "functionremember",
# a bold label, a quoted reply, a `tool_code` block, `### Response:`, a `Bot:` and a `Response:`
# label, an OpenChat label, escaped newlines, an `<answer>` tag). After: 0 of 28.

A = '{"collection": "people", "name": "sister", "content": "The owner\'s sister is Ana."}'
HELD_APART_2: list[tuple[str, Step]] = [
    (
        "granite roles",
        raw("<|start_of_role|>assistant<|end_of_role|>Ana is a lovely name!<|end_of_text|>"),
    ),
    (
        "command-r tokens",
        raw("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>What a lovely name!<|END_OF_TURN_TOKEN|>"),
    ),
    ("zephyr assistant", raw("<|assistant|>\nAna! Such a nice name.</s>")),
    ("vicuna caps roles", raw("ASSISTANT: Ana is a lovely name. USER: thanks")),
    ("alpaca response header", raw("### Response:\nAna is a lovely name!\n### Instruction:\nmore")),
    ("openchat", raw("GPT4 Correct Assistant: Ana is lovely!<|end_of_turn|>GPT4 Correct User: ok")),
    ("phi-4 im_sep", raw("<|im_start|>assistant<|im_sep|>Ana sounds lovely.<|im_end|>")),
    ("r1 unclosed think cut", cut("<think>\nOkay, so the user says their sister is called")),
    ("literal backslash n", raw("Ana!\\nWhat a lovely name.\\n\\nTell me about her?")),
    ("llama function tag", raw(f"<function=remember>{A}</function>")),
    ("granite tool_call token", raw(f'<|tool_call|>[{{"name": "remember", "arguments": {A}}}]')),
    ("gemma tool_code", raw('<tool_code>\nprint(remember(collection="people"))\n</tool_code>')),
    ("react action", raw(f"Thought: I should store this.\nAction: remember\nAction Input: {A}")),
    ("bot label", raw("Bot: Ana is a wonderful name!")),
    ("response label", raw("Response: Ana is a wonderful name!")),
    ("reply field in text", raw('{"reply": "Ana is a lovely name!", "ops": []}')),
    ("placeholder echo", raw("<what you say to the owner>")),
    ("jinja echo", raw("{{ reply }} Ana is nice {% endif %}")),
    ("sentence said thrice", raw("Ana is a lovely name. " * 3)),
    ("llama 2 system", raw("<<SYS>>be nice<</SYS>> Ana is lovely")),
    ("eos word", raw("Ana is a beautiful name! <EOS>")),
    ("pad tokens", raw("Ana is lovely<pad><pad><pad>")),
    ("unk tokens", raw("Ana<unk> is a lovely name<unk>")),
    ("quoted whole reply", raw('"Ana is a lovely name!"')),
    (
        "deepseek tool-call tokens",
        raw("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>remember"),
    ),
    ("only a closing think", raw("</think>")),
    ("answer tag", raw("<answer>Ana is a lovely name!</answer>")),
    ("bold label", raw("**Assistant:** Ana is a lovely name!")),
]

_MORE_MARKS = re.compile(
    r"###\s*\w+:|\\n|Action Input|\{\{|\}\}|<\w+>"
    r"|^\W*(?:assistant|bot|ai|response|answer|gpt4 correct \w+)\W*:"
    r"|^(?:assistant|user|system|function)[A-Z]|function\w*remember|^[\"“].*[\"”]$",
    re.IGNORECASE | re.MULTILINE,
)


def unreadable_2(text: str) -> str | None:
    """The first sets' judge, and the marks of the families this set adds."""
    why = _unreadable(text)
    if why is None and (mark := _MORE_MARKS.search(text)) is not None:
        return f"a frame left: {mark.group(0)!r}"
    return why


def test_the_second_held_apart_set_reaches_the_owner_readable(fake: FakeProvider) -> None:
    unreadable = []
    for case, step in HELD_APART_2:
        fake.script(step)
        reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
        if (why := unreadable_2(reply.text)) is not None:
            unreadable.append((case, why, reply.text[:60]))
    assert unreadable == []
