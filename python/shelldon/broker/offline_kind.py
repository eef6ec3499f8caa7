"""Small talk to the pet, answered in kind, read by broker.offline (docs/brain.md, "Tenth pass: a
pet, not a form-filler"): the questions people ask a friend, asked of the pet's own day.

    whats the weather like where you are   -> its shell has no weather; and where the owner is?
    what did you have for dinner           -> its own small meal; and the owner's?
    what are you thinking about?           -> the owner's last news, or the owner
    tell me about yourself                 -> who it is and what it does, in a few words
    have you seen it? / ever been to Rome? -> it cannot, from a pocket; how was it?

Before the tenth pass these were "I can't check that from here: my offline brain has no
internet. If you find out, tell me and I'll keep it in mind." (its own weather), "a big
question for a pocket pet", who the pet is, or "I don't know that yet. What is it?". The
owner's weather, the news and a sum stay offline_world's and offline_chat's. Nothing is kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import LazyPattern, lazy

_YOU = r"(?:you|u|ya)"
_END = r"(?:[\s,]+(?:today|tonight|now|then|yet|shelldon|buddy|lol|haha))*[\s?!.]*$"
_ASKED: tuple[tuple[str, LazyPattern, tuple[str, ...]], ...] = (
    (
        "weather",
        lazy(
            rf"^(?:what'?s|whats|what is|how'?s|hows|how is) (?:the )?weather(?: like)? "
            rf"(?:where {_YOU} (?:are|live)|(?:over )?there|in (?:there|your (?:shell|pocket)))"
            rf"|^is it (?:cold|warm|hot|sunny|raining) (?:where {_YOU} are|(?:in )?there)" + _END,
            re.IGNORECASE,
        ),
        (
            "No weather in my shell: it's always cosy in here! What's it like where you are?",
            "Sunny with a chance of you, in here. 🐢 How is it out there?",
        ),
    ),
    (
        "meal",
        lazy(
            rf"^(?:what did {_YOU} (?:have|eat) for (?:dinner|lunch|breakfast|tea)|"
            rf"what did {_YOU} eat|have {_YOU} (?:eaten|had (?:dinner|lunch|breakfast))|"
            rf"what(?:'s| is| are) {_YOU} (?:having|eating) for (?:dinner|lunch|breakfast|tea)|"
            rf"did {_YOU} (?:eat|have dinner|have lunch))" + _END,
            re.IGNORECASE,
        ),
        (
            "A little snack of electricity, my favourite! What did you have?",
            "I nibbled on a few bytes. Pocket pets eat light. What about you?",
        ),
    ),
    (
        "thinking",
        lazy(
            rf"^(?:what (?:are|r) {_YOU} thinking(?: about)?|what'?s on your mind|"
            rf"what {_YOU} thinking(?: about)?|penny for your thoughts)" + _END,
            re.IGNORECASE,
        ),
        (),
    ),
    (
        "yourself",
        lazy(
            rf"^(?:(?:so|ok|okay|now)[\s,]+)?(?:tell me (?:a bit |a little |more )?"
            rf"(?:about )?(?:yourself|about {_YOU})|what about {_YOU}rself|"
            rf"describe yourself)" + _END,
            re.IGNORECASE,
        ),
        (
            "I'm a small pet who lives in your pocket computer. I keep what you tell me, remind "
            "you of things, and love a chat. My favourite subject is you! What would you like to "
            "know?",
        ),
    ),
    (
        "seen",
        lazy(
            rf"^(?:(?:have|did) {_YOU} |ever )(?:ever )?(?:seen|watched|see|watch|read|heard of|"
            rf"heard|listened to|been to|been|tried|visited)\b.*$",
            re.IGNORECASE,
        ),
        (
            "I can't get out of my shell to see for myself, but I'd love to hear about it. What "
            "did you think?",
            "Not from in here! Tell me about it: was it good?",
        ),
    ),
)
_MINE = lazy(r"\b(?:my|our|mine|me)\b", re.IGNORECASE)
_THINKING = (
    "About you, mostly. You told me {x}, and I keep turning it over.",
    "I was thinking about what you said: {x}. How's that going?",
)
_THINKING_NONE = (
    "Mostly about you, and whether your day's been kind.",
    "Oh, this and that. Mostly whether you're doing alright. Are you?",
)


def in_kind(sentence: str, last_news: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to small talk about its own day; None for any other line. `last_news`:
    the owner's last statement in the window, in the second person ("" for none), for "what are
    you thinking about?"."""
    text = sentence.strip()
    tail = text.rsplit(",", 1)[-1].strip()  # "the film was Past Lives, have you seen it?"
    for kind, pattern, said in _ASKED:
        if not (pattern.match(text) or (kind == "seen" and pattern.match(tail))):
            continue
        if kind == "thinking":
            if last_news:
                return pick(_THINKING, seed, avoid).format(x=last_news.rstrip(".!"))
            return pick(_THINKING_NONE, seed, avoid)
        if kind == "seen" and _MINE.search(tail):
            return None  # "have you seen my keys?": not its day
        return pick(said, seed, avoid)
    return None
