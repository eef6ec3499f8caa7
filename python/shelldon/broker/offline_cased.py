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
from collections.abc import Iterable

from shelldon.broker.offline_talk import is_name
from shelldon.broker.offline_words import (
    ANIMALS,
    KIN,
    KIN_GROUPS,
    MONTHS,
    OTHERS,
    WEEKDAYS,
    alternation,
    plurals,
)
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
# Only the words before the place: the place's own words are read one by one (`_place`), so
# "grew up in dublin but live in cork" finds both places, and "I'm from" (the "I" plain() gives)
# is read as "im from".
_PLACE = lazy(
    r"(?i:\b((?:live|lives|lived|living|moved|move|moving|based|born|grew up|raised|settled)"
    r"(?: back| away)? (?:in|to|near|from)|(?:i'm|i’m|i am|im|am|is|are|'s|comes?|originally) "
    r"(?:originally )?from|(?:^|,)\s*(?:originally )?from)) "
)
_PLACE_WORD = lazy(r"[a-zà-ÿ][\w'’-]*")
# The first word of a place's name that is also a plain word ("new york", "el paso").
_PLACE_LEADS = frozenset(("new", "el", "la", "le", "st", "port", "fort", "mount", "cape"))
# The last word of a place's name that is also a plain word ("salt lake city").
_PLACE_TAILS = frozenset(("city", "town", "bay", "beach", "springs", "falls", "island", "heights"))
# Several names at once: "my cats are called miso and tofu", "three kids: tom, ella and sam",
# "my best friends are zoe and mia", "two rabbits named flopsy and mopsy". Each word of the list
# must be able to be a name, else none is ("my kids are tired and hungry").
GROUP = alternation(*plurals(*KIN, *OTHERS, *ANIMALS), *KIN_GROUPS, "twins", "pets")
_ONE = r"[a-zà-ÿ][\w'’-]*"
_NAME_LIST = lazy(
    rf"(\b(?:called|named|(?:{GROUP}) are(?: called| named)?|(?:{GROUP})\s*[:,]))\s+"
    rf"({_ONE}(?:\s*,\s*{_ONE})*,?\s+(?:and|&)\s+{_ONE})(?![\w'’-])"
    # or one name after "called" or "named" ("we used to have a dog called max")
    rf"|(\b(?:called|named))\s+({_ONE})(?=\s*[,.!?]|\s*$|\s+(?:and|but|who|when)\b)"
)
_LIST_WORD = lazy(_ONE)


def _name_list(found: re.Match[str]) -> str:
    at = 2 if found.group(2) is not None else 4
    words = [w for w in _LIST_WORD.findall(found.group(at)) if w not in ("and",)]
    # After "called" or "named" a relation's word is a name too ("nan, dot and pip", "billy,
    # nanny and gruff"), and so is a word with an adverb's ending ("billy", "emily"), when the
    # list is not only relations' words ("called mum and dad").
    naming = at == 2 and re.search(r"\b(?:called|named)\b", found.group(1), re.IGNORECASE)
    if naming:  # a list: one word alone after "called" stays strict ("got called early")
        fits = all(_named_so(w) for w in words) and not all(w in _PEOPLE for w in words)
    else:
        fits = all(_can_be_name(w) for w in words)
    if not fits:
        return found.group(0)
    named = _LIST_WORD.sub(
        lambda w: w.group(0) if w.group(0) == "and" else _capital(w.group(0)), found.group(at)
    )
    return found.group(0)[: found.start(at) - found.start(0)] + named


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
        "year", "week", "month", "weekend", "flat", "house", "home", "place", "city",
        "village", "apartment", "area", "country", "job", "street", "road", "off", "broke",
        "lost", "thirsty", "outside", "inside", "skint", "stuck", "alive", "asleep", "full",
        "hungover", "bussin", "sus", "lit", "single", "free", "back", "home", "here", "there",
    )
)  # fmt: skip
_PEOPLE = frozenset((*KIN, *OTHERS))
_NOT_NAME_ENDS = ("ing", "ed", "ful", "ous", "ive", "able", "ible", "less", "ish", "est", "ly")


def can_be_name(word: str) -> bool:
    """A word typed in lower case that may be someone's name ("ana", not "tired" nor "off")."""
    return _can_be_name(word)


def _can_be_name(word: str) -> bool:
    w = word.casefold()
    return (
        is_name(w)
        and w not in _NOT_NAME
        and w not in _PEOPLE  # "my twin sister": no one called "sister"
        and not (len(w) > 4 and w.endswith(_NOT_NAME_ENDS))
        and not w.isdigit()
    )


def _named_so(word: str) -> bool:
    """A word after "called" or "named": a name unless it is a stop word, a mood or a state."""
    w = word.casefold()
    return (w in _PEOPLE or is_name(w)) and w not in _NOT_NAME and not w.isdigit()


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _named(found: re.Match[str]) -> str:
    word = found.group(2)
    return f"{found.group(1)} {_capital(word) if _can_be_name(word) else word}"


def _places(text: str) -> str:
    """Each place after live/moved/from with its capitals: up to three words that can be a
    name ("buenos aires", "san francisco"), a lead such as "new" only before one that can."""
    out: list[str] = []
    at = 0
    for found in _PLACE.finditer(text):
        if found.start() < at:
            continue
        out.append(text[at : found.end()])
        at = found.end()
        for count in range(3):
            word = _PLACE_WORD.match(text, at)
            if word is None:
                break
            w = word.group(0)
            after = _PLACE_WORD.match(text, word.end() + 1)
            lead = (
                count == 0
                and w in _PLACE_LEADS
                and text[word.end() : word.end() + 1] == " "
                and after is not None
                and _can_be_name(after.group(0))
            )
            tail = count > 0 and w in _PLACE_TAILS  # "salt lake city", "kansas city"
            if not (lead or tail or _can_be_name(w)):
                break
            out.append(_capital(w))
            at = word.end()
            if text[at : at + 1] != " " or _PLACE_WORD.match(text, at + 1) is None:
                break
            out.append(" ")
            at += 1
        if out and out[-1] == " ":  # the space before a word that was no name's
            out.pop()
            at -= 1
    out.append(text[at:])
    return "".join(out)


# Days and months: a weekday always ("on sunday"), a month beside a day's number ("june 12", "the
# 3rd of may"; "may" and "march" are words too, so never alone).
_DAY_NAMES = lazy(
    rf"(?P<before>\d(?:st|nd|rd|th)?\s+(?:of\s+)?)?\b(?P<name>{alternation(*WEEKDAYS, *MONTHS)})\b"
    r"(?P<after>(?=\s+\d))?"
)
_MONTH_WORDS = frozenset(MONTHS)


def _day_name(found: re.Match[str]) -> str:
    name, before = found["name"], found["before"] or ""
    if name in _MONTH_WORDS and not before and found["after"] is None:
        return found.group(0)  # "i may go", "we march on": words, not months
    return before + name.capitalize()


def _day_names(text: str) -> str:
    return _DAY_NAMES.sub(_day_name, text)


def cased(sentence: str, known: Iterable[str] = ()) -> str:
    """The sentence with the capitals of the names and places it holds (see the module), and of
    the names the pet already knows (`known`: "tom is 8" after "kids: Tom, Ella and Sam"); a
    line with any capital but "I" is returned as it is."""
    if re.sub(r"\bI(?=\b|['’])", "i", sentence) != sentence.casefold():
        return sentence  # "I" is capitalised by offline_chat.plain, not by the owner
    names = {n.casefold(): n for n in known if _can_be_name(n)}
    text = (
        _LIST_WORD.sub(lambda w: names.get(w.group(0), w.group(0)), sentence) if names else sentence
    )
    text = _NAME_LIST.sub(_name_list, text)
    text = _IS_NAMED.sub(_named, text)
    text = _NAMED.sub(_named, text)
    return _day_names(_places(text))


def said_back(statement: str) -> str:
    """A statement said back with the capitals of its names and places: the owner's words from
    the recent window ("29, nurse, live in manchester"), or an entry kept before this reading
    ("The owner lives in bristol.": its "The owner" is the brain's capital, not the owner's)."""
    ours = statement.startswith("The owner")
    text = cased("the owner" + statement[9:] if ours else statement)
    return "The owner" + text[9:] if ours else text
