"""What the owner says to the pet about the pet, read by broker.offline (docs/brain.md, "Ninth
pass: the first days"): praise, love, rudeness, being sent away, and an apology for it.

    you're adorable / you're the best pet ever / good job buddy / well done shelldon -> thanks
    love you shelldon / ily / i adore you                                            -> love back
    you're dumb / you suck / you're kinda useless offline huh / i hate you            -> owned up
    shut up / go away / leave me alone / be quiet                                     -> space
    sorry, didn't mean that / my bad / sorry for being mean                           -> forgiven

Each was "Tell me more!", "Okay!" or "I hear you." before, or taken for a statement about the
owner. The line speaks to the pet, so it is answered as the pet, and nothing is kept (no op):
how the owner feels about the pet today is no fact about the owner. Replies vary by the turn's
seed and skip what the pet said in the window (offline_talk.pick).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import without_emoji
from shelldon.broker.patterns import lazy

# Who the owner may call the pet at either end ("good job buddy", "well done shelldon").
_CALLED = r"(?:shelldon|buddy|bud|mate|pal|dude|friend|little (?:guy|one|buddy|fella)|lil guy)"
_END = (
    rf"(?:[\s,]+(?:{_CALLED}|you|ya|u|too|so much|a lot|lots|tbh|lol|haha|huh|honestly|please|"
    r"pls|plz|today|tonight|there|again|right now|for now))*"
)
_END += r"[\s!.?]*$"
_YOU_ARE = r"(?:you(?:'re|’re| are)|youre|ur|u r|you're being|you are being)"
_DEGREE = (
    r"(?:so |really |very |such an? |the |an? |pretty |kinda |kind of |quite |truly |totally |"
    r"completely |just |a bit |a little |honestly |actually |literally |seriously )*"
)
_GOOD = (
    r"(?:good|great|awesome|amazing|brilliant|clever|smart|cute|adorable|sweet|kind|nice|lovely|"
    r"funny|helpful|best|cool|fun|wonderful|fantastic|the best|a star|a gem|a legend|"
    r"a good (?:boy|girl|pet)|a genius|precious|charming|(?:a )?(?:sweetie|sweetheart|darling|"
    r"cutie|treasure|gem))"
)
_BAD = (
    r"(?:useless|stupid|dumb|annoying|boring|rubbish|terrible|the worst|worst|bad|wrong|idiot|"
    r"an idiot|pointless|broken|lame|thick|hopeless|a joke|no help|not helpful|unhelpful|"
    r"not very (?:smart|clever|helpful|good))"
)
_PRAISE = lazy(
    rf"^(?:{_YOU_ARE}\s+{_DEGREE}{_GOOD}\b(?:\s+[\w'’]+){{0,3}}"  # "you're the best pet ever"
    r"|(?:good|great|nice|brilliant|awesome) (?:job|work|boy|girl|pet|stuff|one|going)"
    r"|well done|bravo|(?:who(?:'s|’s| is) )?(?:a |such a )?(?:good|clever) (?:boy|girl|pet)"
    r"|(?:i'm|i’m|im|i am) (?:so )?proud of you|(?:what a|such a) (?:good|clever|cute|sweet) "
    r"(?:pet|boy|girl|turtle|little guy))" + _END,
    re.IGNORECASE,
)
_LOVE = lazy(
    rf"^(?:(?:i|i do|i really|i just|i still)\s+)?(?:love|luv|adore|like) (?:you|ya|u)\b{_END}"
    rf"|^(?:ily|ilysm|ilu|love ya|luv ya|love u|luv u|<3+|love you lots)\b{_END}",
    re.IGNORECASE,
)
_RUDE = lazy(
    rf"^(?:{_YOU_ARE}\s+{_DEGREE}{_BAD}\b(?:\s+[\w'’]+){{0,3}}"
    r"|you (?:really |kinda |totally )?(?:suck|stink|are no help)"
    r"|(?:i )?hate (?:you|ya|u)|(?:what a |such a )?(?:useless|stupid|dumb) "
    r"(?:pet|bot|thing|machine|turtle)|(?:ugh,? )?you(?:'re| are)? (?:so )?useless)" + _END,
    re.IGNORECASE,
)
_AWAY = lazy(
    r"^(?:(?:oh|just|please|pls|ugh)[\s,]+)*(?:shut up|be quiet|go away|leave me alone|"
    r"stop talking|quiet|shush|shh+|stfu|buzz off|get lost|not now|zip it)" + _END,
    re.IGNORECASE,
)
_SORRY = lazy(
    r"^(?:(?:oh|oops|ok|okay|hey|aw+)[\s,]+)*(?:(?:i'm |i’m |im |i am )?(?:so |really )?"
    r"(?:sorry|soz|sry)|my bad|apologies)"
    r"(?:[\s,!.]+(?:(?:i )?(?:didn'?t|did not|don'?t) mean (?:that|it|to)\b.*|"
    r"(?:for|about) (?:that|earlier|before|being \w+|snapping|yelling|shouting|what i said)\b.*|"
    r"i was (?:rude|mean|harsh|grumpy|cranky|snappy)\b.*|sorry|buddy|shelldon|mate|pal|"
    r"(?:you're|you are|ur) not (?:useless|dumb|stupid)\b.*))*[\s!.]*$"
    r"|^(?:i )?(?:didn'?t|did not) mean (?:that|it)\b.*$|^i take (?:that|it) back\b.*$",
    re.IGNORECASE,
)
PRAISED = (
    "Aw, thank you! You're pretty great yourself.",
    "That makes my little circuits glow. Thank you!",
    "Thank you! I like talking with you too.",
    "Hehe, you're making my shell blush. Thanks!",
)
LOVED = (
    "Aw, I love you too! You're my favourite person.",
    "Love you too! My little shell is all warm now.",
)
OWNED_UP = (
    "Sorry, I'm only a small offline brain and I get things wrong. What did I miss? "
    "I'll try again.",
    "Ouch! I'm a small offline brain doing my best. Tell me what I got wrong and I'll do better.",
)
SPACE = (
    "Okay, I'll be quiet. I'm here whenever you want me.",
    "Alright, I'll give you some space. Just say hi when you want me.",
)
FORGIVEN = (
    "No harm done! I don't hold grudges, only memories. 🙂",
    "It's okay, really. We're good!",
)


def regard(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to a line that praises, loves, insults, sends away or apologises to
    it; None for any other line. Emoji beside the words are read past ("you're the best 🥰")."""
    text = without_emoji(sentence).strip() or sentence.strip()
    for pattern, said in (
        (_SORRY, FORGIVEN),
        (_LOVE, LOVED),
        (_RUDE, OWNED_UP),
        (_PRAISE, PRAISED),
        (_AWAY, SPACE),
    ):
        if pattern.match(text):
            return pick(said, seed, avoid)
    return None
