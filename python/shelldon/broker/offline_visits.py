"""Someone coming, or the owner going to see someone, on a day said relative to today, kept as its
date, read by broker.offline (docs/brain.md, "Fourteenth pass").

    my sister Gwen is visiting next friday   -> The owner's sister Gwen is visiting on Friday 12
                                                March.
    grandson Luca is coming next friday       -> … Luca is coming on Friday 12 March.
    seeing my friend Lou next friday for her 40th
    planning to visit my dad next friday for a week
    when is Gwen coming?                      -> Your sister Gwen is visiting on Friday 12 March.
    what am I doing on Thursday?              -> You've got an interview on Thursday … (`on_day`)

A visit a week off or more is kept, past the recent window, as a trip weeks ahead is
(offline_notes); one in the days ahead is wished well and left to history (offline_life's
plans). The day is kept as the date the prompt's "# Now" gives ("next friday" the Friday of
next week, as offline_birthdays reads it), so the reply says the date (a wrong guess shows) and
a later "when is Gwen coming?" is answered with it, not with "next friday" said days ago.
Before the fourteenth pass these got "I hear you." or "I hope Planning to visit your dad goes
well!" and the question was answered with the name alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.offline_birthdays import day_said
from shelldon.broker.offline_past import PAST
from shelldon.broker.offline_words import KIN, OTHERS, WEEKDAYS, alternation, to_second_person
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_WHEN = (
    r"(?P<when>(?:on |this |next |on next )?(?:" + "|".join(WEEKDAYS) + r")"
    r"|in (?:\d{1,2}|a|one|two|three|four|five|six) (?:days?|weeks?)|in a fortnight)"
)
_WHO = (
    r"(?P<who>(?:(?:my|our) )?(?:(?:best |little |big |older |younger |elder |twin )?"
    rf"(?:{alternation(*KIN, *OTHERS)})(?-i: [A-ZÀ-Þ][\w-]*)?)|(?-i:[A-ZÀ-Þ][\w-]*))"
)
_TAIL = r"(?P<tail>(?:,? (?:for|to|with)\b[^,]*)?)(?:,.*)?[\s.!]*$"
_COMING = lazy(
    rf"^{_WHO} (?:is|'s|’s|are) (?P<verb>visiting|coming(?: over| round| to stay| up| down)?|"
    rf"arriving|flying in|staying)(?: (?:us|me))? {_WHEN}{_TAIL}",
    re.IGNORECASE,
)
_GOING = lazy(
    r"^(?:(?:i'm|i’m|i am|we're|we’re|we are)\s+)?(?:planning (?:to|on)\s+)?"
    r"(?P<verb>seeing|visiting|visit|see|meeting|meet|going to see|going to visit)"
    rf" {_WHO} {_WHEN}{_TAIL}",
    re.IGNORECASE,
)
_ASKED = lazy(
    r"^(?:when|what day)(?: is| are| am i| are we| will| do i| did i say)?\s+"
    r"(?:i |we )?(?:seeing |visiting |meeting |going to see )?(?P<who>(?:my |our )?[\w'’-]+"
    r"(?: [A-Z][\w-]*)?)(?: (?:coming|visiting|arriving|coming over|here|due))?\s*\??$",
    re.IGNORECASE,
)
_ING = {"see": "seeing", "visit": "visiting", "meet": "meeting"}
_KEPT = lazy(r"\bon (?P<day>[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+)\b")


@dataclass(frozen=True)
class Visit:
    reply: str
    keep: tuple[str, str, str]  # collection, name, content


def _owners(who: str) -> tuple[str, str]:
    """(the kept words, the said words) for who: "my sister Gwen" -> the owner's / your."""
    bare = re.sub(r"^(?:my|our) ", "", who, flags=re.IGNORECASE)
    if bare.split()[0].casefold() in (*KIN, *OTHERS) or bare.split()[0].casefold() in (
        "best", "little", "big", "older", "younger", "elder", "twin"
    ):  # fmt: skip
        return f"the owner's {bare}", f"your {bare}"
    return bare, bare


def said(sentence: str, now: LocalNow | None) -> Visit | None:
    """A visit on a day relative to today (see the module), or None."""
    text = " ".join(sentence.split())
    found = _COMING.match(text) or _GOING.match(text)
    if found is None or now is None:
        return None
    day = day_said(found["when"], now.local.date())
    if day is None or (day - now.local.date()).days < 7:
        return None  # a plan for the days ahead stays history's, wished well (offline_life)
    on = f"{day:%A} {day.day} {day:%B}"
    kept, spoken = _owners(found["who"])
    tail = (found["tail"] or "").strip(" ,")
    tail = re.sub(r"\b(?:my|our)\b", "their", tail, flags=re.IGNORECASE)
    more = f", {tail}" if tail else ""
    if _COMING.match(text):
        verb = found["verb"].casefold()
        content = f"{kept[:1].upper()}{kept[1:]} is {verb} on {on}{more}."
        said_back = f"{spoken[:1].upper()}{spoken[1:]} {'are' if spoken == 'you' else 'is'} {verb}"
    else:
        verb = _ING.get(found["verb"].casefold().split()[-1], "seeing")
        theirs = kept.replace("the owner's ", "their ")
        content = f"The owner is {verb} {theirs} on {on}{more}."
        said_back = f"{verb.capitalize()} {spoken}"
    reply = f"{said_back} on {on}! How lovely. I'll remember the day."
    name = re.sub(r"^(?:the owner's|your) ", "", kept).casefold()
    return Visit(reply, ("facts", f"{name} visit", content))


def asked(question: str, known: list[str]) -> str | None:
    """ "When is Gwen coming?": the day a kept visit falls on, or None (not about a visit)."""
    found = _ASKED.match(" ".join(question.split()))
    if found is None:
        return None
    who = re.sub(r"^(?:my|our) ", "", found["who"], flags=re.IGNORECASE).casefold()
    for text in known:
        day = _KEPT.search(text)
        if day is None or not re.search(rf"\b{re.escape(who)}\b", text, re.IGNORECASE):
            continue
        if not re.search(r"\b(?:visiting|coming|arriving|staying|seeing|flying)\b", text):
            continue
        what = re.sub(r"^The owner is\b", "You're", text.rstrip("."))
        what = re.sub(r"\bthe owner's\b|\btheir\b", "your", what, flags=re.IGNORECASE)
        return f"{what}." if day["day"] in what else f"On {day['day']}: {what}."
    return None


# The day a question about plans names (the nineteenth pass: "what am I doing on Thursday?" was
# "You haven't told me about any plans yet." after "I've got an interview on Thursday").
_DAY_ASKED = lazy(rf"\b(?:{'|'.join(WEEKDAYS)}|today|tonight|tomorrow|weekend)\b", re.IGNORECASE)


def on_day(question: str, known: list[str]) -> str | None:
    """What the owner said of the day a question names (`known` newest first), in the pet's
    words, whoever it was said of; None when the question names no day or nothing names it."""
    day = _DAY_ASKED.search(question)
    if day is None:
        return None
    said: list[str] = []
    for text in known:
        if not re.search(rf"\b{day.group(0)}\b", text, re.I) or text.rstrip().endswith("?"):
            continue
        if PAST.search(text):
            continue  # "I was off on Monday": not what is coming; a sister's visit is
        line = to_second_person(text)
        line = line[:1].upper() + line[1:]
        if line.casefold() not in (s.casefold() for s in said):
            said.append(line)
    return " ".join(said[:2]) or None
