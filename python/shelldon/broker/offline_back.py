"""A question turned back at the end of a message, read by broker.offline (docs/brain.md,
"Eleventh pass: other owners"): "I'm Yuki. I'm a nurse and I live in Bristol. What about you?",
"I love hiking. how about you?", "long day at work. wbu?".

The owner's lines are read as ever; the last one asks the pet the same of itself, and is
answered by what came before: a liking ("I'd love to try hiking, if I could get out of my
shell!"), how the owner is ("I'm doing well, thanks for asking!"), else who the pet is. Before
the eleventh pass the question went unanswered (an introduction swallowed it) or was read as
a gap in memory ("I don't know that yet. Tell me and I'll remember."). Nothing is kept of it.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_moods import within
from shelldon.broker.offline_talk import felt_within
from shelldon.broker.patterns import lazy

_BACK = lazy(
    r"^(?:(?:and|so|but|ok|okay)[\s,]+)?(?:what about you|how about you|and you|what about "
    r"yourself|how about yourself|yourself|wbu|hbu|you|u|and u|what about u|how about u)"
    r"(?:[\s,]+(?:shelldon|buddy|little one))?[\s?!.]*$",
    re.IGNORECASE,
)
_LIKING = lazy(
    r"\bi (?:really |just |absolutely )?(?:love|like|enjoy|adore) ([a-z][\w' -]{1,30}?)"
    r"(?: so much| a lot)?[\s.!]*$",
    re.IGNORECASE,
)
_HOW = lazy(r"\b(?:good|fine|great|ok|okay|alright|not bad|well)\b", re.IGNORECASE)


def turned_back(lines: list[str]) -> tuple[list[str], bool]:
    """The lines without a last one that only turns the question back, and whether it did."""
    if len(lines) > 1 and _BACK.match(lines[-1].strip()):
        return lines[:-1], True
    return lines, False


def answer(before: list[str], pet_name: str, introduced: bool) -> str | None:
    """The pet's answer about itself to what the owner said `before`; None when the reply
    already says who the pet is (`introduced`) and there is nothing else to say back."""
    last = before[-1].strip() if before else ""
    liked = _LIKING.search(last)
    if liked and not re.match(r"(?:you|it|that|this|him|her|them)\b", liked.group(1), re.I):
        return f"Me? I'd love to try {liked.group(1)}, if I could get out of my shell!"
    if felt_within(last) or within(last) or (len(last.split()) <= 5 and _HOW.search(last)):
        return "Me? I'm doing well, thanks for asking!"
    if introduced:
        return None
    return (
        f"Me? I'm {pet_name}, a small pet who lives in your pocket computer. I keep what you "
        "tell me, and I love a chat."
    )
