"""Small sums the offline brain works out itself, read by broker.offline (docs/brain.md,
"Eleventh pass: other owners"): a share of a number, and a sum written with a number in words.

    what's 15% of 80?               -> 15% of 80 is 12.
    what is twenty percent of 150?  -> 20% of 150 is 30.
    how much is 100 divide by 4     -> 100 divided by 4 is 25.
    15% of 80                       -> the same, asked without a question word

Before the eleventh pass these were "no internet" (a share, a number in words), "You told me
15% of 80." or "I hear you." A tiny reader: two numbers and one operation, never `eval`; the
plain "what's 17 times 23?" stays offline_world.sum_of's. Nothing is kept.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_world import sum_of as _plain_sum
from shelldon.broker.patterns import lazy

_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORD = "|".join((*_TENS, *_UNITS, "hundred", "a hundred"))
# A number in figures, or in words up to a hundred ("twenty", "forty-five", "a hundred").
_NUMBER = rf"(-?\d+(?:[.,]\d+)?|(?:{_WORD})(?:[\s-](?:{'|'.join(_UNITS[1:10])}))?)"
_ASK = (
    r"^(?:(?:hey|so|ok|okay|quick one|quick question)[\s,]+)*(?:(?:what(?:'s|’s| is)|whats|"
    r"how much is|calculate|compute|work out|can you (?:work out|calculate|do))\s+)?"
)
_SHARE = lazy(
    _ASK + _NUMBER + r"\s*(?:%|percent|per cent)\s+of\s+" + _NUMBER + r"\s*[?=!.]*$",
    re.IGNORECASE,
)
_WORDED = lazy(
    _ASK
    + _NUMBER
    + r"\s+(plus|add|minus|take away|times|multiplied by|x|divided by|divide by|divided with|"
    r"over|\+|-|\*|/)\s+" + _NUMBER + r"\s*[?=!.]*$",
    re.IGNORECASE,
)
_SIGN = {
    "plus": "plus",
    "add": "plus",
    "+": "plus",
    "minus": "minus",
    "take away": "minus",
    "-": "minus",
    "times": "times",
    "multiplied by": "times",
    "x": "times",
    "*": "times",
    "divided by": "divided by",
    "divide by": "divided by",
    "divided with": "divided by",
    "over": "divided by",
    "/": "divided by",
}


def number(said: str) -> float | None:
    """ "15" -> 15.0, "2,5" -> 2.5, "forty-five" -> 45.0, "a hundred" -> 100.0; None otherwise."""
    text = said.strip().casefold().replace("a hundred", "hundred")
    if re.fullmatch(r"-?\d+(?:[.,]\d+)?", text):
        return float(text.replace(",", "."))
    total = 0
    for word in re.split(r"[\s-]+", text):
        if word == "hundred":
            total = (total or 1) * 100
        elif word in _TENS:
            total += 20 + 10 * _TENS.index(word)
        elif word in _UNITS:
            total += _UNITS.index(word)
        else:
            return None
    return float(total)


def _said(value: float) -> str:
    return f"{value:.10g}"


def worked(question: str) -> str | None:
    """The answer to a small sum, or None when the line is not one."""
    text = question.strip()
    plain = _plain_sum(text)
    if plain is not None:
        return plain
    found = _SHARE.match(text)
    if found:
        share, whole = number(found.group(1)), number(found.group(2))
        if share is None or whole is None:
            return None
        return f"{_said(share)}% of {_said(whole)} is {_said(share * whole / 100)}."
    found = _WORDED.match(text)
    if not found:
        return None
    a, how, b = number(found.group(1)), _SIGN[found.group(2).casefold()], number(found.group(3))
    if a is None or b is None:
        return None
    if how == "divided by" and b == 0:
        return "Dividing by zero? Even my shell can't hold that one."
    value = {"plus": a + b, "minus": a - b, "times": a * b}.get(how, a / b if b else 0.0)
    return f"{_said(a)} {how} {_said(b)} is {_said(value)}."
