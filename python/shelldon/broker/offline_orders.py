"""A dislike said with an order to the pet in one line, read by broker.offline (docs/brain.md,
"Fifteenth pass: what the lead found talking to the real pet"):

    I hate coriander, never suggest it              -> kept: "The owner hates coriander."
                                                       said: "Got it: you hate coriander, and
                                                       I won't suggest it."
    I can't stand olives, don't ever suggest them
    I loathe pineapple on pizza, never recommend it to me

The dislike is a fact about the owner and is kept as one; the order is to the pet, so it is
said as the pet's promise, never echoed as the owner's own words. Before the fifteenth pass the
whole line was kept ("The owner hates coriander, never suggest it.") and said back as "You hate
coriander, never suggest it.", an order read as a statement about the owner. A suggestion
already skips a dislike (broker.offline_topics), so the promise is kept by what is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.patterns import lazy

_DISLIKE = (
    r"(?:hate|dislike|detest|loathe|can't stand|cannot stand|can’t stand|don't like|do not like|"
    r"don’t like|am allergic to|'m allergic to|’m allergic to)"
)
_ORDER = lazy(
    rf"^(?P<fact>i (?:really |just |absolutely |truly )?{_DISLIKE}\s+.+?)\s*(?:[,;.!-]+\s*|\s+)"
    r"(?:so\s+|and\s+|please\s+|pls\s+)*"
    r"(?P<no>never|don't|dont|don’t|do not)\s+(?:ever\s+)?"
    r"(?P<verb>suggest|recommend|offer|mention|give|serve|put|send|bring up|remind me of)"
    r"(?P<rest>\s+(?:it|them|that|those|any|anything with (?:it|them))\b)?"
    r"(?:\s+(?:to me|for me|again|ever|please|pls))*[\s.!]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Ordered:
    fact: str  # "I hate coriander": read by the fact rules as any dislike
    verb: str  # "suggest"
    what: str  # "it", "them"

    def promise(self, said: str) -> str:
        """The dislike said back with the pet's promise ("you hate coriander")."""
        return f"Got it: {said.rstrip('.')}, and I won't {self.verb} {self.what}."


def ordered(sentence: str) -> Ordered | None:
    """The dislike and the order in a line that says both, or None."""
    found = _ORDER.match(sentence.strip())
    if found is None:
        return None
    what = (found["rest"] or "").strip()
    what = re.sub(r"^anything with ", "", what, flags=re.IGNORECASE).casefold() or "it"
    if what in ("that", "any"):
        what = "it"
    return Ordered(found["fact"].strip(" ,"), found["verb"].casefold(), what)
