"""Someone's coming birthday or age said without a day, read by broker.offline (docs/brain.md,
"Eighteenth pass: a pet that listens"):

    my daughter Ines turns seven next month  -> Ines turns 7 in April 2027, her birthday
    my grandson Kwame turns 18 next week     -> the week of Monday 20 September
    Arjun will be five in two weeks          (a day: broker.offline_birthdays)
    my mum turns 60 this year

A person's milestone, never an event: before, "I hope the daughter Ines turns seven goes well!"
(read as a plan, with "the" before the relation). The age is kept in figures ("seven" is 7), with
the month or week it falls in, read from the prompt's "# Now" ("next month" a month later would
point at another), in people/ under the relation, else the name, as a birthday is. A number
typed as a word is read here for a day as well ("turns seven on friday"): `figures` gives
broker.offline_birthdays the line with its age in figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from shelldon.broker.offline_words import HE, KIN, MONTHS, OTHERS, SHE, alternation
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen", "twenty")  # fmt: skip
_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90, "twenty": 20}  # fmt: skip
_AGE_WORD = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_WORDS[:9])}))?|{'|'.join(_WORDS)}|a hundred)"
)
_AGE = rf"(?P<age>\d{{1,3}}|{_AGE_WORD})"
REL = (
    r"(?P<rel>(?:best |little |big |older |younger |elder |twin |baby )?"
    rf"(?:{alternation(*KIN, *OTHERS)}))"
)
_MONTH = alternation(*MONTHS)
WHEN = (
    r"(?P<when>next month|this month|later this month|next week|this week|later this week|"
    r"this year|later this year|next year|soon|in (?:a|one|two|three|four|five|six|\d) months?|"
    rf"in (?:{_MONTH})|(?:this|next) (?:{_MONTH}))"
)
_TURNS = lazy(
    r"^(?:(?:actually|oh|btw|so|also|and|guess what)[\s,!]+)*"
    rf"(?:(?:my|our) {REL}(?: (?P<relname>[A-Z][\w-]*))?|(?P<name>[A-Z][\w-]*))"
    r" (?:turns|is turning|will be|'ll be|’ll be|is going to be|is gonna be)"
    rf" {_AGE}(?: years old)?\s+" + WHEN + r"[\s.!🎂🎉]*$",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(("it", "that", "this", "what", "who", "there", "he", "she", "i", "my"))


@dataclass(frozen=True)
class Milestone:
    reply: str
    keep: tuple[str, str, str]  # collection, name, content


def number(said: str) -> int | None:
    """An age typed in figures or as a word ("seven", "twenty-one"), else None."""
    w = said.casefold().replace("-", " ").split()
    if len(w) == 1 and w[0].isdigit():
        return int(w[0])
    if w == ["a", "hundred"]:
        return 100
    if w and w[0] in _TENS:
        ones = _WORDS.index(w[1]) + 1 if len(w) == 2 and w[1] in _WORDS[:9] else 0
        return _TENS[w[0]] + ones
    return _WORDS.index(w[0]) + 1 if len(w) == 1 and w[0] in _WORDS else None


_AGE_IN_WORDS = lazy(
    r"\b(turns|is turning|will be|'ll be|’ll be|is going to be|is gonna be) "
    rf"({_AGE_WORD})\b(?= (?:years old |on |this |next |in |today|tomorrow))",
    re.IGNORECASE,
)


def figures(sentence: str) -> str:
    """The line with an age said as a word in figures ("turns seven on friday" -> "turns 7 on
    friday"), for broker.offline_birthdays' rules."""
    return _AGE_IN_WORDS.sub(lambda m: f"{m[1]} {number(m[2])}", sentence)


# An age said just after a name ("we have a cat called Biscuit, she's 4", "… named Nibbles, he's
# one", "…, she is 2 years old"): kept with the name, not lost (the eighteenth pass, by the lead).
_AGE_AFTER = lazy(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+who\s+)(?:he|she|it|they)(?:'s|’s| is| are)\s+"
    rf"(?:(?:only|just|nearly|almost|about)\s+)?(?P<age>\d{{1,2}}|{_AGE_WORD})"
    r"(?P<unit>\s+(?:years?|months?|weeks?)(?:\s+old)?|\s+old)?\s*[.!]*$",
    re.IGNORECASE,
)


def age_after(rest: str) -> str | None:
    """The age `rest` (what follows a name) says, in figures with its unit ("she's four" -> "4",
    "he's 6 months old" -> "6 months old"), else None."""
    found = _AGE_AFTER.match(rest)
    if found is None or (age := number(found["age"])) is None:
        return None
    unit = " ".join(found["unit"].split()).casefold() if found["unit"] else ""
    return f"{age} {unit}".rstrip() if unit != "old" else f"{age}"


def when_dated(said: str, today: date) -> str | None:
    """The month or week a vague "when" points at, said so it still reads right later."""
    w = said.casefold()
    if w in ("this month", "later this month"):
        return f"in {today:%B %Y}"
    if w == "next month":
        first = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        return f"in {first:%B %Y}"
    if (months := re.match(r"in (\w+) months?$", w)) is not None:
        count = int(months[1]) if months[1].isdigit() else number(months[1]) or 1
        month = (today.month - 1 + count) % 12 + 1
        return f"in {date(today.year + (today.month - 1 + count) // 12, month, 1):%B %Y}"
    if w in ("next week", "this week", "later this week"):
        monday = today - timedelta(days=today.weekday())
        monday += timedelta(days=7) if w == "next week" else timedelta()
        return f"in the week of {monday:%A} {monday.day} {monday:%B}"
    if w in ("this year", "later this year"):
        return f"in {today.year}"
    if w == "next year":
        return f"in {today.year + 1}"
    named = re.match(r"(?:in|this|next) (\w+)$", w)
    if named is not None and named[1] in MONTHS:
        index = MONTHS.index(named[1]) + 1
        year = today.year + (index < today.month or (w.startswith("next") and index == today.month))
        return f"in {date(year, index, 1):%B %Y}"
    return None if w != "soon" else "soon"


def _said_when(when: str) -> str:
    """ "next month", "in May" (a month's name with its capital)."""
    return " ".join(w.capitalize() if w in MONTHS else w for w in when.casefold().split())


def said(sentence: str, now: LocalNow | None, relation_of: dict[str, str]) -> Milestone | None:
    """Someone's coming age said with a month, a week or "soon" (see the module); None for any
    other line, or with no clock in the prompt."""
    found = _TURNS.match(sentence.strip())
    if found is None or now is None:
        return None
    name = found["relname"] or found["name"] or ""
    age = number(found["age"])
    if name.casefold() in _NOT_NAMES or age is None:
        return None
    when = when_dated(found["when"], now.local.date())
    if when is None:
        return None
    name = name[:1].upper() + name[1:]
    rel = (found["rel"] or relation_of.get(name.casefold(), "")).casefold()
    who = f"The owner's {rel}" + (f" {name}" if name else "") if rel else name
    base = rel.split()[-1] if rel else ""
    their = "his" if base in HE else "her" if base in SHE else "their"
    for_them = {"his": "him", "her": "her"}.get(their, "them")
    said_as = name or f"your {rel}"
    content = f"{who} turns {age} {when}, {their} birthday."
    big = age in (1, 10, 13, 16, 18, 21, 30, 40, 50, 60, 70, 80, 90, 100)
    cheer = f"That's a big one for {for_them}." if big else "A birthday to look forward to!"
    reply = (
        f"Aw, {said_as} turns {age} {_said_when(found['when'])}! {cheer} 🎂 "
        f"I'll remember it's {when.removeprefix('in ')}."
        if when != "soon"
        else f"Aw, {said_as} turns {age} soon! 🎂 I'll remember."
    )
    return Milestone(reply, ("people", f"{rel or name.casefold()} birthday", content))
