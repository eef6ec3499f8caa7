"""How the owner feels, said the way people type it, read by broker.offline after
offline_talk.feeling (docs/brain.md, "The audit pass: chat as owners type it"):

- a mood with no "I'm" ("so tired", "stressed about money", "excited!!"; offline_chat.plain has
  already dropped the "rn", "af" and held letters of "soooo tired rn");
- a state said with a negation ("didn't sleep at all", "not feeling great", "can't be
  bothered"), which offline_talk.feeling leaves alone so "I'm not tired" is never read as tired;
- being unwell ("my head is killing me", "my back hurts", "got a cold", "feeling rough");
- the worst of a day ("had the worst day", "what a week");
- a shrug ("meh", "ugh", "bleh").

`mood` gives the kind ("ill", "tired", "low", "high", "meh") or None; `reply` the pet's words,
varied by the turn's seed (offline_talk.pick). Nothing here is kept: how the owner feels today is
history's, not memory's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import feeling_reply, pick
from shelldon.broker.patterns import lazy

_SO = r"(?:(?:so|really|very|super|kinda|kind of|a bit|pretty|totally|just|feeling|been|too)\s+)*"
_BARE = {
    "tired": "tired|exhausted|knackered|shattered|sleepy|drained|wiped out|burnt out|burned out",
    "low": "stressed|anxious|worried|nervous|sad|lonely|upset|miserable|depressed|overwhelmed|"
    "frustrated|annoyed|angry|fed up|heartbroken|down in the dumps",
    # "happy birthday!" is a wish, not a mood.
    "high": r"happy(?!\s+(?:new year|holidays|\w+day|\w+mas|anniversary|easter|hour))|excited|"
    "thrilled|stoked|buzzing|pumped|over the moon",
    # Not "ill" ("ill be there" is "I'll") nor "rough" ("rough day" is a day, not an illness).
    "ill": "sick|unwell|poorly|under the weather",
}
_MOODS = (
    # Unwell: a part of the owner that hurts, an illness caught, feeling rough.
    (
        "ill",
        lazy(
            r"^(?:my|the) (?:head|back|tummy|stomach|throat|tooth|teeth|ear|ears|eyes?|knee|"
            r"neck|leg|arm|foot|feet|chest)\s+(?:is |are )?(?:killing me|hurts?|hurting|aches?|"
            r"aching|sore|is sore|are sore|is pounding|pounding|is throbbing)\b"
            r"|^(?:i(?:'ve| have)? )?(?:got|have|caught|picked up) (?:a |the |some )?(?:cold|flu|"
            r"fever|headache|migraine|sore throat|cough|bug|stomach bug|covid|toothache|"
            r"back ache|backache|earache|temperature)\b"
            r"|^i(?:'m| am| think i'm| think i am) (?:coming down|going down) with\b"
            r"|^(?:i )?(?:feel|feeling|felt)\s+(?:so |really |a bit |kinda )*(?:sick|ill|"
            r"unwell|poorly|rough|awful|crap|like crap|like death|under the weather|dizzy|"
            r"nauseous|queasy)\b",
            re.IGNORECASE,
        ),
    ),
    # A state said with a negation: offline_talk.feeling reads no "not" on purpose.
    (
        "tired",
        lazy(
            r"^(?:ugh|sigh|argh)?[\s,.!]*(?:i )?(?:didn't|did not|couldn't|could not|can't|"
            r"cannot|barely|hardly) (?:sleep|slept|get any sleep|get to sleep)\b"
            r"|^(?:ugh|sigh)?[\s,.!]*(?:no|zero|not much|hardly any) sleep\b",
            re.IGNORECASE,
        ),
    ),
    (
        "low",
        lazy(
            r"^(?:i(?:'m| am) |i feel |i'm feeling |i am feeling |honestly )?not (?:feeling )?"
            r"(?:so |too |very |that |really )?(?:great|good|well|ok|okay|happy|the best|"
            r"my best|myself|100%)\b"
            r"|^(?:i )?(?:can't|cannot|couldn't) be bothered\b"
            r"|^(?:(?:i(?:'ve)? )?had |it was |it's been |what )?(?:the|a|such a)?\s*"
            r"(?:worst|crappiest|shittiest|longest|hardest) (?:day|week|night|morning|shift)\b"
            r"|^what a (?:day|week|night|morning)\b",
            re.IGNORECASE,
        ),
    ),
    *(
        (kind, lazy(rf"^{_SO}(?:{words})\b(?!\s+(?:of|with|at|for|to)\b)", re.IGNORECASE))
        for kind, words in _BARE.items()
    ),
)
_MEH = lazy(r"^(?:meh+|bleh+|blah+|ugh+|urgh+|sigh+|eh|nah)[\s!.…]*$", re.IGNORECASE)
_REPLIES = {
    "ill": (
        "Oh no, I'm sorry you're feeling poorly. Rest up, drink some water, and be gentle "
        "with yourself.",
        "Poor you! I hope you feel better soon. Is there anything that helps a little?",
        "That sounds miserable, I'm sorry. Take it easy today if you can.",
    ),
    "meh": (
        "One of those days, huh? Want to tell me about it, or shall I tell you a joke?",
        "Meh days happen. I'm here if you want to talk, or we can just hang out.",
    ),
}


def mood(sentence: str) -> str | None:
    """The kind of mood a line says in the way people type it (see the module), or None."""
    text = sentence.strip()
    if _MEH.match(text):
        return "meh"
    for kind, pattern in _MOODS:
        if pattern.search(text):
            return kind
    return None


def reply(kind: str, seed: int, avoid: Sequence[str] = ()) -> str:
    """The pet's words for a mood `mood` found."""
    if kind in _REPLIES:
        return pick(_REPLIES[kind], seed, avoid)
    return feeling_reply(kind, seed, avoid)

