"""The plain-text frames a small model writes around its words, taken off after the chat-template
tokens are (broker.weak_text.scrub calls `unframe`, then takes off stage directions and talk about
the prompt; docs/brain.md, "Weak models at the provider door").

A prompt format the server did not apply shows in the answer as plain text, not as tokens, and
each family is read as a class:
- a speaker label: the pet's own (`Assistant:`, `AI:`, `Bot:`, `Response:`, `Answer:`, an
  Alpaca `### Response:` header, OpenChat's `GPT4 Correct Assistant:`, in bold or not) opening the
  answer is dropped; another speaker's (`User:`, `Human:`, `USER:`, `### Instruction:`, `GPT4
  Correct User:`) after some words ends the pet's words, as a token that opens another turn does;
- an answer tag around the whole answer (`<answer>…</answer>`, `<response>`, `<reply>`,
  `<output>`, `<final_answer>`): the words inside are the answer;
- the whole answer in one pair of quotes, when no other quote of that kind is inside;
- newlines escaped twice (a JSON string encoded again, its `\\n` shown as backslash and n): when
  the text has no real line break and no code in it, `\\n`, `\\t` and `\\"` are what they stand for.

What is left is still checked by broker.reply_check like any answer: a label this does not take
off makes the reply a transcript there, and the next provider answers.
"""

from __future__ import annotations

import re

_OWN = r"assistant|ai|bot|chatbot|response|answer|reply|gpt4 correct assistant"
_OTHER = r"user|human|owner|gpt4 correct user"
# Only as an Alpaca-style `###` header: "Input:" or "Question:" may open a line of an answer.
_OTHER_HEADER = r"instruction|input|question|prompt|user|human"
# The label opening the answer: `### Response:`, `**Assistant:**`, `Assistant:`.
_OWN_LEAD = re.compile(
    rf"\A\s*(?:#{{1,4}}\s*)?(?:\*\*|__)?(?:{_OWN})(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*\n?",
    re.IGNORECASE,
)
# Another speaker's turn: a line that opens with its label (any casing), or, inside a line after
# a sentence's end, the label in capitals (`… a lovely name. USER: thanks`).
_OTHER_TURN = re.compile(
    rf"^[ \t]*(?:\*\*|__)?(?i:{_OTHER})(?:\*\*|__)?\s*:"
    rf"|^[ \t]*#{{1,4}}[ \t]*(?i:{_OTHER_HEADER})\s*:"
    rf"|(?<=[.!?…])[ \t]+(?:USER|HUMAN|INSTRUCTION|GPT4 Correct User)\s*:",
    re.MULTILINE,
)
_ANSWER_TAG = re.compile(
    r"\A\s*<(?P<tag>answer|response|reply|output|final_answer|final)>\s*(?P<words>.*?)\s*"
    r"(?:</(?P=tag)>\s*)?\Z",
    re.IGNORECASE | re.DOTALL,
)
_QUOTE_PAIRS = {'"': '"', "“": "”"}
_ESCAPED_BREAK = re.compile(r"\\[nt\"]")
# A line break escaped twice sits where a break would: before a capital, a digit, a list mark or
# another break (`Ana!\\nWhat`); `C:\\new\\notes` is a path.
_BREAK_SHAPE = re.compile(r"\\n(?=[A-Z0-9*•\-\\ ]|$)")
_ESCAPES = {"\\n": "\n", "\\t": "\t", '\\"': '"'}
_CODE = re.compile(r"`|\b(?:print|printf|echo|split|join|replace|strip)\b|['\"]\\n['\"]")


def unframe(text: str) -> tuple[str, bool]:
    """`text` without the frames the module's docstring lists, and whether any was taken off."""
    before = text
    text = _unescaped(text.strip())
    tagged = _ANSWER_TAG.fullmatch(text)
    if tagged is not None and tagged.group("words"):
        text = tagged.group("words")
    lead = _OWN_LEAD.match(text)
    if lead is not None and text[lead.end() :].strip():
        text = text[lead.end() :]
    other = _OTHER_TURN.search(text)
    if other is not None and text[: other.start()].strip():
        text = text[: other.start()]
    text = _unquoted(text.strip())
    return text, text != before.strip()


def _unescaped(text: str) -> str:
    if "\n" in text or "\\n" not in text or _CODE.search(text):
        return text
    if text.count("\\n") != len(_BREAK_SHAPE.findall(text)):
        return text
    return _ESCAPED_BREAK.sub(lambda m: _ESCAPES[m.group(0)], text)


def _unquoted(text: str) -> str:
    if len(text) < 3:
        return text
    close = _QUOTE_PAIRS.get(text[0])
    if close is None or text[-1] != close:
        return text
    inner = text[1:-1]
    if text[0] in inner or close in inner:
        return text
    return inner.strip() or text
