"""Which low feeling the owner named, and words that fit it, read by broker.offline_talk
(docs/brain.md, "Eighteenth pass: a pet that listens"):

    I'm feeling a bit lonely after shifts    -> lonely: company, a chat now
    I'm worried about my mum's test results  -> worried: waiting is hard; the worry said back
    I'm stressed about the car's MOT         -> stressed: one thing at a time
    I've been feeling sad since …            -> sad: here with you
    so annoyed with the council              -> cross: fair enough to be fed up
    I miss my friends back home              -> missing: a real ache; tell me about them
    I'm feeling ill                          -> unwell: a get-well wish

Every low feeling used to get one of the same three lines, "Do you want to tell me what
happened?" among them, whether the owner was lonely, worried or sad. Each kind has words of its
own and three of them, so the same feeling said twice is met with other words (offline_talk.pick
skips what the pet said in the window). A low feeling with no word of these kinds ("a bad day",
"ugh") keeps the general lines.
"""

from __future__ import annotations

import re

from shelldon.broker import offline_kin
from shelldon.broker.offline_gender import said_of
from shelldon.broker.patterns import lazy

# The kind of a low feeling, by the first word of it in the line.
_KINDS = (
    (
        "lonely",
        lazy(
            r"\b(?:lonely|alone|lonesome|isolated|on my own)\b|\b(?:nobody|no one|no-one) "
            r"(?:ever )?(?:texts|calls|messages|visits|talks to|rings) me\b",
            re.IGNORECASE,
        ),
    ),
    (
        "missing",
        lazy(
            r"^(?:i )?(?:really |still |just |so )?miss(?: having)?\b|"
            r"\bmissing (?:my|our|him|her|them|home)\b",
            re.I,
        ),
    ),
    (
        "worried",
        lazy(
            r"\b(?:worried|worrying|worry|anxious|nervous|scared|afraid|panick(?:ing|y)|"
            r"freaking out|dreading)\b",
            re.IGNORECASE,
        ),
    ),
    ("stressed", lazy(r"\b(?:stress(?:ed|ing|ful)?|overwhelmed|under pressure)\b", re.I)),
    (
        "sad",
        lazy(
            r"\b(?:sad|down|low|blue|unhappy|miserable|depressed|upset|heartbroken|hurt|"
            r"gutted)\b",
            re.IGNORECASE,
        ),
    ),
    ("cross", lazy(r"\b(?:angry|annoyed|frustrated|fed up|furious|livid|irritated)\b", re.I)),
    ("unwell", lazy(r"\b(?:sick|ill|unwell|poorly|under the weather)\b", re.IGNORECASE)),
)

REPLIES = {
    "lonely": (
        "Aw, feeling lonely is hard, and it's a lot after a long day. I'm here, and I'm happy to "
        "keep you company. Tell me one good thing from today?",
        "I'm sorry it feels lonely right now. You've got me for company: shall we just chat for "
        "a bit?",
        "Lonely evenings are tough. I'm right here with you. Is there someone you could message "
        "tonight, even just to say hi?",
    ),
    "missing": (
        "Aw, missing someone is hard. I'm sorry. Tell me about them?",
        "I'm sorry, that's a real ache. I'm here with you. What do you miss most?",
        "Missing them sounds tough. I'm here. Tell me something you love about them?",
    ),
    "worried": (
        "That's a worry to carry. I'm sorry. Waiting is often the hardest part. What's the bit "
        "that worries you most?",
        "Oh, that sounds worrying. I'm here for you. Whatever happens, you don't carry it alone.",
        "Worry like that is exhausting, I'm sorry. Take a slow breath. Is there one small thing "
        "you can do about it today?",
    ),
    "stressed": (
        "That sounds stressful. One thing at a time: what's the very next step?",
        "Stress piles up fast. Sending you a small hug. Can anything wait until tomorrow?",
        "Oof, that's a lot of pressure. Be kind to yourself. What would take a bit of the stress "
        "off?",
    ),
    "sad": (
        "I'm sorry you're feeling sad. I'm here with you. Do you want to talk about it?",
        "Oh, that's sad. Sending you a small hug. Be gentle with yourself today.",
        "I'm sorry. Sad days are heavy. I'm listening whenever you want to say more.",
    ),
    "cross": (
        "That sounds really frustrating, I'm sorry. Fair enough to be fed up. Want to vent?",
        "Ugh, I'd be annoyed too. I'm sorry. What got to you most?",
        "That sounds maddening. Sending you a small hug. Let it out, I'm listening.",
    ),
    "unwell": (
        "Oh no, poor you. I hope you feel better soon. Have you got water and a blanket nearby?",
        "I'm sorry you're not well. Rest up and feel better soon.",
        "Poor you. Take it easy today, and I hope you feel better soon.",
    ),
}


def kind(said: str) -> str | None:
    """The kind of the low feeling `said` names, the earliest word of one in the line."""
    found = [(m.start(), name) for name, rx in _KINDS if (m := rx.search(said))]
    return min(found)[1] if found else None


def of_whom(reply: str, said: str) -> str:
    """A line about "them" said of her or him when `said` names who ("I miss her", "I really miss
    my dad": "Tell me about him?")."""
    found = re.search(r"\bmiss(?:ing)? (her|him)\b", said, re.IGNORECASE)
    pronoun = found[1].casefold() if found else offline_kin.object_pronoun(said)
    return said_of(reply, {"her": "she", "him": "he"}.get(pronoun or "", "they"))


def all_replies() -> tuple[str, ...]:
    """Every line of every kind (offline_talk.consoling: the pet's general word for a low day)."""
    return tuple(r for replies in REPLIES.values() for r in replies)
