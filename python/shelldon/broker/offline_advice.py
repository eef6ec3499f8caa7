"""Questions no memory and no internet could answer, asked of the pet all the same, read by
broker.offline before its memory answers (docs/brain.md, "Twelfth pass: conversations it has never
seen"):

- a big question of belief ("do dogs go to heaven?", "what happens when we die?", "is there an
  afterlife?"): nobody knows for sure, said gently, and the owner asked what they believe;
- what to do with or about a thing ("what should i do with his bed and toys?", "what do I do
  about my landlord?"): the owner's to decide, with no hurry, never a list of hobbies.

Before the twelfth pass these were "I don't know that yet. What I do know: your dog was a beagle.
Tell me more and I'll remember." and "I don't know what you enjoy doing yet. What do you like to
do for fun?". Nothing is kept, nothing is claimed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy

_BELIEF = lazy(
    r"^(?:do|does|will|did|can) (?:all )?(?:dogs|cats|pets|animals|people|we|they|he|she|"
    r"(?:my|our) \w+) (?:go|get to go|end up|really go) (?:to )?(?:heaven|a better place|"
    r"somewhere)\b|"
    r"^is (?:there )?(?:a heaven|an afterlife|life after death|(?:a )?god)\b|"
    r"^(?:what|where) (?:happens|do (?:we|you|people|pets|dogs|cats|animals) go) "
    r"(?:when|after) (?:we|you|people|pets|dogs|cats|animals|they|someone) (?:die|dies|pass)\b|"
    r"^why do (?:people|pets|dogs|cats|animals|we|good people) (?:have to )?die\b|"
    r"^what(?:'s|’s| is) the (?:meaning|point) of (?:life|it all)\b|"
    r"^(?:will|do) (?:i|we) (?:ever )?see (?:him|her|them) again\b|"
    r"^do you think (?:she|he|they|(?:my|our) \w+) (?:can see|is watching|are watching|knows?|"
    r"is (?:in heaven|at peace|happy now)|are (?:in heaven|at peace))\b",
    re.IGNORECASE,
)
_BELIEF_REPLIES = (
    "Nobody knows that for sure, and I'm only a small pet. What do you believe?",
    "That's one of the biggest questions there is, and I can't answer it for sure. What do you "
    "think?",
)
# "what should i do with his bed and toys?": a thing to decide about, never what to do tonight
_WHAT_TO_DO = lazy(
    r"^what (?:should|shall|do|can) (?:i|we) do (?:with|about) "
    r"(?!(?:my |our |the |this |tonight|today)?(?:weekend|evening|day|time|free time|"
    r"afternoon|morning|night|tonight|today|life|dinner|lunch|breakfast|tea|supper)\b)",
    re.IGNORECASE,
)
_DECIDE_REPLIES = (
    "That's yours to decide, and there's no hurry. What feels right to you?",
    "I can't decide that for you, but you don't have to rush it. What are you leaning towards?",
)


def advice(question: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's honest word on a big question or a thing to decide; None for any other."""
    text = question.strip()
    if _BELIEF.search(text):
        return pick(_BELIEF_REPLIES, seed, avoid)
    if _WHAT_TO_DO.search(text):
        return pick(_DECIDE_REPLIES, seed, avoid)
    return None
