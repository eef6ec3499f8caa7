"""A one-word nod that answers nothing, read by broker.offline (docs/brain.md, "Eleventh pass:
other owners"): "hmm", "right", "yep", "fr", "true", "i see", "fair".

After the pet asked something, "yep" is an answer (offline_answers reads it first); otherwise
it is the owner thinking aloud or agreeing, and the pet says something back with a point: it
agrees, or asks what the owner is turning over. Before the eleventh pass these were "Tell me
more!", "I hear you." or "Okay!", the replies the audit calls bland. Nothing is kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy

_THINKING = lazy(r"^(?:hm+|hmm+|mm+|hmm+ ok(?:ay)?|um+|uh+|erm+|hmph)[\s.!?…]*$", re.IGNORECASE)
_AGREEING = lazy(
    r"^(?:right|yep|yup|yeah|yea|ya|yes|true|so true|fr|frfr|for real|facts|exactly|indeed|"
    r"mhm+|mm-?hm+|uh-?huh|i see|fair|fair enough|makes sense|same|agreed|totally|quite|"
    r"quite right|right then|yes indeed|of course|ikr|ik|true that)"
    r"(?:[\s,]+(?:lol|haha|tbh|ngl|ok|okay))?[\s.!…]*$",
    re.IGNORECASE,
)
_THOUGHT = (
    "Thinking something over? I'm all ears if you want to say it out loud.",
    "Hmm indeed. 🐢 Penny for your thoughts?",
    "That's a thinking sort of hmm. Anything I can help with?",
)
_AGREED = (
    "Glad we're on the same page! 🐢",
    "Exactly! Great minds, and all that.",
    "Right you are. Anything else on your mind?",
    "We agree, then! 🙂",
)


def nod(sentence: str, pet_last: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to a bare nod or a thinking sound; None for any other line, and for a
    "yep" to the question the pet just asked (`pet_last`: its last words), which answers it."""
    text = sentence.strip()
    if _THINKING.match(text):
        return pick(_THOUGHT, seed, avoid)
    if _AGREEING.match(text) and not pet_last.rstrip().endswith("?"):
        return pick(_AGREED, seed, avoid)
    return None
