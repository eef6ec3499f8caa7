"""The past, read by broker.offline (docs/brain.md, "Eighth pass: a pet, not a form"): what the
owner said of how things were is kept as said and never given as how things are now.

- `before`: "previously I worked at a bank", "I moved away from London in May", "I grew up in
  Dublin" -> kept in the past ("The owner previously worked at a bank."), with a question back
  ("I used to …" is broker.offline_life's `used_to`, which asks here for the other shapes);
- `PAST`: a statement of the past ("used to", "no longer", "moved away from", "grew up");
  `PAST_QUESTION`: a question about the past ("where did I grow up?"), which the past may
  answer; `PAST_HOME`: where the owner lived once, which "where do I live?" finds, to say it
  is no answer about now ("I don't know about now. What I know is from before: …").
"""

from __future__ import annotations

import re

from shelldon.broker.offline_words import to_second_person, to_third_person
from shelldon.broker.patterns import lazy

# The past said other ways: "previously I worked at a bank", "I moved away from London in
# May", "I grew up in Dublin". Kept as said, in the past; never an answer about now (`PAST`).
_BEFORE = lazy(
    r"^(?:(?:previously|formerly|before that|in the past|back then|years ago),?\s+(?:i|we)"
    r"|(?:i|we) (?:previously|formerly|once))\s+(?P<what>\w+ .+?)[\s.!]*$",
    re.IGNORECASE,
)
_MOVED_AWAY = lazy(
    r"^(?:i|we) (?:just |recently )?(?P<verb>moved (?:away from|out of)) (?P<where>(?:(?! to ).)+?)"
    r"[\s.!]*$",
    re.IGNORECASE,
)
_GREW_UP = lazy(
    r"^(?:i|we) (?P<verb>grew up in|was raised in|were raised in) "
    r"(?P<where>(?:(?! but | and ).)+?)[\s.!]*$",
    re.IGNORECASE,
)
# A statement of the past: not how things are now, so no answer to "where do I live?".
PAST = lazy(
    r"\b(?:used to|previously|formerly|no longer|moved away from|moved out of|grew up|"
    r"was raised|were raised|in the past|back then|years ago)\b",
    re.IGNORECASE,
)
# Where the owner lived, said as the past ("moved away from Derby", "grew up in Tromso").
PAST_HOME = lazy(r"\b(?:moved away from|moved out of|grew up in|(?:was|were) raised in)\b", re.I)
# A question about the past, which the past may answer ("where did I grow up?").
PAST_QUESTION = lazy(
    r"\b(?:did|was|were|used to|before|previously|formerly|grow up|grew up|raised|born|from|"
    r"originally|past|ago)\b",
    re.IGNORECASE,
)


_WAS = (
    "So before, you {x}! I'll remember that. And now?",
    "Oh, you {x} back then? I'll keep that in mind. What changed?",
)


def before(s: str, seed: int) -> tuple[str, tuple[str, str, str]] | None:
    """The past said with "previously", "moved away from" or "grew up in": the reply and the
    fact to keep (collection, name, content), as said; None for any other clause."""
    for pattern in (_MOVED_AWAY, _GREW_UP):
        if (m := pattern.match(s)) is not None:
            where, verb = m.group("where"), m.group("verb").casefold()
            keep = ("facts", _name(f"{verb} {where}"), _past(f"{verb} {where}"))
            said = f"You {verb} {_second(where)}! I'll remember that."
            return said + (" Where are you now?" if pattern is _MOVED_AWAY else ""), keep
    if (m := _BEFORE.match(s)) is not None:
        what = m.group("what")
        keep = ("facts", _name(f"before {what}"), _past(f"previously {what}"))
        return _WAS[seed % len(_WAS)].format(x=_second(what)), keep
    return None


def _past(what: str) -> str:
    """ "The owner grew up in Dublin.": the verb as the owner said it (already past)."""
    third = to_third_person(what).rstrip(".")
    return f"The owner {third[:1].lower()}{third[1:]}."  # "grew", "moved": never a name


def _second(what: str) -> str:
    return to_second_person(what).rstrip(".")


def _name(what: str) -> str:
    return " ".join(re.sub(r"[^\w ]+", " ", what.lower()).split()[:5])
