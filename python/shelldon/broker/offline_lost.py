"""A lost thing asked of the pet, read by broker.offline (docs/brain.md, "Eleventh pass: other
owners"): "have you seen my keys?", "do you know where my glasses are?".

The pet cannot see from where it lives, so it says so; when the owner told it where the thing was
(a kept statement or one in the window names it), it says that back as what it was told, never
as something it saw. Before the eleventh pass this was a gap in its memory ("I don't know that
yet. Tell me and I'll remember."), as if the keys were a fact to teach it. Nothing is kept.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_view import PromptView
from shelldon.broker.offline_words import to_second_person
from shelldon.broker.patterns import lazy

_YOU = r"(?:you|u|ya)"
_LOST = lazy(
    rf"^(?:(?:hey|so|um+|oh|shelldon)[\s,]+)*(?:(?:have|did) {_YOU} (?:happen to )?(?:seen?|find|"
    rf"found|spot(?:ted)?)|do {_YOU} know where|any idea where|(?:have|did) {_YOU} got any idea "
    rf"where|where did i (?:put|leave))\s+(?:i (?:put|left) )?(my|our) ([a-z][a-z' -]{{1,30}}?)"
    rf"(?: (?:are|is|went|went to|have gone|has gone|got to))?(?: anywhere| again)?[\s?!.]*$",
    re.IGNORECASE,
)
# "I can't find my keys", "I cannot find them anywhere", "I've misplaced my glasses": how things
# are now, never a lasting fact (a loss, "I lost my dad", stays offline_talk's grief).
_MISLAID = lazy(
    r"^(?:(?:ugh|argh|oh no|omg|help)[\s,!.]+)*(?:i (?:can't|cannot|can not|cant|couldn't) "
    r"(?:seem to )?find|i(?:'ve| have)? (?:just )?misplaced) (?:my|our|them|it|the)\b"
    r"(?:[\w' -]{0,30})?[\s!.]*$",
    re.IGNORECASE,
)
MISLAID = "Oh no, I hope it turns up soon! Retracing your steps often helps."
_WHERE_TOLD = lazy(
    r"\b(?:in|on|at|under|behind|beside|next to|by|inside)\b|\bleft\b|\bput\b", re.IGNORECASE
)


def lost(view: PromptView, sentence: str) -> str | None:
    """The answer to "have you seen my keys?"; None for any other line."""
    found = _LOST.match(sentence.strip())
    if not found:
        return None
    thing = found.group(2).strip().casefold()
    head = thing.split()[-1]
    stem = head[:-1] if head.endswith("s") and len(head) > 3 else head
    told = [
        k.text
        for k in view.known
        if re.search(rf"\b{re.escape(stem)}", k.text, re.IGNORECASE)
        and _WHERE_TOLD.search(k.text)
        and "?" not in k.text
    ]
    if told:
        said = to_second_person(told[-1]).rstrip(".")
        return (
            f"I can't see anything from in here, but you told me {said[:1].lower() + said[1:]}. "
            "Maybe look there?"
        )
    many = head.endswith("s") and not head.endswith("ss")
    are, them = ("are", "them") if many else ("is", "it")
    return (
        f"I can't see anything from in here, so I don't know where your {thing} {are}. "
        f"Where did you last have {them}?"
    )


def mislaid(sentence: str) -> bool:
    """Whether the line says a thing is lost right now ("I can't find my keys"): not kept."""
    return _MISLAID.match(sentence.strip()) is not None
