"""Names and places typed on a phone in lower case, given their capitals before broker.offline's
rules read the line (docs/brain.md, "The audit pass: the phone's leftovers"):

- the name of someone the owner speaks of by who they are: "my husband is karim" → "my husband
  is Karim", "my brother lars lives in bergen" → "my brother Lars lives in Bergen";
- a place where the owner or someone lives, moved or is from: "i live in bristol" → "i live in
  Bristol", "from oslo originally" → "from Oslo originally".

Only a line with no capital at all is read so (a line typed with capitals already says which
words are names), and only a word that can be a name: no stop word, mood, state or verb form
("my wife is tired", "i live in a flat", "my sister lives in leeds"). What the fact rules keep
and say back then has the capitals a name is written with; `said_back` gives them to what was
kept or said before.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_talk import is_name
from shelldon.broker.offline_words import KIN, OTHERS, alternation
from shelldon.broker.patterns import lazy

_REL = (
    rf"(?:my|our) (?:best |older |younger |little |big |elder |twin )?"
    rf"(?:{alternation(*OTHERS, *KIN)})"
)
# After "my brother <name>": what comes next when the word was a name.
_NEXT = (
    r"(?=\s+(?:lives|lived|works|worked|is|was|has|had|just|turns|got|loves|likes|moved|"
    r"plays|and|who)\b|\s*[,.!?]|\s*$)"
)
_NAMED = lazy(rf"\b({_REL}) ([a-zà-ÿ][\w'’-]*){_NEXT}")
_IS_NAMED = lazy(rf"\b({_REL} (?:is|'s)) ([a-zà-ÿ][\w'’-]*)(?=\s*[,.!?]|\s*$)")
_PLACE = lazy(
    r"\b((?:live|lives|lived|living|moved|move|moving|based|born|grew up|raised|settled)"
    r"(?: back)? (?:in|to|near|from)|(?:i'm|i am|im|am|is|are|'s|comes?|originally) "
    r"(?:originally )?from|(?:^|,)\s*(?:originally )?from)"
    r" ([a-zà-ÿ][\w'’-]*(?: [a-zà-ÿ][\w'’-]*){0,2})"
)
# Words a name is not, past the stop words and moods offline_talk knows: how someone is, where
# and when, and the endings of verbs and adjectives.
_NOT_NAME = frozenset(
    (
        "ill", "mad", "angry", "funny", "weird", "smart", "tall", "short", "away", "out", "upset",
        "lovely", "crazy", "lazy", "cute", "sweet", "kind", "mean", "rude", "strict", "old",
        "young", "alright", "unwell", "poorly", "dead", "gone", "together", "abroad", "town",
        "nights", "originally", "now", "today", "tomorrow", "soon", "recently", "too", "also",
        "it", "this", "that", "one", "two", "three", "bed", "work", "school", "uni", "hospital",
        "last", "next", "yesterday", "ago", "spring", "summer", "autumn", "fall", "winter",
        "year", "week", "month", "weekend",
    )
)  # fmt: skip
_PEOPLE = frozenset((*KIN, *OTHERS))
_NOT_NAME_ENDS = ("ing", "ed", "ful", "ous", "ive", "able", "ible", "less", "ish", "est", "ly")


def _can_be_name(word: str) -> bool:
    w = word.casefold()
    return (
        is_name(w)
        and w not in _NOT_NAME
        and w not in _PEOPLE  # "my twin sister": no one called "sister"
        and not (len(w) > 4 and w.endswith(_NOT_NAME_ENDS))
        and not w.isdigit()
    )


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _named(found: re.Match[str]) -> str:
    word = found.group(2)
    return f"{found.group(1)} {_capital(word) if _can_be_name(word) else word}"


def _place(found: re.Match[str]) -> str:
    words = found.group(2).split()
    kept: list[str] = []
    for word in words:
        if not _can_be_name(word):
            break
        kept.append(_capital(word))
    return " ".join([found.group(1), *kept, *words[len(kept) :]])


def cased(sentence: str) -> str:
    """The sentence with the capitals of the names and places it holds (see the module); a line
    with any capital but "I" is returned as it is."""
    if re.sub(r"\bI(?=\b|['’])", "i", sentence) != sentence.casefold():
        return sentence  # "I" is capitalised by offline_chat.plain, not by the owner
    text = _IS_NAMED.sub(_named, sentence)
    text = _NAMED.sub(_named, text)
    return _PLACE.sub(_place, text)


def said_back(statement: str) -> str:
    """A statement said back with the capitals of its names and places: the owner's words from
    the recent window ("29, nurse, live in manchester"), or an entry kept before this reading
    ("The owner lives in bristol.": its "The owner" is the brain's capital, not the owner's)."""
    ours = statement.startswith("The owner")
    text = cased("the owner" + statement[9:] if ours else statement)
    return "The owner" + text[9:] if ours else text
