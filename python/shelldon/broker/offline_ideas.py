"""A plan the owner is only weighing, read by broker.offline (docs/brain.md, "Fifteenth pass:
what the lead found talking to the real pet"):

    I'm thinking of learning the fiddle     -> "Ooh, learning the fiddle? What's drawing you
                                                to it?"
    thinking about getting a puppy
    I'm considering going back to uni
    been toying with the idea of taking up bowls

An idea is met with interest and a question, and nothing is kept: it is not decided yet (a plan
that is, "I'm starting pottery on monday", is offline_life's). Before the fifteenth pass these
were "I hear you." or "Ooh, thinking about getting a. Enjoy it!".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import to_second_person
from shelldon.broker.patterns import lazy

_IDEA = lazy(
    r"^(?:(?:so|well|hmm+|ok|okay|also|btw|honestly)[\s,]+)*"
    r"(?:i'm |i’m |im |i am |i've been |i’ve been |ive been |been |i have been )?"
    r"(?:(?:seriously|really|kind of|kinda|sort of) )?"
    r"(?:thinking (?:of|about)|considering|toying with the idea of|mulling over|"
    r"tempted to try|tempted by)\s+"
    r"(?P<what>(?:[^\W\d_][\w'’-]*ing|getting|taking|going|doing)\b.*?)[\s.!]*$",
    re.IGNORECASE,
)
_REPLIES = (
    "Ooh, {what}? What's drawing you to it?",
    "{What}, hm? What got you thinking about it?",
    "{What}? That's a thought worth having. What's tempting you about it?",
)


def idea(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's word to a plan being weighed, or None for any other line."""
    found = _IDEA.match(sentence.strip())
    if found is None:
        return None
    what = to_second_person(found["what"]).strip(" ,.!")
    what = re.sub(r"\s+(?:lol|haha|tbh|idk|maybe|eventually|one day)$", "", what, flags=re.I)
    if not what:
        return None
    # each has its own question: one asked in the window is not asked again
    fresh = [r for r in _REPLIES if not any(r.rsplit("? ", 1)[-1] in said for said in avoid)]
    return pick(fresh or _REPLIES, seed).format(what=what, What=what[:1].upper() + what[1:])
