"""A short line that only makes sense with the line before it, made whole, read by broker.offline
(docs/brain.md, "Tenth pass: a pet, not a form-filler").

    my dogs name is bruno           sorry i meant brutus not bruno  -> my dogs name is brutus
    i have a meeting on monday      actually its tuesday not monday -> … a meeting on tuesday
    i work at the library           i said library but its actually the city archive
                                                                    -> i work at the city archive
    do you know my birthday?        its 14 april                    -> my birthday is 14 april
    (the pet: "I don't know that yet. …")

The new value takes the old one's place in the owner's last line that said it, and the line made
whole is read by the fact rules as a correction (the same entry, revised by the gate) or, after
the owner asked the pet something it did not know, as the answer to that question. A correction
whose line kept nothing (a plan is wished well, not kept) is said back ("Got it: Tuesday, not
Monday."). Before the tenth pass these were "I hear you." and nothing kept, or "I hope the
actually its goes well!". A correction that restates itself ("sorry i meant i live in leeds, not
york") is offline_talk.correction's, and is left to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.offline_sentences import is_question
from shelldon.broker.offline_view import sentences
from shelldon.broker.offline_words import MONTHS, WEEKDAYS, a_day, alternation
from shelldon.broker.patterns import lazy

_OPENER = r"^(?:(?:sorry|oops|wait|no|nope|oh|ah|actually|my bad|correction|whoops)[\s,!.:-]+)*"
_VALUE = r"[\w'’&-]+(?:\s+[\w'’&-]+){0,3}"
_SHAPES = (
    # "sorry i meant brutus not bruno", "i mean tuesday, not monday"
    lazy(
        _OPENER + rf"i (?:meant|mean)\s+(?P<new>{_VALUE}?)\s*,?\s+not\s+(?P<old>{_VALUE}?)[\s!.]*$",
        re.IGNORECASE,
    ),
    # "actually its tuesday not monday", "no it's Brutus, not Bruno"
    lazy(
        _OPENER + rf"(?:it's|its|it’s|it is|it was)\s+(?:actually\s+)?(?P<new>{_VALUE}?)\s*,?\s+"
        rf"not\s+(?:on\s+|in\s+|at\s+)?(?P<old>{_VALUE}?)[\s!.]*$",
        re.IGNORECASE,
    ),
    # "sorry, not Lucia, is Luiza", "not monday, tuesday" (the eleventh pass)
    lazy(
        _OPENER + rf"not\s+(?P<old>{_VALUE}?)\s*[,.;]\s*(?:(?:it's|its|it’s|it is|it was|"
        r"it were|is|was|but)\s+)?"
        rf"(?P<new>{_VALUE}?)[\s!.]*$",
        re.IGNORECASE,
    ),
    # "i said library but its actually the city archive"
    lazy(
        _OPENER + rf"i said\s+(?P<old>{_VALUE}?)\s*,?\s+but\s+(?:it's|its|it’s|it is)\s+"
        rf"(?:actually\s+|really\s+)?(?P<new>{_VALUE}?)[\s!.]*$",
        re.IGNORECASE,
    ),
)
# A value that is a whole clause ("i live in leeds") is a correction stated in full.
_CLAUSE = lazy(r"^(?:i|i'm|im|we|my|our|you|he|she|they)\b", re.IGNORECASE)
# What the pet says when it did not know: the owner's next line may be the answer.
_NOT_KNOWN = lazy(r"^I don't know (?:that|what|when|where|who)|haven't told me", re.IGNORECASE)
_ASKED_MINE = lazy(
    r"^(?:(?:so|and|hey|ok|okay)[\s,]+)*(?:what(?:'s|’s| is| was)?|whats|when(?:'s|’s| is)?|whens|"
    r"where(?:'s|’s| is)?|wheres|who(?:'s|’s| is)?|do you (?:know|remember)|remember)\s+"
    r"(?P<mine>(?:my|our) [\w'’ ]{2,30}?)[\s?!.]*$",
    re.IGNORECASE,
)
_ANSWER = lazy(
    r"^(?:(?:it's|its|it’s|it is|that's|thats|on|the|oh|um|well)[\s,]+)*(?P<value>[^?]{1,40}?)"
    r"[\s!.]*$",
    re.IGNORECASE,
)
_DATE_OR_NAME = lazy(rf"\d|\b(?i:{alternation(*MONTHS, *WEEKDAYS)})\b|^[A-ZÀ-ÖØ-Þ]")
# "at the library" put right as "the city archive": one article
_TWO_ARTICLES = lazy(r"\b(?:the|a|an|my) ((?:the|a|an|my) )", re.IGNORECASE)
_SAID_WITH = lazy(r"^(?:it's|its|it’s|it is)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mended:
    """The owner's line made whole, and what it put right (`old` "" for an answer)."""

    statement: str
    new: str
    old: str = ""

    def heard(self) -> str:
        """The correction said back, for a line the fact rules kept nothing of."""
        return f"Got it: {_day(self.new)}, not {_day(self.old)}."


def mended(sentence: str, owner_recent: list[str], pet_last: str) -> Mended | None:
    """The line made whole with the owner's line before it, or None when it stands alone."""
    text = sentence.strip()
    for shape in _SHAPES:
        found = shape.match(text)
        if found is None:
            continue
        new, old = found.group("new").strip(), found.group("old").strip()
        if _CLAUSE.match(new) or new.casefold() == old.casefold():
            return None
        word = re.compile(rf"(?<![\w'’]){re.escape(old)}(?![\w'’])", re.IGNORECASE)
        said = [s for line in owner_recent for s in sentences(line)]  # "… library. do you …?"
        for line in reversed(said):
            where = word.search(line)
            if line.strip() != text and where and not is_question(line):
                new = _fitted(new, old, line[where.end() :])
                whole = _TWO_ARTICLES.sub(r"\1", word.sub(new.replace("\\", r"\\"), line, count=1))
                return Mended(whole.rstrip(" .!"), new, old)
        return None
    return _answered(text, owner_recent, pet_last)


def _fitted(new: str, old: str, after: str) -> str:
    """The new value as it fits where the old one stood (the fourteenth pass): "not the shipyard
    in gdansk, it was Newcastle" puts right the place alone ("the shipyard in Newcastle"), and
    "it's the Bath half, not Cardiff" in "the Cardiff half marathon" is "Bath" ("the Bath half
    marathon", never "the the Bath half half marathon")."""
    olds, news = old.split(), new.split()
    if len(olds) > 1 and len(news) == 1 and new[:1].isupper():
        return " ".join([*olds[:-1], new])
    if len(olds) == 1 and len(news) > 1:
        if news[0].casefold() in ("the", "a", "an", "my"):
            news = news[1:]
        following = after.split()
        while len(news) > 1 and following and news[-1].casefold() == following[0].casefold():
            news, following = news[:-1], following[1:]
    return " ".join(news)


def _answered(text: str, owner_recent: list[str], pet_last: str) -> Mended | None:
    """ "its 14 april" after "do you know my birthday?" and the pet's "I don't know that yet":
    "my birthday is 14 april". Only a value that reads as one (a date, a number, a name, or one
    said "it's …"), so "lol" or "nvm" is never kept as a birthday."""
    if not owner_recent or not _NOT_KNOWN.search(pet_last) or is_question(text):
        return None
    asked = _ASKED_MINE.match(owner_recent[-1].strip())
    answer = _ANSWER.match(text)
    if asked is None or answer is None or len(answer.group("value").split()) > 4:
        return None
    value = answer.group("value").strip()
    if not (_DATE_OR_NAME.search(value) or _SAID_WITH.match(text)) or _CLAUSE.match(value):
        return None
    return Mended(f"{asked.group('mine').strip()} is {value}", value)


def _day(word: str) -> str:
    """A day or a month said back with its capital ("Tuesday"); any other word as typed."""
    return word[:1].upper() + word[1:] if a_day(word) else word
