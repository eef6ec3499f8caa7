"""A feeling followed over days, read by broker.offline (docs/brain.md, "Tenth pass: a pet, not a
form-filler").

    had a really awful day. my grandma is in hospital   -> sorry (offline_talk, offline_news)
    (the next morning) good morning                     -> "Good morning, Kim! How's your
                                                           grandma doing?"
    a bit better today, she had surgery and it went well -> glad: "Oh, I'm so glad to hear that."
    so relieved / phew / feeling much better             -> glad, never "Mm-hm, I'm listening."
    i don't really want to talk about it                 -> "That's okay. …", nothing kept

A greeting (or "i'm back") while the recent window holds a hard line of the owner's, with no
better one after it, asks after it: the person the hard line named ("your grandma"), else how the
owner feels now. Before the tenth pass the greeting asked "Did you sleep well?" as on any day,
"a bit better today, she had surgery and it went well" was met with "Oh no, that sounds rotten"
(a hard word, "surgery", read as the news), "so relieved" with "Mm-hm, I'm listening." and "i
don't really want to talk about it" was kept as a fact ("Oh, you don't want to talk about it.
I'll remember.") and later said back as one. Nothing here proposes an op.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import feeling, pick
from shelldon.broker.offline_words import KIN, OTHERS, alternation
from shelldon.broker.patterns import lazy

_BETTER = lazy(
    r"^(?:(?:oh|yeah|yes|well|so|honestly|ok|okay|actually|good news|update)[\s,!.:-]+)*"
    r"(?:(?:i'm|im|i am|i feel|feeling|feel|we're|she's|he's|they're|things are|it's|its|"
    r"(?:my |our )?[\w'’]+(?: [\w'’]+)? (?:is|are|'s|’s|seems|looks))\s+)?"
    r"(?:(?:doing|getting|feeling|looking)\s+)?"
    r"(?:(?:a (?:bit|little|lot)|bit|much|way|loads|so much|heaps|slightly|somewhat)\s+)?"
    r"(?:better|relieved|so relieved|less worried|less stressed|calmer)\b|"
    r"^(?:phew|what a relief|such a relief|thank god|thank goodness)\b|\bphew\b|"
    r"\b(?:went|gone|turned out) (?:well|fine|ok|okay|great|better than expected)\b|"
    r"\b(?:is|was|are) (?:doing|recovering) (?:well|better|fine|ok|okay)\b",
    re.IGNORECASE,
)
_STILL_BAD = lazy(r"\b(?:not|no|isn't|didn't|worse|hasn't)\b", re.IGNORECASE)
_GLAD = (
    "Oh, I'm so glad to hear that. What a relief!",
    "That's such good news. I'm really glad things are looking up.",
    "Phew! I'm glad. Thank you for telling me how it went.",
)
_NOT_TALKING = lazy(
    r"^(?:(?:honestly|sorry|um|eh|no|nah)[\s,]+)*(?:i )?(?:don'?t|do not|dont) (?:really |even )?"
    r"(?:want|wanna|feel like)(?: to)? (?:talk(?:ing)?|get(?:ting)? into|go(?:ing)? into) "
    r"(?:about )?(?:it|that|this)(?: (?:right )?now| rn| today| tbh)?[\s.!]*$|"
    r"^(?:i'?d|i would) rather not (?:talk about it|say|get into it|go into it|discuss it)"
    r"(?:[\s,]+(?:tbh|honestly|rn|right now|now|today))?[\s.!]*$|"
    r"^can we (?:talk about|change the subject)\b",
    re.IGNORECASE,
)
_RESPECTED = (
    "That's okay. We don't have to. I'm here if you change your mind.",
    "Of course, no need to talk about it. I'm here all the same. Want a distraction? I've got "
    "jokes.",
)
# A hard line of the owner's: a low mood, or someone of theirs ill, hurt or in hospital.
_HARD = lazy(
    r"\b(?:hospital|ill|sick|surgery|operation|broke (?:her|his|their|my) \w+|fell|worried|"
    r"worrying|anxious|fever|flu|poorly|unwell|infection|"
    r"scared|awful|terrible|horrible|devastated|heartbroken|upset|crying|miserable|"
    r"in pain|passed away|died|lost my job|fired|dumped|broke up)\b",
    re.IGNORECASE,
)
_WHOSE = lazy(
    rf"\bmy ((?:older |younger |little |big )?(?:{alternation(*KIN, *OTHERS)}))\b",
    re.IGNORECASE,
)
_ASK_AFTER = (
    "How's your {who} doing?",
    "Any news about your {who}?",
)
_ASK_YOU = (
    "How are you feeling today?",
    "Are you feeling any better?",
)


def better(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's gladness at a line that says things got better or a worry lifted; None for any
    other (and for "not better", "no better")."""
    text = sentence.strip()
    # "did 2 hours, feeling a bit better about it": the better clause after what was done
    for part in (text, *(p.strip() for p in text.split(",")[1:])):
        if _BETTER.search(part) is None:
            continue
        if _STILL_BAD.search(part.split(",", 1)[0]) or re.search(r"\bbetter than\b", part, re.I):
            return None  # "not any better", "no better", "my car is better than yours"
        return pick(_GLAD, seed, avoid)
    return None


def not_talking(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """ "i don't really want to talk about it": respected, never kept as a fact."""
    if _NOT_TALKING.search(sentence.strip()) is None:
        return None
    return pick(_RESPECTED, seed, avoid)


def follow_up(owner_recent: Sequence[str], seed: int, avoid: Sequence[str] = ()) -> str | None:
    """A question after the hard line the window holds, asked on a greeting: the person it named
    ("How's your grandma doing?"), else how the owner feels. None when the window holds no
    hard line, or a better line came after it."""
    hard: list[str] = []
    for line in reversed(owner_recent):
        if better(line, 0) is not None:
            break
        if _HARD.search(line) or feeling(line) in ("low", "grief", "grief_apart", "tired"):
            hard.append(line)
    if not hard:
        return None
    whose = next((w for line in hard if (w := _WHOSE.search(line)) is not None), None)
    if whose is not None:  # the nearest hard line that names someone: "my grandma …"
        return pick(_ASK_AFTER, seed, avoid).format(who=whose.group(1).casefold())
    return pick(_ASK_YOU, seed, avoid)
