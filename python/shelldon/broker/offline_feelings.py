"""Feelings named in words the mood lists do not hold, read by broker.offline (docs/brain.md,
"Thirteenth pass"): each met with words of its own, never kept as a fact.

    I'm feeling a bit homesick tbh          -> homesick: what they miss most about home
    feeling overwhelmed with everything      -> overwhelmed: the one thing that comes first
    kinda burnt out to be honest             -> drained: what would refill them a little
    a bit nostalgic tonight, old photos      -> nostalgic: a memory that made them smile
    so restless today, can't settle          -> restless: what they would do if they could
    bit on edge about my results tbh         -> on edge: what is coming, or only a feeling
    felt really left out at the party        -> left out: it stings; what happened

Before the thirteenth pass these were "I hear you.", "Tell me more!", "A bit nostalgic tonight,
good to know." or, for "burnt out", the giggle the pet keeps for burnt toast. A line about someone
else ("my mum is homesick"), a question ("are you ever homesick?"), a "not" before the feeling,
or a line that also tells a fact ("I live in Leeds and I'm homesick": the fact rules keep it) is
left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy

_KINDS = (
    (
        "homesick",
        r"homesick|home ?sick|missing home|miss(?:ing)? (?:being )?(?:back )?home|"
        r"miss(?:ing)? (?:my family|everyone) back home",
    ),
    (
        "overwhelmed",
        r"overwhelmed|swamped|snowed under|drowning in|(?:too|so) much on my plate|"
        r"in over my head|everything(?:'s| is) piling up",
    ),
    (
        "drained",
        r"drained|burnt out|burned out|burnout|running on empty|frazzled|worn down|"
        r"wiped out|nothing left in the tank",
    ),
    ("nostalgic", r"nostalgic|sentimental|reminiscing|missing the old days"),
    (
        "restless",
        r"restless|antsy|fidgety|can'?t settle|can'?t sit still|itchy feet|stir[- ]crazy|"
        r"cooped up",
    ),
    ("on edge", r"on edge|jumpy|jittery|wound up|on tenterhooks|keyed up|unsettled"),
    (
        "left out",
        r"left out|excluded|out of the loop|like an outsider|(?:don'?t|do not) fit in|"
        r"invisible|like a third wheel",
    ),
)
_FEELING = lazy(
    r"\b(?:" + "|".join(f"(?P<{k.replace(' ', '_')}>{p})" for k, p in _KINDS) + r")\b",
    re.IGNORECASE,
)
# Not the owner's feeling, or more than a feeling.
_SOMEONE_ELSE = lazy(
    r"^(?:(?:honestly|tbh|so|and|but)[\s,]+)?(?:my|our|his|her|their|he|she|they|you|it)\b"
    r"(?! (?:plate|head|tank)\b)",
    re.IGNORECASE,
)
_NOT = lazy(r"\b(?:not|never|no longer|isn'?t|aren'?t|don'?t feel)\b", re.IGNORECASE)
_FACT = lazy(
    r"\bi (?:live|work|moved|study)\b|\bi(?:'m| am|m) (?:a|an) (?!bit\b|little\b)\w+|"
    r"\bmy \w+(?: \w+)? (?:is|are) called\b",
    re.IGNORECASE,
)

_REPLIES = {
    "homesick": (
        "Oh, homesickness is such a tender ache. Sorry you're feeling it. What do you miss most "
        "about home?",
        "Missing home sounds hard. Is there someone back there you could call tonight, or a "
        "taste of home you could cook?",
    ),
    "overwhelmed": (
        "That's a lot to carry all at once. Let's make it smaller: what's the one thing that "
        "really has to happen first?",
        "Oof, sorry, that sounds like too much at once. You don't have to do it all today. What "
        "could wait?",
    ),
    "drained": (
        "Sounds like you're running on empty. I'm sorry. What's one small thing that would "
        "refill you a little, even tonight?",
        "Burnout is tough, and it isn't a failing: it means you've given a lot. Can anything "
        "come off your plate this week?",
    ),
    "nostalgic": (
        "Aw, that sounds like a tender sort of evening. What's a memory that made you smile?",
        "Nostalgia sounds bittersweet tonight. Which time do you find yourself missing most?",
    ),
    "restless": (
        "Sounds like an itchy-feet sort of day. A short walk sometimes shakes the fidgets out. "
        "What would you do right now if you could do anything?",
        "Restless days are tough: everything and nothing at once. Is something on your mind, or "
        "is it just one of those days?",
    ),
    "on edge": (
        "Sorry you're on edge. Waiting is its own kind of tough. Is it something coming up, or a "
        "feeling that won't settle?",
        "That sounds tense. Try one slow breath with me. What's the part that worries you most?",
    ),
    "left out": (
        "Oh, I'm sorry. Being left out stings, even when nobody meant it. Do you want to tell "
        "me what happened?",
        "That sounds lonely, and it hurts. I'm glad you told me. Who would you have wanted to "
        "notice you?",
    ),
}


def named(sentence: str) -> str | None:
    """The feeling a line names (see the module), or None."""
    text = sentence.strip()
    if text.endswith("?") or _SOMEONE_ELSE.match(text) or _FACT.search(text):
        return None
    found = _FEELING.search(text)
    if found is None or _NOT.search(text[: found.start()]):
        return None
    return next(k for k, _ in _KINDS if found.group(k.replace(" ", "_")))


def reply(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's words for a feeling a line names, or None."""
    kind = named(sentence)
    return None if kind is None else pick(_REPLIES[kind], seed, avoid)
