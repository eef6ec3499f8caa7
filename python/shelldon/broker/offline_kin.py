"""Which statements answer "what do you know about my family?", read by broker.offline_topics
(docs/brain.md, "Fifteenth pass: what the lead found talking to the real pet").

A statement tells of the owner's family when it names a relation as the owner's: "my mum lives
in Galway", "the owner's husband Sam works in IT", "I have two kids". Before the fifteenth pass
any word of kin did: a teacher's "ugh, the kids were loud today" (her pupils, a complaint about
the day) was read back as family, and so were "a nurse on a children's ward" and "the customers
were so rude tonight" beside a partner. A passing mood about the day ("…were a nightmare this
afternoon", "ugh, …") is never read back as a fact, even of the owner's own kin: it was how the
day went, not who they are.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_words import (
    ANIMALS,
    HE,
    KIN,
    KIN_GROUPS,
    OTHERS,
    SHE,
    alternation,
    plurals,
)
from shelldon.broker.patterns import lazy

_FAMILY = alternation(*plurals(*KIN), *KIN_GROUPS)
# "my mum", "our two kids", "the owner's little girl", "your granddaughter Lily"
_OWNERS = lazy(
    rf"\b(?:my|our|your|the owner's|owner's)\s+(?:[^\W\d_][\w'’-]*\s+){{0,2}}?(?:{_FAMILY})\b",
    re.IGNORECASE,
)
# "I have two kids", "the owner has a son", "we've got three grandchildren"
_HAS = lazy(
    rf"\b(?:have|has|got)\s+(?:a|an|one|two|three|four|five|six|\d+)\s+"
    rf"(?:[^\W\d_][\w'’-]*\s+)?(?:{_FAMILY})\b",
    re.IGNORECASE,
)
# How the day went: "ugh, …", "… were loud today", "… so rude tonight".
_UGH = lazy(r"^(?:ugh+|urgh+|argh+|meh|omg|god|honestly|sigh)\b", re.IGNORECASE)
_THIS_DAY = lazy(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now|at the moment)\b",
    re.IGNORECASE,
)
_HOW_IT_WENT = lazy(r"\b(?:was|were|is|are|been)\b", re.IGNORECASE)


def of_family(text: str) -> bool:
    """Whether a statement names one of the owner's family as theirs."""
    return bool(_OWNERS.search(text) or _HAS.search(text))


def passing(text: str) -> bool:
    """A mood about the day ("Ugh, the kids were loud today"): not a fact to read back."""
    said = text.strip()
    return bool(_UGH.search(said)) or bool(_THIS_DAY.search(said) and _HOW_IT_WENT.search(said))


_ONE_OF_THEM = lazy(
    rf"\b(?:my|our)\s+(?:late\s+|dear\s+|beloved\s+|old\s+|lovely\s+)?(?:{alternation(*KIN)})\b",
    re.IGNORECASE,
)


def object_pronoun(sentence: str) -> str | None:
    """ "her" of "since my wife passed", "him" of "my husband died": the relation a line names
    as the owner's, by who they are to the owner; None for none, a pet, or both ("my mum and
    dad")."""
    if not _ONE_OF_THEM.search(sentence):
        return None
    said = {w.casefold() for w in re.findall(r"[^\W\d_]+", sentence)}
    pronouns = {"her" for w in said if w in SHE} | {"him" for w in said if w in HE}
    return pronouns.pop() if len(pronouns) == 1 else None


def about_them(reply: str, sentence: str) -> str:
    """The pet's "tell me about them" said of her or him when the line names who ("I feel a bit
    lonely since my wife passed": "tell me about her"; before, "them")."""
    pronoun = object_pronoun(sentence)
    if pronoun is None:
        return reply
    return re.sub(r"\babout them\b", f"about {pronoun}", reply)


_HARD = lazy(
    r"\b(?:loud|rude|hard work|a nightmare|nightmares|awful|horrible|annoying|exhausting|"
    r"draining|chaos|chaotic|wild|mad|feral|a handful|a pain|difficult|demanding|grumpy|"
    r"hyper|noisy|impossible)\b",
    re.IGNORECASE,
)


def complaint(text: str) -> bool:
    """A passing complaint about the day and the people in it ("the patients were hard work
    today, ugh", "the kids were loud today"): met as a hard day, never kept."""
    return passing(text) and (bool(_UGH.search(text.strip())) or bool(_HARD.search(text)))


_SINGULAR = {plural: one for one in (*KIN, *OTHERS, *ANIMALS) for plural in plurals(one)[1:]}
# "what do you know about my brothers?", "tell me about my dogs", "who are my friends?"
_SEVERAL_ASKED = lazy(
    rf"\b(?:about|are|of|remember) (?:my|our) (?:two |three |four |\d+ )?"
    rf"(?P<rel>{alternation(*_SINGULAR)})\b",
    re.IGNORECASE,
)


def several_asked(question: str) -> str | None:
    """The relation a question asks about several of ("what do you know about my sisters?":
    "sister"), or None."""
    found = _SEVERAL_ASKED.search(question)
    return _SINGULAR[found["rel"].casefold()] if found else None


def several(rel: str, newest_first: list[str]) -> list[str]:
    """Of the statements given (newest first), each that names one of the owner's `rel` ("the
    owner's brother Olu lives in Lagos"), oldest first, at most four; never a passing mood."""
    names = lazy(rf"\b(?:my|our|your|the owner's|owner's) {re.escape(rel)}\b", re.IGNORECASE)
    said = [t for t in newest_first if names.search(t) and not passing(t)]
    return list(reversed(said[:4]))
