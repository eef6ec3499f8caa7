"""Whose a statement is, for a question about the owner (read by broker.offline's answers).

"Where do I work?" asked after "my partner Tom is a chef, he works late most nights" was
answered "Your partner Tom is a chef, he works late most nights.": the statement shares "work"
with the question, but it is Tom's. A question about the owner (I, me, my, with no one else
named in it) is answered only by a statement about the owner, never by one whose subject is
someone else ("my partner Tom …", "he …", "Ana works …"); "my partner and I live in Leeds" is
the owner's too.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_words import ANIMALS, KIN, OTHERS, alternation
from shelldon.broker.patterns import lazy

_SOMEONE = alternation(*KIN, *OTHERS, *ANIMALS, "pet")
_OWNER_I = ("I", "I'm", "I’m", "I'd", "I've")
_OWNERS = lazy(r"\b(?:i|me|my|myself|mine)\b", re.IGNORECASE)
_NAMES_SOMEONE = lazy(rf"\b(?:{_SOMEONE})(?:s|es)?\b", re.IGNORECASE)
# The statement's subject, as the owner said it or as an entry keeps it: a relation of theirs,
# a pronoun for one, or a name doing something ("Tom works nights").
_SOMEONE_ELSES = lazy(
    rf"^\W*(?:(?:(?i:the owner['’]s|my|your|our|his|her|their)\s+(?:[\w-]+\s+)?(?i:{_SOMEONE})"
    r"(?:['’]s)?\b(?!\s*(?:,\s*)?(?:and|&)\s+(?i:i|me|the owner|you)\b))"
    r"|(?i:he|she|they|his|her|their)\b"
    r"|(?!I\b|The\b|My\b|Your\b|Our\b)[A-ZÀ-ÖØ-Þ][\w'’-]*\s+(?:is|was|works|lives|has|had|does)\b)"
)


def asks_about_the_owner(question: str) -> bool:
    """A question about the owner alone: "where do I work?", "what's my job?", never "where
    does my sister work?" or "does Tom work late?"."""
    if not _OWNERS.search(question) or _NAMES_SOMEONE.search(question):
        return False
    later = question.split()[1:]
    return not any(w[:1].isupper() and w.strip("?!.,") not in _OWNER_I for w in later)


def someone_elses(statement: str) -> bool:
    """Whether a statement's subject is someone other than the owner ("my partner Tom is a
    chef", "he works late", "The owner's sister lives in Porto", "Ana works nights")."""
    return bool(_SOMEONE_ELSES.match(statement))
