"""Play between the owner and the pet (a groan at its joke, a riddle, a complaint about it, praise
with an aside), read by broker.offline (docs/brain.md, "Fourteenth pass").

    lmaooo thats terrible / hahaha thats so bad (after the pet's joke) -> a groan taken as a win
    what do you call a fish with no eyes? a fsh                        -> laughed at, not "I can't
                                                                          look that up"
    you never remember anything / you got my dad's city wrong last time -> owned up, not pitied
    you're a good listener, better than my brother                     -> thanked

Before the fourteenth pass these were "Tell me more!", "Okay!", "I can't look that up" or "That
sounds rough. Sending you a small hug." (a complaint about the pet read as the owner's bad day).
Nothing is kept: what the owner thinks of a joke or of the pet today is no fact about them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_praise import OWNED_UP, PRAISED
from shelldon.broker.offline_talk import JOKES, pick
from shelldon.broker.patterns import lazy

_LAUGH = r"(?:l+o+l+|l+m+a+o+|haha\w*|hehe\w*|ha|rofl|😂+|🤣+|omg|oh no|oh god|ugh|ok|okay)"
_GROAN = lazy(
    rf"^(?:{_LAUGH}[\s,!.]*)*(?:that(?:'s|’s| is| was)|thats|this is|what a|such a|so|wow)?\s*"
    r"(?:so |really |truly |actually |genuinely |very |pretty )*(?:bad|terrible|awful|"
    r"dreadful|cringe|corny|cheesy|lame|painful|rubbish|groan|dad joke|a dad joke)\b"
    r"(?:\s+(?:joke|one|pun))?[\s!.]*(?:lol|haha\w*|😂)?[\s!.]*$",
    re.IGNORECASE,
)
_LIKED = lazy(
    rf"^(?:{_LAUGH}[\s,!.]*)*(?:that(?:'s|’s| is| was)|thats|that one was|ok that (?:one )?was)?"
    r"\s*(?:so |really |actually |pretty )*(?:good|funny|hilarious|great|brilliant|clever)\b"
    r"(?:\s+(?:one|joke))?[\s!.]*(?:lol|haha\w*|😂)?[\s!.]*$",
    re.IGNORECASE,
)
_GROANED = (
    "Hehe, I'll take a groan as a win! Want another?",
    "Terrible is my speciality. 😄 I've got worse, if you dare.",
)
_LIKED_REPLY = (
    "Haha, glad it landed! I've got more where that came from.",
    "Yay, a laugh! That's my whole day made.",
)
# A riddle the owner tells: the question and its answer in one line.
_RIDDLE = lazy(
    r"^(?:what do you call (?:a|an|the|someone|somebody)|why (?:did|do|does|was|is|are|can't|"
    r"don't|couldn't) (?:the|a|an)|what did (?:the|one)|what does a|how do you \w+ (?:a|an)|"
    r"how does a|what's the difference between|what is the difference between|what's brown|"
    r"what is brown|did you hear about the|where do (?:the )?\w+s|what kind of \w+ (?:does|do|"
    r"did|has|can))\b[^?]{3,}\?\s*"
    r"(?:\S.{0,80})$",
    re.IGNORECASE,
)
_KNOCK = lazy(r"^knock[\s,]+knock[\s!.]*$", re.IGNORECASE)
_RIDDLE_HEARD = (
    "Haha! That's a good one, I'm stealing it.",
    "Hehe, I walked right into that one! 😄",
)
# A complaint about the pet's memory or a slip ("you never remember anything", "you got my
# dad's city wrong last time"), with a feeling said first ("I'm annoyed, …").
_FELT_FIRST = lazy(
    r"^(?:i(?:'m|’m| am)\s+(?:a bit |so |really |kinda )?(?:annoyed|cross|upset|fed up|"
    r"frustrated|disappointed|grumpy)(?: with you)?|ugh|honestly|tbh|come on|seriously)[\s,.!]+",
    re.IGNORECASE,
)
_COMPLAINT = lazy(
    r"^(?:you|u)\s+(?:(?:never|don't|dont|do not|can't|cant|cannot) (?:ever )?"
    r"(?:remember|listen|get (?:it|anything|things) right)"
    r"|(?:always|keep|kept) (?:forget\w*|getting (?:it|things|that) wrong|mixing)"
    r"|forgot (?:my|what|that|about|again|it)"
    r"|got (?:my|the|that|it|his|her|their|our)\b.{0,30}\bwrong"
    r"|(?:mixed|muddled)(?: up)? (?:up|it|them|that|my|his|her|their|our|the)"
    r"|said (?:it|that|my\b.{0,30}) wrong)\b",
    re.IGNORECASE,
)
# Praise with a comparison or an aside ("you're a better listener than Margit, don't tell her").
_PRAISED_MORE = lazy(
    r"^(?:you(?:'re|’re| are)|youre|ur)\s+(?:so |such |really |the |a |an |honestly )*"
    r"(?:good|great|better|best|lovely|brilliant|nice|kind)\s+(?:listener|friend|company|"
    r"pet|chat|little (?:guy|pet|thing)|buddy)\b.*$",
    re.IGNORECASE,
)
_SECRET_SAFE = lazy(r"\b(?:don'?t|dont|do not) tell\b", re.IGNORECASE)


def joke_told(pet_last: str) -> bool:
    """Whether the pet's last words were one of its jokes."""
    return any(joke in pet_last for joke in JOKES)


def banter(sentence: str, pet_last: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to play (see the module), or None for any other line."""
    s = " ".join(sentence.split()).strip()
    if joke_told(pet_last):
        if _GROAN.match(s):
            return pick(_GROANED, seed, avoid)
        if _LIKED.match(s):
            return pick(_LIKED_REPLY, seed, avoid)
    if _KNOCK.match(s):
        return "Who's there?"
    if _RIDDLE.match(s):
        return pick(_RIDDLE_HEARD, seed, avoid)
    bare = _FELT_FIRST.sub("", s)
    if _COMPLAINT.match(bare):
        return pick(OWNED_UP, seed, avoid)
    if _PRAISED_MORE.match(s) and not re.search(r"\bnot\b", s, re.IGNORECASE):
        praised = pick(PRAISED, seed, avoid)
        return f"{praised} Your secret's safe with me." if _SECRET_SAFE.search(s) else praised
    return None
