"""What a small model served by llama.cpp, Ollama or vLLM wraps around its words, taken off
before the reply is parsed and checked (docs/brain.md, "Weak models at the provider door").

Three families, each read as a class, not as a list of strings:
- reasoning: a `<think>`, `<thinking>`, `<reasoning>` or `<thought>` block in any casing, closed,
  unclosed (cut while thinking: nothing is left), nested, or closed with no opener (a Qwen3 or
  DeepSeek-R1 template opens the block in the prompt, so the answer starts inside it): everything
  up to the last closing tag is reasoning;
- chat-template control tokens the server did not strip: any `<|…|>` token (ChatML, Llama 3,
  Phi, DeepSeek's full-width `<｜…｜>`), `<s>`/`</s>`/`<eos>`-style tokens, Gemma's
  `<start_of_turn>`/`<end_of_turn>`, Mistral's `[INST]`/`[/INST]`/`[TOOL_CALLS]`-style capitals in
  brackets, Llama 2's `<<SYS>>`. An end-of-turn token, or a header that opens another speaker's
  turn, ends the pet's words (what follows is the model writing the owner's next line); a header
  of the pet's own turn is dropped; any other token is removed;
- tool calls written as text instead of the wire's `tool_calls`: a `<tool_call>`-style tag block
  (Hermes, Qwen; `<function_call>`, `<tool_use>`, `<function=…>`, `<invoke>`, `<function_calls>`),
  Llama's `<|python_tag|>` call, Mistral's `[TOOL_CALLS]` and Phi's `functools[…]` prefixes, and
  any JSON value shaped like a call (`{"name": …, "arguments"|"parameters": …}`, a
  `"function"`/`"tool_calls"` wrapper, a list of them), bare or in a code fence. They are removed
  from the words and never proposed: the project has no policy for reading ops out of free text in
  tools mode (the JSON protocol's own `{"op": …}` objects are not touched here), so a call written
  as text is logged as dropped, and the rules' backstop keeps what the owner said;
- in tools mode only (`scrub(…, tools=True)`), the other protocol written as text: any JSON value
  shaped like the reply protocol's ops (an envelope with `ops`, an op `{"op": …}` or one of the
  near-miss shapes `broker.op_shapes` reads, a list of them), bare or in a code fence. Ops come
  only as tool calls there, so these are removed from the words and never proposed.

Last, a prompt format written as plain text is taken off (broker.weak_frames), then stage
directions (broker.stage_directions) and lead-ins and notes about the prompt (broker.prompt_talk).

`scrub` returns the words and the notes for `BrainReply.dropped`; the notes never quote the text.

`loads_arguments` reads a native tool call's arguments through the near misses of JSON a small
model writes (the object encoded twice, single quotes, trailing commas): spellings of the same
object, as `broker.op_shapes` reads near-miss op shapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from shelldon.broker.op_shapes import OP_TAGS, reshaped
from shelldon.broker.prompt_talk import without_prompt_talk
from shelldon.broker.stage_directions import without_directions
from shelldon.broker.weak_frames import unframe
from shelldon.contracts.json_in import loads_mended

_DECODER = json.JSONDecoder(strict=False)

# --- reasoning ------------------------------------------------------------------------------
_REASON_TAG = r"(?:think|thinking|reasoning|thought)"
_REASON_OPEN = re.compile(rf"<{_REASON_TAG}\s*>", re.IGNORECASE)
_REASON_CLOSE = re.compile(rf"</{_REASON_TAG}\s*>", re.IGNORECASE)

# --- chat-template tokens -------------------------------------------------------------------
# The pet's own turn, and Harmony's channel for the words (its `analysis` is reasoning).
_OWN_ROLES = frozenset(
    {"assistant", "model", "bot", "ai", "gpt", "shelldon", "pet", "final", "chatbot"}
)
# A header that names the speaker of the turn it opens.
_HEADER = re.compile(
    r"<[|｜]im_start[|｜]>[ \t]*(?P<a>\w+)[ \t]*\n?"
    r"|<[|｜]start_header_id[|｜]>[ \t]*(?P<b>\w+)[ \t]*<[|｜]end_header_id[|｜]>"
    r"|<start_of_turn>[ \t]*(?P<c>\w+)[ \t]*\n?"
    r"|<[|｜](?P<d>user|assistant|system|tool|model|human|ipython|chatbot)(?:_token)?[|｜]>"
    r"|<[|｜](?P<e>User|Assistant)[|｜]>"
    # gpt-oss (Harmony): `<|start|>assistant`, then `<|channel|>analysis|final<|message|>`.
    r"|<[|｜]start[|｜]>[ \t]*(?P<f>\w+)"
    r"|<[|｜]channel[|｜]>[ \t]*(?P<g>\w+)[^<>\n]{0,80}?<[|｜]message[|｜]>"
    # Any other format that writes the role between two tokens (Granite's
    # `<|start_of_role|>assistant<|end_of_role|>`).
    r"|<[|｜][^<>|｜\n]{1,32}[|｜]>[ \t]*(?P<h>user|assistant|system|tool|model|human)[ \t]*"
    r"<[|｜][^<>|｜\n]{1,32}[|｜]>",
    re.IGNORECASE,
)
_END_NAMES = re.compile(
    r"im_end|eot_id|eom_id|end|endoftext|end_of_text|eos|eot|end_of_turn|end▁of▁sentence"
    r"|end_of_sentence|return|call",
    re.IGNORECASE,
)
_ANY_TOKEN = re.compile(
    r"<[|｜][^<>|｜\n]{1,48}[|｜]>"
    r"|</?(?:s|eos|bos|unk|pad|eot|end_of_turn|start_of_turn|end_of_text)>"
    r"|(?-i:\[/?[A-Z]{3,}(?:_[A-Z]+)*\])"
    r"|<</?SYS>>",
    re.IGNORECASE,
)
# Mistral's instruction brackets: [INST] opens the owner's turn, [/INST] the model's.
_OTHER_OPENERS = frozenset({"[inst]", "<<sys>>"})
_OWN_OPENERS = frozenset({"[/inst]", "<</sys>>"})

# --- tool calls as text ---------------------------------------------------------------------
# Any tag of the tool or function family (`<tool_call>`, `<tool_code>`, `<function_calls>`, …).
_CALL_TAG = r"(?:tool(?:_[a-z]{1,12})*|function(?:_[a-z]{1,12})*|invoke|api_call)"
_CALL_BLOCK = re.compile(
    rf"<(?P<tag>{_CALL_TAG})\b[^>]*>.*?(?:</(?P=tag)\s*>|\Z)", re.IGNORECASE | re.DOTALL
)
_STRAY_CALL_TAG = re.compile(rf"</?{_CALL_TAG}\b[^>]*>", re.IGNORECASE)
_PYTHON_TAG = re.compile(r"<[|｜]python_tag[|｜]>.*", re.IGNORECASE | re.DOTALL)
# A call between template tokens (DeepSeek's `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`, any
# `<|tool_call|>`-named token): from the first such token to its end token or the text's end.
_CALL_TOKENS = re.compile(
    r"<[|｜]tool[▁_ ]?calls?(?:[▁_ ]begin)?[|｜]>.*?(?:<[|｜]tool[▁_ ]?calls?[▁_ ]end[|｜]>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_CALL_PREFIX = re.compile(r"\[TOOL_CALLS\]|\bfunctools\b", re.IGNORECASE)
_ARG_KEYS = ("arguments", "parameters", "args", "input", "kwargs")
_FUNCTION_NAME = re.compile(r"[a-z_][a-z0-9_.]{0,63}")
_EMPTY_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?\s*```")
_SCAN_LIMIT = 64  # JSON starts tried per text
_JSON_START = re.compile(r"[\[{]")


TEXT_OPS_NOTE = "op(s) of the JSON protocol written as text in tools mode removed; not proposed"


def scrub(text: str, *, tools: bool = False) -> tuple[str, list[str]]:
    """`text` without reasoning, template tokens and text-form tool calls (and in tools mode, the
    JSON protocol's ops written as text); the notes say which."""
    notes: list[str] = []
    text, found = without_reasoning(text)
    if found:
        notes.append("body: reasoning block removed")
    text, calls = _without_text_calls(text)
    if calls:
        notes.append(f"reply: {calls} tool call(s) written as text removed; not proposed")
    if tools:
        text, ops = _without_json(text, imitates_protocol)
        if ops:
            notes.append(f"reply: {ops} {TEXT_OPS_NOTE}")
    text, tokens = _without_tokens(text)
    if tokens:
        notes.append("reply: chat-template tokens removed")
    text, framed = unframe(text)
    if framed:
        notes.append("reply: a prompt format's plain-text frame removed")
    text, directions = without_directions(text)
    if directions:
        notes.append(f"reply: {directions} stage direction(s) removed")
    text, talk = without_prompt_talk(text)
    if talk:
        notes.append(f"reply: {talk} lead-in(s) or note(s) about the prompt removed")
    return text.strip(), notes


def has_reasoning(text: str, end: int) -> bool:
    """Does a reasoning tag (opening or closing) appear in `text` before `end`?"""
    return bool(_REASON_OPEN.search(text, 0, end) or _REASON_CLOSE.search(text, 0, end))


def reasoning_ends(text: str) -> list[int]:
    """Where each closing reasoning tag ends, first to last."""
    return [match.end() for match in _REASON_CLOSE.finditer(text)]


def without_reasoning(text: str) -> tuple[str, bool]:
    """`text` after its reasoning (see the module's docstring), and whether there was any."""
    closes = list(_REASON_CLOSE.finditer(text))
    found = False
    if closes:
        text = text[closes[-1].end() :]
        found = True
    opened = _REASON_OPEN.search(text)
    if opened is not None:  # unclosed: cut while thinking, or a block left open after the answer
        text = text[: opened.start()]
        found = True
    return text, found


def _is_call(value: Any) -> bool:
    """A JSON value shaped like a tool call (or a list of them)."""
    if isinstance(value, list):
        return bool(value) and all(_is_call(item) for item in value)
    if not isinstance(value, dict):
        return False
    if isinstance(value.get("tool_calls"), list) or isinstance(value.get("function_call"), dict):
        return True
    function = value.get("function")
    if isinstance(function, dict) and isinstance(function.get("name"), str):
        return True
    name = value.get("name", value.get("tool_name", value.get("tool")))
    # A function's name (`remember`, `save_memory`), not a person's ({"name": "Ana", "args": …}
    # in JSON the owner asked for stays).
    return (
        isinstance(name, str)
        and _FUNCTION_NAME.fullmatch(name) is not None
        and any(key in value for key in _ARG_KEYS)
    )


def imitates_protocol(value: Any) -> bool:
    """A JSON value shaped like the reply protocol's ops: an envelope holding `ops` (any casing),
    an op (`{"op": …}` with a field, or a near-miss shape `broker.op_shapes` reads as a known op),
    or a list of them."""
    if isinstance(value, list):
        return bool(value) and all(imitates_protocol(item) for item in value)
    if not isinstance(value, dict):
        return False
    if any(isinstance(key, str) and key.casefold() == "ops" for key in value):
        return True
    tag = value.get("op")
    if isinstance(tag, str) and _FUNCTION_NAME.fullmatch(tag.strip().lower()) and len(value) > 1:
        return True
    shaped = reshaped(value)[0].get("op")
    return isinstance(shaped, str) and shaped in OP_TAGS


def _without_text_calls(text: str) -> tuple[str, int]:
    count = 0
    text, n = _CALL_BLOCK.subn(" ", text)
    count += n
    text, n = _PYTHON_TAG.subn(" ", text)
    count += n
    text, n = _CALL_TOKENS.subn(" ", text)
    count += n
    text, n = _STRAY_CALL_TAG.subn(" ", text)
    text, n = _without_json(text, _is_call)
    count += n
    if count:
        text = _CALL_PREFIX.sub(" ", text)  # a prefix whose call was cut off too
        text = _EMPTY_FENCE.sub(" ", text)
    return text, count


def _without_json(text: str, shaped: Callable[[Any], bool]) -> tuple[str, int]:
    """`text` without the JSON values `shaped` picks (with a call prefix just before one, and a
    code fence left empty), and how many there were."""
    count = 0
    out: list[str] = []
    pos = 0
    tries = 0
    index = 0
    while tries < _SCAN_LIMIT:
        match = _JSON_START.search(text, index)
        if match is None:
            break
        start = match.start()
        tries += 1
        try:
            value, end = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            index = start + 1
            continue
        if shaped(value):
            prefix = _CALL_PREFIX.search(text, pos, start)
            joined = prefix is not None and not text[prefix.end() : start].strip()
            out.append(text[pos : prefix.start() if prefix and joined else start])
            pos = end
            count += 1
        index = end
    out.append(text[pos:])
    text = "".join(out)
    if count:
        text = _EMPTY_FENCE.sub(" ", text)
    return text, count


def _token_kind(match: re.Match[str]) -> tuple[str, str]:
    """("own" | "other" | "end" | "drop", the token's role or name)."""
    token = match.group(0)
    header = _HEADER.fullmatch(token)
    if header is not None:
        role = next(g for g in header.groups() if g is not None).casefold()
        return ("own" if role in _OWN_ROLES else "other"), role
    folded = token.casefold()
    if folded in _OTHER_OPENERS:
        return "other", folded
    if folded in _OWN_OPENERS:
        return "own", folded
    name = folded.strip("<>[]/|｜")
    if token.startswith("</") or _END_NAMES.fullmatch(name):
        return "end", name
    return "drop", name


def _tokens(text: str) -> list[re.Match[str]]:
    """Headers (with the role they name) first, then any other token, in order."""
    found: list[re.Match[str]] = []
    pos = 0
    while pos < len(text):
        header = _HEADER.search(text, pos)
        token = _ANY_TOKEN.search(text, pos)
        first = min(
            (m for m in (header, token) if m is not None), key=lambda m: m.start(), default=None
        )
        if first is None:
            break
        if header is not None and token is not None and header.start() == token.start():
            first = header  # a header is longer than the token it starts with
        found.append(first)
        pos = first.end()
    return found


def _without_tokens(text: str) -> tuple[str, bool]:
    tokens = _tokens(text)
    if not tokens:
        return text, False
    kept: list[str] = []
    speaking = True  # the answer starts in the pet's own turn
    pos = 0
    for token in tokens:
        if speaking:
            kept.append(text[pos : token.start()])
        pos = token.end()
        kind, _ = _token_kind(token)
        said = "".join(kept).strip()
        if kind == "own":
            speaking = True
        elif kind == "other":
            if said:
                return said, True  # the model went on to write another speaker's turn
            speaking = False  # an echoed turn before its own: skipped
        elif kind == "end" and said:
            return said, True
    if speaking:
        kept.append(text[pos:])
    return "".join(kept), True


# --- a tool call's arguments in a small model's near-JSON -------------------------------------
_PY_WORDS = {"True": "true", "False": "false", "None": "null"}
_MAX_ARGUMENT_CHARS = 64_000


def loads_arguments(text: str, _depth: int = 0) -> tuple[Any, list[str]]:
    """A tool call's arguments, read through a small model's near misses of JSON: the object
    encoded as a JSON string a second time, single-quoted strings and Python's True/False/None,
    trailing commas. Only spellings: what comes back is what the model wrote, and core decodes
    and gates it like any op. Returns (value, what was mended); raises ValueError as json does."""
    mended: list[str] = []
    try:
        value = loads_mended(text)
    except (ValueError, RecursionError):
        if len(text) > _MAX_ARGUMENT_CHARS:
            raise ValueError("arguments too long to mend") from None
        value = loads_mended(_as_json(text))
        mended.append("near-JSON (quotes, commas) read as JSON")
    if isinstance(value, str) and value.strip()[:1] in ("{", '"') and _depth < 3:
        try:
            inner, more = loads_arguments(value.strip(), _depth + 1)
        except (ValueError, RecursionError):
            return value, mended
        if isinstance(inner, dict):
            return inner, ["a JSON string of the object, decoded once more", *more, *mended]
    return value, mended


def _as_json(text: str) -> str:
    """Single-quoted strings as JSON strings, Python's constants as JSON's, trailing commas gone."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i, '"')
            out.append(text[i:end])
            i = end
        elif ch == "'":
            end = _string_end(text, i, "'")
            body = text[i + 1 : end - 1] if end - 1 > i else text[i + 1 :]
            out.append(json.dumps(body.replace("\\'", "'"), ensure_ascii=False))
            i = end
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                i = j  # a trailing comma
            else:
                out.append(ch)
                i += 1
        elif ch.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            out.append(_PY_WORDS.get(word, word))
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just past the string opened at `start` (the text's end when unclosed)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)
