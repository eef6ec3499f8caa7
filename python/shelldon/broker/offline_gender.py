"""She or he for someone whose relation says which, read by broker.offline_gifts (docs/brain.md,
"Eighteenth pass: a pet that listens"):

    what should I get Ines for her birthday?   (Ines: "The owner's daughter Ines …")
        -> "What else is she into?", never "What else are they into?"
    any idea what I could get Kwame?           (Kwame: "The owner's grandson Kwame …")
        -> "Something he'd never buy himself …"

`relation` finds the relation a kept line gives a name ("The owner's daughter Ines turns seven",
"your brother Paulo lives in Porto"); `pronoun` is "she" or "he" when that relation says which
(offline_words.SHE, HE), or the question itself does ("for her birthday"), else "they";
`said_of` turns a line written with "they" into one of her or him, verbs agreeing ("they love" ->
"she loves", "they've" -> "she's", "themselves" -> "herself").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_words import HE, KIN, OTHERS, SHE, alternation
from shelldon.broker.patterns import lazy

_REL = alternation(*KIN, *OTHERS)


def relation(name: str, known: Sequence[str]) -> str:
    """The relation a kept line gives `name` ("daughter" for "The owner's daughter Ines …"), or
    ""."""
    rx = re.compile(
        rf"\b(?:owner's|my|our|your) (?:best |little |big |older |younger |eldest |youngest )?"
        rf"({_REL}) {re.escape(name)}\b",
        re.IGNORECASE,
    )
    for line in reversed(known):
        found = rx.search(line)
        if found:
            return found.group(1).casefold()
    return ""


_ASKED_AS = lazy(r"\b(?P<p>her|his)\b", re.IGNORECASE)


def pronoun(rel: str, question: str = "") -> str:
    """ "she", "he" or "they" for someone of relation `rel`, asked of in `question`."""
    base = rel.split()[-1].casefold() if rel else ""
    if base in SHE:
        return "she"
    if base in HE:
        return "he"
    found = _ASKED_AS.search(question)  # "for her birthday"
    if found:
        return "she" if found["p"].casefold() == "her" else "he"
    return "they"


# (a "they" form, her form, his form): longest first, verbs agreeing.
_FORMS = (
    (r"they['’]d", "she'd", "he'd"),
    (r"they['’]ve", "she's", "he's"),
    (r"they['’]re", "she's", "he's"),
    (r"they haven['’]t", "she hasn't", "he hasn't"),
    (r"they (already )?love", r"she \1loves", r"he \1loves"),
    (r"are they", "is she", "is he"),
    (r"they are", "she is", "he is"),
    (r"themselves", "herself", "himself"),
    (r"their", "her", "his"),
    (r"them", "her", "him"),
    (r"they", "she", "he"),
)
_THEY = lazy(r"\b(?:" + "|".join(f"(?:{t})" for t, _, _ in _FORMS) + r")\b", re.IGNORECASE)


def said_of(text: str, who: str) -> str:
    """`text`, written of "them", said of her or him (`who`: "she", "he"; "they" leaves it)."""
    if who not in ("she", "he"):
        return text

    def one(found: re.Match[str]) -> str:
        said = found.group(0)
        for they, she, he in _FORMS:
            if re.fullmatch(they, said, re.IGNORECASE):
                out = re.sub(they, she if who == "she" else he, said, flags=re.IGNORECASE)
                return out[:1].upper() + out[1:] if said[:1].isupper() else out
        return said

    return _THEY.sub(one, text)
