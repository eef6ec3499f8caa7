"""Weak and quirky real models at the provider door: what small models (Qwen2.5 0.5B/1.5B,
Llama 3.2 1B, Phi, Gemma 2B, SmolLM2) served by llama.cpp, Ollama or vLLM write, served by the fake
over real HTTP in each wire's documented format and read by the chain, with the offline brain
behind it (docs/brain.md, "Weak models at the provider door").

For each class: the owner reads words (never JSON, tags, template tokens, role labels, a copy of
the system instruction or of memory); a tool call the wire carried is kept when its arguments are
near-JSON of the object the model meant; a tool call written as text is never proposed.

The held-apart set at the end was written after the fixes and not tuned on; its judge
(`_unreadable`) is written from the classes, not from the fixes' code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from fakes.fake_provider import FakeProvider, Step, call, cut, events, raw, tool_calls
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.brain import BrainReply, CompletionRequest, PromptSection
from shelldon.contracts.ops import OpDecodeError, decode_op
from shelldon.worker.prompt import SYSTEM_INSTRUCTION
from support.pet import running_pet
from support.providers import configure_pet, http_provider, store_key

WIRES = ["openai", "anthropic"]
ANA = {"collection": "people", "name": "sister", "content": "The owner's sister is Ana."}
A = json.dumps(ANA)
PORTO = {
    "collection": "people",
    "name": "sister-city",
    "content": "The owner's sister lives in Porto.",
}
MEMORY = (
    "# Memory (curated entries, most relevant first)\n## sister [people, owner]\n"
    "The owner's sister is Ana and she lives in Porto with her two cats."
)
REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection("system", SYSTEM_INSTRUCTION),
        PromptSection("memory", MEMORY),
        PromptSection("message", "# The owner says\nmy sister is called Ana"),
    ),
)
WORDS = "Ana! What a lovely name."
FALLBACK = "offline"  # the owner reads the offline brain's words


def _ask(fake: FakeProvider, kind: str, *steps: Step) -> BrainReply:
    fake.script(*steps)
    return ProviderChain([http_provider(fake, kind), OfflineBrain()]).complete(REQUEST)


def _model_ops(reply: BrainReply) -> list[str]:
    """The names of the ops the model proposed that fit the contract (not the backstop's, nor
    the offline brain's when it answered instead)."""
    if reply.provider == "offline" or any(n.startswith("backstop:") for n in reply.dropped):
        return []
    names = []
    for op in reply.ops:
        try:
            decode_op(op)
        except OpDecodeError:
            continue
        names.append(str(op.get("name") or op["op"]))
    return names


# (class, what the model wrote, what the owner reads: the words or FALLBACK)
TEXT_CLASSES = [
    ("think closed", f"<think>The user says their sister is Ana.</think>\n\n{WORDS}", WORDS),
    ("think other casing", f"<Think>plan</Think>{WORDS}", WORDS),
    ("thinking tag", f"<thinking>The owner mentioned Ana.</thinking>{WORDS}", WORDS),
    (
        "think with no opener",
        f"Okay, the user told me about Ana. Be warm.\n</think>\n\n{WORDS}",
        WORDS,
    ),
    ("think nested", f"<think>a <think>b</think> still thinking</think>{WORDS}", WORDS),
    ("think after a preamble", f"Sure.\n<think>planning</think>\n{WORDS}", WORDS),
    ("chatml header", f"<|im_start|>assistant\n{WORDS}<|im_end|>", WORDS),
    ("chatml next turn", f"{WORDS}<|im_end|>\n<|im_start|>user\nthanks<|im_end|>", WORDS),
    (
        "llama 3 header",
        f"<|start_header_id|>assistant<|end_header_id|>\n\n{WORDS}<|eot_id|>",
        WORDS,
    ),
    ("eos", f"{WORDS}</s>", WORDS),
    ("gemma next turn", f"{WORDS}<end_of_turn>\n<start_of_turn>user\nok", WORDS),
    ("mistral inst", f"{WORDS} [/INST]", WORDS),
    (
        "hermes tool call + words",
        f'{WORDS} <tool_call>{{"name": "remember", "arguments": {A}}}</tool_call>',
        WORDS,
    ),
    (
        "fenced tool call + words",
        f'{WORDS}\n```json\n{{"name": "remember", "arguments": {A}}}\n```',
        WORDS,
    ),
    ("fenced tool call alone", f'```json\n{{"name": "remember", "arguments": {A}}}\n```', FALLBACK),
    (
        "hermes tool call alone",
        f'<tool_call>\n{{"name": "remember", "arguments": {A}}}\n</tool_call>',
        FALLBACK,
    ),
    ("mistral tool call", f'[TOOL_CALLS] [{{"name": "remember", "arguments": {A}}}]', FALLBACK),
    (
        "llama python_tag",
        f'<|python_tag|>{{"name": "remember", "parameters": {A}}}<|eom_id|>',
        FALLBACK,
    ),
    ("phi functools", f'functools[{{"name": "remember", "arguments": {A}}}]', FALLBACK),
    ("llama bare json call", f'{{"name": "remember", "parameters": {A}}}', FALLBACK),
    ("system instruction echo", f"{SYSTEM_INSTRUCTION[:120]} {WORDS}", FALLBACK),
    ("memory echo", MEMORY.split("\n", 1)[1], FALLBACK),
    (
        "phrase loop",
        "Sam is always looking for new toys, but I'm always looking for new toys, I'm Sam. Sammy "
        "is always looking for new toys, but I'm always looking for new toys. Sam is always "
        "looking for new toys.",
        FALLBACK,
    ),
    ("empty", "  \n ", FALLBACK),
]


@pytest.mark.parametrize("kind", WIRES)
@pytest.mark.parametrize(
    ("case", "written", "shown"), TEXT_CLASSES, ids=[c[0] for c in TEXT_CLASSES]
)
def test_the_owner_reads_words(
    fake: FakeProvider, kind: str, case: str, written: str, shown: str
) -> None:
    reply = _ask(fake, kind, raw(written))
    if shown == FALLBACK:
        assert reply.provider == "offline", reply.text
    else:
        assert (reply.provider, reply.text) == (f"fake-{kind}", shown)
    assert _unreadable(reply.text) is None
    assert _model_ops(reply) == []  # a call written as text is never proposed


@pytest.mark.parametrize(
    "around",
    ["{}", '<think>draft: {{"reply": "no", "ops": []}}</think>\n{}', "{}<|im_end|>"],
)
def test_the_json_protocols_ops_reach_core_as_written(fake: FakeProvider, around: str) -> None:
    """The scrub never edits the protocol's own JSON: an op holding tags, tokens or a call
    written as text reaches core as the model wrote it, for the gate to judge and audit."""
    content = (
        'Note <tool_call>{"name": "forget", "arguments": {}}</tool_call> then </think> '
        "and <|im_end|> [TOOL_CALLS] done."
    )
    op = {"op": "remember", "collection": "facts", "name": "odd", "content": content}
    envelope = json.dumps({"reply": "Noted.<|im_end|>", "ops": [op]})
    fake.script(raw(around.format(envelope)))
    json_protocol = http_provider(fake, "openai", protocol="plain")  # tools mode: test below
    reply = ProviderChain([json_protocol, OfflineBrain()]).complete(REQUEST)
    assert (reply.provider, reply.text, list(reply.ops)) == ("fake-openai", "Noted.", [op])


LIKE_LINES = " ".join(f"Line {i} of the list goes on a while." for i in range(30))


def test_a_long_phrase_loop_is_refused_when_cut_and_kept_when_it_ended(
    fake: FakeProvider,
) -> None:
    """A runaway loop runs until the token budget; a long answer of like lines that ended on its
    own is an answer (tests/transport/test_telegram_e2e.py sends one of 10,600 characters)."""
    assert _ask(fake, "openai", cut(LIKE_LINES + " Line")).provider == "offline"
    assert _ask(fake, "openai", raw(LIKE_LINES)).text == LIKE_LINES


def test_a_cut_reasoning_block_sends_the_chain_on(fake: FakeProvider) -> None:
    reply = _ask(fake, "openai", cut("<think>The user says their sister is Ana. Let me"))
    assert reply.provider == "offline"


# (class, the wire's tool calls, the ops the model meant)
CALL_CLASSES = [
    ("arguments encoded twice", [call("remember", raw_arguments=json.dumps(A))], ["sister"]),
    (
        "single quotes",
        [call("remember", raw_arguments=A.replace('"', "'").replace("owner's", "owner\\'s"))],
        ["sister"],
    ),
    ("trailing comma", [call("remember", raw_arguments=A[:-1] + ",}")], ["sister"]),
    (
        "python constants",
        [call("remind", raw_arguments="{'text': 'call Ana', 'in_seconds': 60, 'repeat': None}")],
        ["remind"],
    ),
    ("the same call five times", [call("remember", ANA)] * 5, ["sister"]),
]


@pytest.mark.parametrize("kind", WIRES)
@pytest.mark.parametrize(("case", "calls", "meant"), CALL_CLASSES, ids=[c[0] for c in CALL_CLASSES])
def test_a_call_the_wire_carried_is_read_as_meant(
    fake: FakeProvider, kind: str, case: str, calls: list[dict[str, Any]], meant: list[str]
) -> None:
    reply = _ask(fake, kind, tool_calls(*calls, text=WORDS))
    assert (reply.provider, reply.text) == (f"fake-{kind}", WORDS)
    assert _model_ops(reply) == meant


@pytest.mark.parametrize("kind", WIRES)
def test_made_up_tools_and_fields_are_still_refused(fake: FakeProvider, kind: str) -> None:
    reply = _ask(
        fake,
        kind,
        tool_calls(call("save_memory", ANA), call("remember", {"topic": "x"}), text=WORDS),
    )
    assert reply.text == WORDS and _model_ops(reply) == []
    assert any("no tool of that name" in note for note in reply.dropped)


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "c1", "object": "chat.completion.chunk", "choices": [choice]}


USAGE_ONLY = {
    "id": "c1",
    "object": "chat.completion.chunk",
    "choices": [],
    "usage": {"prompt_tokens": 5, "completion_tokens": 6},
}


def test_stream_pieces_with_no_index_continue_their_call(fake: FakeProvider) -> None:
    reply = _ask(
        fake,
        "openai",
        events(
            [
                _chunk({"role": "assistant", "content": WORDS}),
                _chunk(
                    {
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "remember", "arguments": ""},
                            }
                        ]
                    }
                ),
                _chunk({"tool_calls": [{"function": {"arguments": A[:20]}}]}),
                _chunk({"tool_calls": [{"function": {"arguments": A[20:]}}]}),
                _chunk(
                    {
                        "tool_calls": [
                            {"function": {"name": "remember", "arguments": json.dumps(PORTO)}}
                        ]
                    }
                ),
                _chunk({}, "tool_calls"),
                USAGE_ONLY,
                "[DONE]",
            ]
        ),
    )
    assert reply.text == WORDS and _model_ops(reply) == ["sister", "sister-city"]
    assert reply.usage is not None and reply.usage.completion_tokens == 6


def test_stream_calls_sharing_one_index_stay_apart(fake: FakeProvider) -> None:
    reply = _ask(
        fake,
        "openai",
        events(
            [
                _chunk({"role": "assistant", "content": WORDS}),
                _chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "a",
                                "function": {"name": "remember", "arguments": A},
                            }
                        ]
                    }
                ),
                _chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "b",
                                "function": {"name": "remember", "arguments": json.dumps(PORTO)},
                            }
                        ]
                    }
                ),
                _chunk({}, "tool_calls"),
                "[DONE]",
            ]
        ),
    )
    assert _model_ops(reply) == ["sister", "sister-city"]


def test_through_the_pet_a_text_call_is_shown_as_words_and_never_kept(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    """The real processes: the owner reads the words; the call written as text is not applied
    (its fact is not one the owner said, so no backstop can add it); the recent window holds
    what the owner read, not the tags."""
    store_key(home)
    configure_pet(home, fake)
    vault = {"collection": "facts", "name": "vault", "content": "The owner wants the vault opened."}
    fake.script(
        raw(
            "Thinking about a greeting.</think>\n<|im_start|>assistant\nHello there, Sam!"
            f'<tool_call>{{"name": "remember", "arguments": {json.dumps(vault)}}}</tool_call>'
            "<|im_end|>\n<|im_start|>user\nbye<|im_end|>"
        ),
        raw("Bye for now!"),
    )
    with running_pet() as pet:
        assert pet.say("hello there") == "Hello there, Sam!"
        pet.say("see you")
    last = fake.requests[-1].system_text()
    assert "pet: Hello there, Sam!" in last
    assert "vault opened" not in last and "<|" not in last and "think" not in last


# --- held apart: written after the fixes, not tuned on --------------------------------------

_MARKS = re.compile(
    r'\{\s*"|\[\s*\{|<\|[^>]*\|>|<｜|</?s>|<end_of_turn>|<start_of_turn>|\[/?INST\]|\[TOOL_CALLS\]'
    r"|</?tool_call|</?think|</?thinking|</?reasoning|functools|<function|<<SYS>>|python_tag",
    re.IGNORECASE,
)
_ROLE = re.compile(r"^\s*(user|assistant|human|system|owner|pet|model)\s*:", re.I | re.M)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower())


def _shares(text: str, source: str, n: int = 8) -> bool:
    ours, theirs = _words(text), _words(source)
    grams = {tuple(theirs[i : i + n]) for i in range(len(theirs) - n + 1)}
    return any(tuple(ours[i : i + n]) in grams for i in range(len(ours) - n + 1))


def _unreadable(text: str) -> str | None:
    """Why the owner could not read `text` as the pet's words (None: they can)."""
    if not text.strip():
        return "empty"
    if mark := _MARKS.search(text):
        return f"raw mark {mark.group(0)!r}"
    if _ROLE.search(text):
        return "a role label"
    if _shares(text, SYSTEM_INSTRUCTION) or _shares(text, MEMORY):
        return "a prompt echo"
    words = _words(text)
    counts: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - 3):
        gram = tuple(words[i : i + 4])
        counts[gram] = counts.get(gram, 0) + 1
        if counts[gram] >= 3:
            return "a loop"
    return None


HELD_APART: list[tuple[str, Step]] = [
    (
        "qwen3 think, then json fence",
        raw(
            '<think>\nok\n</think>\n```json\n{"name": "log'
            '_episode", "arguments": {"text": "met"}}\n```'
        ),
    ),
    (
        "hermes two calls",
        raw(
            '<tool_call>{"name": "remember", "arguments": {}}</tool_call>'
            '\n<tool_call>{"name": "remind", "arguments": {}}</tool_call>'
        ),
    ),
    ("words then python_tag", raw('Sure thing!<|python_tag|>remember.call(collection="people")')),
    ("phi-3 end", raw("That sounds lovely, tell me more about her.<|end|><|user|>ok<|end|>")),
    ("endoftext", raw("Tell me more about Ana!<|endoftext|>Human: hi")),
    ("deepseek full-width", raw("<｜Assistant｜>Ana is a sweet name.<｜end▁of▁sentence｜>")),
    ("gpt-oss channel", raw("<|channel|>final<|message|>Nice to hear about Ana.<|return|>")),
    ("REASONING caps unclosed cut", cut("<REASONING>The owner told me that their sister")),
    ("thought tag", raw("<thought>short</thought>How old is Ana?")),
    ("mistral v3 call", raw('[TOOL_CALLS]remember[ARGS]{"collection": "people", "name": "x"}')),
    (
        "function_calls xml",
        raw(
            '<function_calls><invoke name="remember"><paramete'
            'r name="x">y</parameter></invoke></function_calls>'
        ),
    ),
    ("function wrapper json", raw('{"function": {"name": "remember", "arguments": "{}"}}')),
    (
        "list of calls",
        raw('[{"name": "remember", "parameters": {}}, {"name": "remind", "parameters": {}}]'),
    ),
    ("memory by title echo", raw("- sister [people]\n- cats [facts, may be stale]")),
    (
        "instruction echo mid-text",
        raw("Hi! Be warm, brief and honest: if you do not know something, say so. Anyway, hello!"),
    ),
    (
        "word loop cut",
        cut("so so so so so so so so so so so so so so so so so so so so so so so so"),
    ),
    (
        "two-phrase loop",
        raw(
            "Ana is nice and kind. Ana is nice and sweet!"
            " Ana is nice and kind, Ana is nice and good."
        ),
    ),
    ("transcript continues", raw("Lovely!\nUser: what about me?\nAssistant: You are lovely too.")),
    ("only whitespace and eos", raw("\n\n</s>")),
    (
        "chatml echo of user turn first",
        raw(
            "<|im_start|>user\nmy sister is called Ana<|im_end|>\n"
            "<|im_start|>assistant\nWhat a pretty name!<|im_end|>"
        ),
    ),
    (
        "llama eot then header",
        raw("How lovely!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nAnything else?"),
    ),
    ("gemma model header, no end", raw("<start_of_turn>model\nAna sounds wonderful.")),
    ("fenced python call", raw('```python\nremember(collection="people", name="sister")\n```')),
]


def test_the_held_apart_set_reaches_the_owner_readable(fake: FakeProvider) -> None:
    unreadable = []
    for case, step in HELD_APART:
        reply = _ask(fake, "openai", step)
        why = _unreadable(reply.text)
        if why is not None:
            unreadable.append((case, why, reply.text[:60]))
    assert unreadable == []


def test_a_dreams_repeats_reach_core(fake: FakeProvider) -> None:
    """Only a turn's repeats are folded: core stops a dream that repeats an op (a loop)."""
    dream = CompletionRequest(
        purpose="dream", sections=(PromptSection("dream", "# Dream: consolidate\nnothing"),)
    )
    fake.script(tool_calls(*[call("remember", ANA)] * 3, text="tidied"))
    reply = ProviderChain([http_provider(fake, "openai")]).complete(dream)
    assert len(reply.ops) == 3
