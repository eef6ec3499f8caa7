"""Slang read as meant before the offline brain's rules: a hedge inside a line read past, "mid"
as "meh", a thing called so-so answered about (docs/brain.md, "Twelfth pass: conversations it
has never seen"):

- a hedge inside a line ("im lowkey panicking", "this is highkey the best") is read past, as
  offline_chat.plain reads one at either end ("ngl", "tbh");
- "mid" said of something ("today was mid", "these notes are so mid", "mid af") is "meh":
  the day then is an ordinary one (offline_asides), a thing a so-so one (`verdict`);
- `verdict`: a thing called dull or so-so ("these lecture notes are so meh", "the film is
  boring") is answered about the thing, never "I hear you." nor kept as a fact.

Before the twelfth pass "ngl im lowkey panicking" was "Mm-hm, I'm listening." and "these lecture
notes are so mid" "I hear you.". Nothing here is kept: a verdict on the day is history's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy

_HEDGE = lazy(r"(?<=\S)\s+(?:lowkey|highkey|lowk|deadass|lowkey kinda)(?=\s+\w)", re.IGNORECASE)
# "mid" as a verdict: after a "be" or a degree word, or the whole line; never "mid-morning",
# "the mid 90s" or "in mid May".
_MID = lazy(
    r"(\b(?:is|was|are|were|so|kinda|pretty|bit|lowkey|honestly|mad|lwk)\s+|['’]s\s+|^\s*)"
    r"mid\b(?![-'’])(?!\s+(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|"
    r"(?:morning|afternoon|evening|week|month|year|term|season)\b))",
    re.IGNORECASE,
)
_THING = (
    r"(?:the|this|that|these|those|my|our|his|her|their)\s+[\w'’ -]{1,30}?|"
    r"it|this|that|they|those|these|class|school|uni|work|lectures?|revision|today|tonight"
)
_VERDICT = lazy(
    rf"^(?P<thing>{_THING})(?:\s+(?P<be>is|are|was|were)|(?P<s>['’]s))\s+"
    r"(?:(?:so|really|very|pretty|kinda|kind of|a bit|honestly|just|super|soo+)\s+)*"
    r"(?P<how>meh|boring|mediocre|trash|rubbish|dull|whatever|forgettable|underwhelming|"
    r"overrated|so-so|average|dragging|a drag|never-ending|endless)\b(?:\s+af)?[\s!.]*$",
    re.IGNORECASE,
)
_SO_SO = (
    "Not exactly thrilling, huh? 😐 What {is_} wrong with {it}?",
    "Meh indeed. What would {make} {it} better?",
)
_SLOW = (
    "Ugh, the slow ones feel twice as long. Hang in there!",
    "Oof, crawling along? Hang in there.",
)
# A day said so-so is offline_asides' ("today was mid": an ordinary one).
_A_DAY = lazy(
    r"^(?:today|yesterday|tonight|last night|(?:the|my|this|our) (?:day|week|weekend|morning|"
    r"evening|night|shift))$",
    re.IGNORECASE,
)


def read(sentence: str) -> str:
    """The sentence with a hedge inside it read past and "mid" as "meh"."""
    text = _HEDGE.sub("", sentence)
    return _MID.sub(lambda m: m[1] + ("Meh" if m[0][len(m[1]) :].startswith("M") else "meh"), text)


def verdict(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's word on a thing called so-so or dull; None for any other line (a day that was
    so-so is offline_asides')."""
    found = _VERDICT.match(sentence.strip())
    if found is None:
        return None
    if _A_DAY.match(found["thing"]):  # "this shift is dragging": slow, not so-so
        slow = found["how"].casefold() in ("dragging", "a drag", "never-ending", "endless")
        return pick(_SLOW, seed, avoid) if slow else None
    be = (found["be"] or "is").casefold()
    past = be in ("was", "were")
    plural = be in ("are", "were") or found["thing"].casefold() in ("they", "these", "those")
    return pick(_SO_SO, seed, avoid).format(
        it="them" if plural else "it",
        is_="was" if past else "is",
        make="have made" if past else "make",
    )
