"""Someone's birthday said relative to today, often with the age they turn, read by broker.offline
(docs/brain.md, "Thirteenth pass"):

    it's Idris's birthday on saturday, he'll be 45   -> Idris turns 45 on Saturday 6 February
    actually its tom's birthday next friday, he'll be 31
    my mum's birthday is in two weeks, she turns 60
    lena's birthday is next tuesday                  -> the date alone, no age

The day is kept as the date it falls on, read from the prompt's "# Now" (a week later "on
saturday" would point at another day), with the age beside it, in people/ under who the person
is to the owner where memory says so ("husband birthday"), else under the name. "On saturday" and
"this saturday" are the coming one (never today), "next saturday" the one in next week (Monday to
Sunday), "in two weeks" fourteen days on. Without the prompt's clock, or a day it cannot read
("sometime in spring"), it returns None and the other rules hear the line. Before: "Tell me
more!" and nothing kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from shelldon.broker.offline_words import HE, KIN, OTHERS, SHE, WEEKDAYS, alternation
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_WHEN = (
    r"(?P<when>today|tomorrow|(?:on |this |next |on next )?(?:" + "|".join(WEEKDAYS) + r")"
    r"|in (?:\d{1,2}|a|one|two|three|four|five|six) (?:days?|weeks?)|in a fortnight"
    r"|a week (?:on|from) (?:" + "|".join(WEEKDAYS) + r"))"
)
_AGE = (
    r"(?:[\s,;]+(?:and\s+)?(?:(?:he|she|they)(?:'ll|’ll| will| is going to|'s going to| is gonna)"
    r" be|(?:he|she|they) turns?|(?:he|she|they)(?:'s|’s| is| are) turning|turning)\s+"
    r"(?P<age>\d{1,3}))?"
)
_REL = (
    r"(?P<rel>(?:best |little |big |older |younger |elder |twin )?"
    rf"(?:{alternation(*KIN, *OTHERS)}))"
)
_BIRTHDAY = lazy(
    r"^(?:(?:actually|oh|btw|so|also|and)[\s,]+)*"
    r"(?:(?:it'?s|its|it’s|it is)\s+)?"
    rf"(?:(?:my|our) {_REL}"
    r"(?: (?P<relname>[A-Za-zÀ-ÿ][\w-]*))?|(?P<name>[A-Za-zÀ-ÿ][\w-]*))['’]?s"
    r" (?:birthday|bday|b-day|(?P<nth>\d{1,3})(?:st|nd|rd|th)(?: birthday| bday)?)"
    r"(?: is| will be|'s)?\s+" + _WHEN + _AGE + r"[\s.!🎂🎉]*$",
    re.IGNORECASE,
)
# "my son Femi turns 6 on wednesday", "Ana will be 40 on saturday": the age first, then the day.
_TURNS = lazy(
    r"^(?:(?:actually|oh|btw|so|also|and)[\s,]+)*"
    rf"(?:(?:my|our) {_REL}"
    r"(?: (?P<relname>[A-Za-zÀ-ÿ][\w-]*))?|(?P<name>[A-Za-zÀ-ÿ][\w-]*))"
    r" (?:turns|is turning|will be|'ll be|’ll be|is going to be|is gonna be)"
    r" (?P<age>\d{1,3})"
    r"(?: years old)?\s+" + _WHEN + r"[\s.!🎂🎉]*$",
    re.IGNORECASE,
)
# "how old will Tom be?", "how old is my mum going to be?": the age a kept birthday gives.
_HOW_OLD = lazy(
    r"^how old (?:will|is|'s|’s) (?P<who>(?:my |our )?[\w'’-]+(?: [\w'’-]+)??)"
    r"(?: be| going to be| gonna be| turning| turn)?(?: again)?\s*\??$",
    re.IGNORECASE,
)
_KEPT_AGE = lazy(r"\bturns (\d{1,3}) on (\d{1,2} [A-Z][a-z]+)")
_NOT_NAMES = frozenset(("it", "that", "this", "what", "who", "there", "he", "she", "when"))


@dataclass(frozen=True)
class Birthday:
    reply: str
    keep: tuple[str, str, str]  # collection, name, content


def day_said(when: str, today: date) -> date | None:
    """The date a day said relative to today falls on; None for one it cannot read."""
    w = when.casefold().strip()
    if w == "today":
        return today
    if w == "tomorrow":
        return today + timedelta(days=1)
    if w == "in a fortnight":
        return today + timedelta(days=14)
    if (span := re.match(r"in (\w+) (day|week)s?$", w)) is not None:
        count = int(span[1]) if span[1].isdigit() else _NUMBERS.get(span[1])
        days = None if count is None else count * (7 if span[2] == "week" else 1)
        return None if days is None else today + timedelta(days=days)
    if (after := re.match(r"a week (?:on|from) (\w+)$", w)) is not None:
        coming = day_said(after[1], today)
        return None if coming is None else coming + timedelta(days=7)
    found = re.match(r"(?:on |this |(next |on next ))?(\w+)$", w)
    if found is None or found[2] not in WEEKDAYS:
        return None
    wanted = WEEKDAYS.index(found[2])
    if found[1]:  # "next friday": the friday of next week
        return today + timedelta(days=7 - today.weekday() + wanted)
    return today + timedelta(days=(wanted - today.weekday()) % 7 or 7)


def birthday(sentence: str, now: LocalNow | None, relation_of: dict[str, str]) -> Birthday | None:
    """Someone's birthday said with a day relative to today (see the module); `relation_of`
    maps a known name (casefolded) to who they are to the owner ("husband")."""
    text = sentence.strip()
    found = _BIRTHDAY.match(text) or _TURNS.match(text)
    if found is None or now is None:
        return None
    name = found["relname"] or found["name"] or ""
    if name.casefold() in _NOT_NAMES or name.casefold() == "my":
        return None
    day = day_said(found["when"], now.local.date())
    if day is None:
        return None
    name = name[:1].upper() + name[1:]
    rel = (found["rel"] or relation_of.get(name.casefold(), "")).casefold()
    who = f"The owner's {rel}" + (f" {name}" if name else "") if rel else name
    said = name or f"your {rel}"
    on = f"{day:%A} {day.day} {day:%B}"
    age = found["age"] or found.groupdict().get("nth")
    content = (
        f"{who} turns {age} on {day.day} {day:%B}, {_their(sentence, rel)} birthday."
        if age
        else f"{who}'s birthday is on {day.day} {day:%B}."
    )
    wish = (
        f"Happy birthday to {said}!"
        if day == now.local.date()
        else f"Happy early birthday to {said}!"
    )
    whose = f"{said[:1].upper() + said[1:]}'s birthday is"
    reply = (
        f"Ooh, {said} turns {age} on {on}! {wish}" if age else f"{whose} on {on}! {wish}"
    ) + " 🎂 I'll remember the day."
    return Birthday(reply, ("people", f"{rel or name.casefold()} birthday", content))


def _their(sentence: str, rel: str) -> str:
    found = re.search(r"\b(he|she)\b", sentence, re.IGNORECASE)
    said = found[1].casefold() if found else ""
    base = rel.split()[-1] if rel else ""
    if said == "he" or base in HE:
        return "his"
    return "her" if said == "she" or base in SHE else "their"


def age_asked(question: str, known: list[str]) -> str | None:
    """ "how old will Tom be?": the age a kept birthday gives ("Tom turns 31 on 12 February."),
    None when the question is another or no kept birthday names the person."""
    found = _HOW_OLD.match(question.strip())
    if found is None:
        return None
    who = re.sub(r"^(?:my|our) ", "", found["who"], flags=re.IGNORECASE).casefold()
    for text in reversed(known):
        kept = _KEPT_AGE.search(text)
        if kept is not None and re.search(rf"\b{re.escape(who)}\b", text, re.IGNORECASE):
            said = re.sub(r"^(?:my|our) ", "your ", found["who"], flags=re.IGNORECASE)
            return f"{said[:1].upper() + said[1:]} turns {kept[1]} on {kept[2]}."
    return None


# "Lily turns 7 on march 3rd", "is turning 40 on the 9th of may", "will be 10 on 14 June": an
# age reached on a day is a birthday, though the word is not said (the fifteenth pass: "when is
# Lily's birthday?" was answered "I don't know that yet. What I do know: … turns 7 on march 3rd").
_TURNS_ON = lazy(
    r"\b(?:turns|turned|is turning|turning|will be|'ll be|’ll be|is going to be)\s+\d{1,3}"
    r"(?:\s+years old)?\s+on\b",
    re.IGNORECASE,
)


def says_birthday(text: str) -> bool:
    """Whether a statement gives someone's birthday by the age they turn on a day."""
    return bool(_TURNS_ON.search(text))
