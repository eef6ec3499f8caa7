"""Lines typed as notes, read by broker.offline before its fact rules (docs/brain.md, "Twelfth
pass: conversations it has never seen"): what a busy owner, a student or someone planning a
trip sends between tasks.

- a label and a list ("packing list so far: passport, adapter, sunscreen", "kids: mia 7 and
  leo 4") -> kept as the owner's list ("The owner's packing list: passport, …");
- someone's week ("mia has swimming thurs 5pm", "leo has football on saturdays") -> kept
  ("Mia has swimming on Thursday at 5pm.");
- a trip planned ("planning a trip to portugal!! lisbon 12-16 may then porto till the 20th") ->
  kept with its dates, the fragment of dates after it joined to it (`joined`): weeks ahead, past
  the recent window, so memory's, not only history's;
- `trip_asked`: "do you know where im going in may?" is the trip kept, said back;
- `read`: an event said with its day and no "my" ("contract law exam is on wednesday at 9am")
  is the owner's ("my contract law exam is …", which the fact rules keep), and a study said as a
  year or a student ("2nd year law at leeds uni", "I'm a law student") is "I study law …".

Before the twelfth pass these were "Mm-hm, I'm listening.", "Tell me more!" or "Planning a trip
to? I'm happy keeping you company while you do." with nothing kept. Nothing here guesses: a
line that fits no shape is left to the rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from shelldon.broker.offline_words import MONTHS
from shelldon.broker.patterns import lazy


@dataclass(frozen=True)
class Note:
    """The pet's words for a note and what it proposes to keep: (collection, name, content)."""

    reply: str
    keep: tuple[str, str, str]


_LISTED = (
    r"list|lists|kids|children|pets|allergies|meds|medication|itinerary|plans|schedule|goals|"
    r"to-?do|to do|wishlist|wish list|bucket list|timetable|rota|routine|checklist|ingredients"
)
_LIST = lazy(
    rf"^(?:my |our |the )?(?P<label>(?:[a-z][\w'’-]* ){{0,2}}?(?:{_LISTED}))"
    r"(?: so far| for now| atm| rn)?\s*:\s*(?P<items>[^:?]{3,200}?)[\s.!]*$",
    re.IGNORECASE,
)
_MANY = lazy(r"(?:kids|children|pets|allergies|meds|plans|goals|lists)$", re.IGNORECASE)
_WHO_LISTED = lazy(r"^(?:kids|children|pets|grandkids|grandchildren)$", re.IGNORECASE)
_NAME_AGE = lazy(r"\b([a-z][\w'’-]*) (\d{1,2})\b", re.IGNORECASE)
_DAYS = {
    "mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday", "weds": "Wednesday",
    "thu": "Thursday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday",
    "sat": "Saturday", "sun": "Sunday",
}  # fmt: skip
_DAY = r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?s?|wednesdays?|saturdays?"
_NOT_SOMEONE = (
    r"i|he|she|we|they|it|you|u|who|this|that|everyone|everybody|nobody|someone|there|what|"
    r"which|when|where|how|why"
)
_SCHEDULE = lazy(
    rf"^(?P<who>my [a-z]+(?: [a-z]+)?|(?!(?:{_NOT_SOMEONE})\b)[a-z][\w'’-]*) "
    r"(?:has|has got|'s got|’s got|does|goes to) "
    # a lesson or a club kept, never a one-off ("a dentist appointment") nor how they are
    r"(?P<what>(?!(?:been|had|gone|got|left|come|done|to|not|no|a|an|the|his|her|their|my)\b)"
    r"[a-z][\w' -]{1,30}?)"
    r"(?<!\bsince)(?<!\buntil)(?<!\btill)(?<!\bbefore)(?<!\bafter)(?<!\bfrom) "
    rf"(?:on |every )?(?P<day>{_DAY})\b,?"
    r"(?:(?: at)? (?P<at>\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?))?[\s.!]*$",
    re.IGNORECASE,
)
_TRIP = lazy(
    r"^(?:(?:i'?m|im|i am|we'?re|we are|were|i|we|i'?ve|we'?ve) )?(?:(?:just|finally) )?"
    r"(?:planning|booking|booked|going on|taking|off on|organi[sz]ing) (?:a |an |our |my )?"
    r"(?P<kind>(?:\w+ )?(?:trip|holiday|vacation|getaway|weekend away|honeymoon|city break)) "
    r"(?:to|in|around) (?P<where>[a-z][\w' -]{1,30}?)"
    r"(?P<when> (?:in|this|next|for|on|from|over|at the end of) [\w' -]{2,30})?[\s!.]*$",
    re.IGNORECASE,
)
_MONTH = lazy(rf"\b(?:{'|'.join(MONTHS)}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b", re.I)
# The dates of a plan, typed as a fragment after it: "lisbon 12-16 may then porto till the 20th".
_DATES = lazy(
    r"^(?!(?:i|we|my|our|it|its|it's)\b)[a-z][\w' -]{0,40}\b\d{1,2}(?:st|nd|rd|th)?"
    r"(?:\s*[-–]\s*\d{1,2}(?:st|nd|rd|th)?)?\s+[a-z]{3,9}\b[^?]{0,60}$",
    re.IGNORECASE,
)
_EVENT = lazy(
    r"^(?!(?:my|our|the|his|her|their|your|this|that|a|an)\b)(?P<what>(?:[a-z][\w'’-]* ){0,3}"
    r"(?:exam|test|interview|appointment|meeting|flight|party|wedding|match|game|shift|"
    r"lesson|deadline|presentation|surgery|operation|recital|concert|viva|final|midterm)s?) "
    r"(?=(?:is|are) (?:on|at|this|next|tomorrow|today|tonight|in \d)\b)",
    re.IGNORECASE,
)
_SHIFTS = lazy(
    r"\b(i|we) do ((?:the )?(?:nights|night shifts?|days|day shifts?|lates|earlies|shifts|"
    r"weekends)) (?=(?:at|in|for|on)\b)",
    re.IGNORECASE,
)
_YEAR = r"(?:1st|2nd|3rd|4th|first|second|third|fourth|final|last)"
_STUDY = lazy(
    rf"(?:^|(?<=,\s))(?:(?:i'?m|im|i am) (?:a |an |in (?:my |the )?)?)?(?P<year>{_YEAR}) year "
    r"(?:of )?(?P<subject>[a-z][\w -]{1,25}?)(?: student)? (?:at|@) (?P<place>[^,.!?]{2,40})|"
    r"(?:^|(?<=,\s))(?:i'?m|im|i am) an? (?P<subject2>[a-z][\w -]{1,25}?) student"
    r"(?: (?:at|@) (?P<place2>[^,.!?]{2,40}))?(?=$|[,.!?])",
    re.IGNORECASE,
)
_NOT_SUBJECTS = frozenset(("student", "exchange", "mature", "part-time", "full-time", "grad"))


def _title(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in text.split())


# Words of a fragment of dates that are not places ("lisbon 12-16 may then porto till the 20th").
_NOT_PLACES = frozenset((
    "then", "till", "until", "and", "the", "from", "back", "home", "via", "for", "day", "days",
    "night", "nights", "in", "on", "at", "to", "by", "with", "fly", "flying", "train", "drive",
    "driving", "bus", "ferry", "stay", "staying", "week", "weeks",
))  # fmt: skip


def _with_months(text: str, *, places: bool = False) -> str:
    """Months said with a capital; with `places`, the other plain words too (a fragment of a
    trip's dates names its places and nothing else)."""
    text = _MONTH.sub(lambda m: m[0][:1].upper() + m[0][1:].lower(), text)
    if not places:
        return text
    return " ".join(
        w[:1].upper() + w[1:] if w.isalpha() and w.casefold() not in _NOT_PLACES else w
        for w in text.split()
    )


# "where am I going in may?", "do you know where we're off to?": the trip kept, asked of.
_WHERE_GOING = lazy(
    r"\bwhere (?:am i|are we|i'?m|im|we'?re|were|i am|we are) (?:going|off to|headed|heading|"
    r"travell?ing|flying)\b|\b(?:my|our) (?:trip|holiday|vacation)\b.*\?",
    re.IGNORECASE,
)
_PLANNED = lazy(r"^The owner is planning an? ", re.IGNORECASE)
# A journey broker.offline_journeys kept ("The owner is going to Lisbon in March 2027.").
_GOING = lazy(r"^The owner (?:and their (?P<with>[\w' ]+) are|is) going to ")


def trip_asked(question: str, known: Sequence[str]) -> str | None:
    """The trips memory keeps, said back to "where am I going in may?"; None when the question
    asks no such thing or none is kept (the answer rules then say what they know)."""
    if _WHERE_GOING.search(question) is None:
        return None
    trips = [k for k in known if _PLANNED.match(k) or _GOING.match(k)]
    if not trips:
        return None
    said = (_GOING.sub(_going_said, _PLANNED.sub("You're planning a ", k)) for k in trips)
    return " ".join(dict.fromkeys(said))


def _going_said(found: re.Match[str]) -> str:
    """ "The owner and their wife are going to" -> "You and your wife are going to"."""
    return f"You and your {found['with']} are going to " if found["with"] else "You're going to "


def read(sentence: str) -> str:
    """The sentence as the fact rules read it: an event with its day made the owner's, a study
    said as a year or a student said as "I study …", shifts done somewhere as work ("i do nights
    at a warehouse": "I work nights at …"); else as it was."""
    text = _EVENT.sub(lambda m: f"my {m['what']} ", sentence, count=1)
    text = _SHIFTS.sub(r"\1 work \2 ", text, count=1)

    def study(found: re.Match[str]) -> str:
        subject = found["subject"] or found["subject2"]
        if subject.casefold() in _NOT_SUBJECTS:
            return found[0]
        place = found["place"] or found["place2"]
        return f"I study {subject}" + (f" at {place}" if place else "")  # the year is left

    return _STUDY.sub(study, text, count=1)


def joined(lines: list[str]) -> list[str]:
    """A trip, then a fragment of its dates ("planning a trip to portugal!!", "lisbon 12-16 may
    then porto till the 20th"): one line, the dates after a colon; a study typed short with more
    after a comma: two lines, so the study is read whole."""
    out: list[str] = []
    for whole in lines:
        study = _STUDY.match(whole.strip())
        if study is not None and whole.strip()[study.end() :].startswith(", "):
            out.append(whole.strip()[: study.end()])  # "final year chemistry at bristol uni,
            line = whole.strip()[study.end() + 2 :]  # dissertation due friday": two lines
        else:
            line = whole
        if out and _DATES.match(line.strip()) and _TRIP.match(out[-1].strip()):
            out[-1] = f"{out[-1].strip().rstrip('!.')}: {line.strip()}"
        else:
            out.append(line)
    return out


def note(sentence: str) -> Note | None:
    """A list, someone's week or a trip typed as a note; None for any other line."""
    text = sentence.strip()
    trip, dates = text, ""
    if ": " in text and _DATES.match(text.split(": ", 1)[1]):
        trip, dates = text.split(": ", 1)
    if (planned := _TRIP.match(trip)) is not None:
        kind, where = planned["kind"].casefold(), _title(planned["where"])
        when = _with_months(planned["when"] or "")
        dated = _with_months(dates, places=True)
        told = f"{kind} to {where}{when}" + (f": {dated}" if dated else "")
        said = "I'll remember the dates." if dated else "I'll remember."
        return Note(
            f"Ooh, a {kind} to {where}{when}! That sounds wonderful. {said}",
            ("facts", f"{kind} to {where}", f"The owner is planning a {told}."),
        )
    if (listed := _LIST.match(text)) is not None:
        label, items = listed["label"].casefold(), listed["items"].strip().rstrip(".")
        if _WHO_LISTED.match(label):  # "kids: mia 7 and leo 4": Mia (7) and Leo (4)
            items = _NAME_AGE.sub(lambda m: f"{_title(m[1])} ({m[2]})", items)
        items = re.sub(r"\bmy\b", "the owner's", items, flags=re.IGNORECASE)
        be = "are" if _MANY.search(label) else "is"  # "your kids are: …", "your list is: …"
        parts = [p for p in re.split(r",\s*|\s+and\s+", items) if p.strip()]
        said = f"your {label}: {items.replace(chr(39).join(('the owner', 's')), 'your')}"
        if len(parts) >= 3:  # a long list is counted, not said back word for word
            said = f"your {label}, {len(parts)} {'things' if 'list' in label else 'entries'}"
        return Note(
            f"Got it, {said}. I'll remember.",
            ("facts", label, f"The owner's {label} {be}: {items}."),
        )
    if (week := _SCHEDULE.match(text)) is not None:
        who, raw = week["who"], week["day"].casefold()
        plural = "s" if raw.endswith("days") else ""
        day = _DAYS.get(raw.removesuffix("s").removesuffix("day"), raw.removesuffix("s"))
        day = day if day[:1].isupper() else day.capitalize()
        at = f" at {week['at'].replace(' ', '')}" if week["at"] else ""
        mine = who.casefold().startswith("my ")
        whose = f"your {who[3:]}" if mine else _title(who)
        kept = f"the owner's {who[3:]}" if mine else _title(who)
        when = f"{week['what']} on {day}{plural}{at}"
        return Note(
            f"Got it: {whose[:1].upper() + whose[1:]} has {when}. I'll remember.",
            (
                "facts" if mine else "people",
                f"{_title(who)}'s {week['what']}".replace("My ", "my "),
                f"{kept[:1].upper() + kept[1:]} has {when}.",
            ),
        )
    return None
