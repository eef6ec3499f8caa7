"""The offline brain's reminders: the requests it understands, and the answers to its questions.

Reminders. The common English forms, read against the local time the prompt carries ("# Now",
shelldon.contracts.localtime), become one `remind` op and a confirmation:

    remind me in 20 minutes to call mum          -> in_seconds
    remind me tomorrow at 9 to call mum          -> at (tomorrow 09:00, the owner's zone)
    remind me at 18:30 to take the pills         -> at (today)
    remind me every Monday at 8 to water plants  -> at (the next Monday 08:00), repeat weekly
    remind me every day at 7:15 to stretch       -> repeat daily
    remind me on 2026-12-24 at 10 to wrap gifts  -> at
    remind me on Friday at 5pm to ...; remind me to call mum tomorrow at 9 (the task first)

A day without a time means 09:00 (a part of the day its hour: "thursday evening" 19:00, "tonight"
19:00, "after lunch" 13:30, "after work" 17:30, "after dinner" 20:00, "before bed" 22:00; "tonight"
said after 19:00 the next full hour at least 45 minutes on). A bare hour without am/pm is the hour
a person means by it, as people set errands (the twelfth pass): 1 to 6 are the afternoon ("pick up
leo at 3" is 15:00, tomorrow's when today's has passed; "at 3am", "at 03:00" and "tomorrow morning
at 6" stay early), 7 to 11 the next of the two (at 14:00 "at 7" is 19:00; at 03:40 it is 07:00),
and "at midnight" the coming one. A repeating reminder keeps the hour as said ("every day at 6"),
but a bare 5 to 11 said of the evening or the night is that evening's ("at 8 every evening": 20:00).
A time that has passed gets a reply saying so and no op (core refuses one in the past anyway).
Core resolves and stores the op; this module only proposes it.

Check-ins are broker.offline_checkin's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from shelldon.broker.offline_words import WEEKDAYS
from shelldon.broker.patterns import LazyPattern, lazy
from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.localtime import LocalNow, parse_now
from shelldon.contracts.ops import REMIND_MAX_AHEAD_SECONDS

# Core would refuse it (contracts.ops): said now, never promised.
TOO_FAR = "That's too far ahead for me: I can set reminders up to five years ahead."

DEFAULT_TIME = time(9, 0)
_WEEKDAYS = WEEKDAYS
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "ninety": 90,
}  # fmt: skip
_UNITS = {"sec": 1, "second": 1, "min": 60, "minute": 60, "hr": 3600, "hour": 3600, "day": 86400,
          "week": 604800}  # fmt: skip

_ASK = lazy(
    r"^(?:please[, ]+)?(?:(?:can|could|would|will) you(?: please| kindly)?(?: be so kind as to|"
    r" be kind enough to| mind)?\s+)?remind(?:ing)? me\b(?P<rest>.*)$",  # asked politely too
    re.IGNORECASE,
)
# "at ten o'clock", "at seven pm": the hour in words is the hour in figures (the eleventh pass).
_HOURS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
)  # fmt: skip
_HOUR_WORD = lazy(
    rf"\bat ({'|'.join(_HOURS)})(?= ?(?:o'?clock|[ap]\.?m\b)|[\s,.!?;]*$)", re.IGNORECASE
)
_WEEKDAY = "|".join(_WEEKDAYS)
_REL = lazy(
    r"\bin (?:(?P<half>half an?) hour|(?P<n>\d+|[a-z]+(?:-[a-z]+)?) "
    r"(?P<unit>sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?))\b",
    re.IGNORECASE,
)
_EVERY = lazy(rf"\b(?:every|each) (?P<every>day|morning|evening|night|{_WEEKDAY})\b", re.I)
_DATE = lazy(r"\b(?:on )?(?P<date>\d{4}-\d{2}-\d{2})\b", re.IGNORECASE)
_DAYWORD = lazy(r"\b(?P<day>today|tonight|tomorrow)\b", re.IGNORECASE)
_ON_WEEKDAY = lazy(rf"\b(?:on |next |this )?(?P<weekday>{_WEEKDAY})\b", re.IGNORECASE)
_TIME = lazy(
    r"\bat (?:(?P<word>noon|midnight)|(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?"
    r"(?: ?(?P<ampm>[ap])\.?m\.?)?(?: ?o'?clock)?)(?=$|[\s,.!?;])",
    re.IGNORECASE,
)
# A part of the day instead of a time ("on thursday evening", "tomorrow morning"): its hour.
_PART_OF_DAY = lazy(
    r"\b(?:in the )?(?P<part>morning|afternoon|evening|night|after lunch|after work|after dinner|"
    r"before bed)\b",
    re.IGNORECASE,
)
_PART_HOURS = {
    "morning": (9, 0), "afternoon": (14, 0), "evening": (19, 0), "night": (21, 0),
    "after lunch": (13, 30), "after work": (17, 30), "after dinner": (20, 0), "before bed": (22, 0),
}  # fmt: skip
_PART_LEFT = lazy(r"^(?:in the )?(?:morning|afternoon|evening|night)\s+(?=to\b)", re.IGNORECASE)
_LATE = lazy(r"\b(?:afternoon|evening|night)\b", re.IGNORECASE)
_EARLY = lazy(r"\b(?:morning|early)\b", re.IGNORECASE)  # "tomorrow morning at 6": 06:00
# A task that only points back ("remind me about it"): which thing is the owner's to say.
_POINTS_BACK = frozenset({"it", "that", "this", "them", "those", "this one", "that one"})
_TASK_LEAD = lazy(r"^(?:to|that|about|of)\s+", re.IGNORECASE)
_FLIP = {
    "my": "your", "me": "you", "i": "you", "i'm": "you're", "myself": "yourself", "mine": "yours"
}  # fmt: skip


@dataclass(frozen=True)
class ReminderAnswer:
    """What the offline brain says to a reminder request, and the op (None: nothing to set)."""

    reply: str
    op: dict[str, Any] | None = None


def find_now(request: CompletionRequest) -> LocalNow | None:
    """The owner's local time from the prompt's "# Now" section."""
    for section in request.sections:
        if section.kind == "time":
            return parse_now(section.text)
    return None


def _second_person(text: str) -> str:
    return " ".join(_FLIP.get(word.lower(), word) for word in text.split())


def _amount(raw: str) -> int | None:
    word = raw.lower()
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word)


def _hour_minute(match: re.Match[str]) -> tuple[int, int, bool] | None:
    """(hour, minute, explicit): explicit when am/pm, a 24-hour value or a word fixed it."""
    word = (match.group("word") or "").lower()
    if word:
        return (12, 0, True) if word == "noon" else (0, 0, True)
    hour, minute = int(match.group("h")), int(match.group("m") or 0)
    ampm = (match.group("ampm") or "").lower()
    if minute > 59 or hour > 23 or (ampm and not 1 <= hour <= 12):
        return None
    if ampm == "p" and hour < 12:
        hour += 12
    elif ampm == "a" and hour == 12:
        hour = 0
    return hour, minute, bool(ampm) or hour == 0 or hour > 12 or match.group("h").startswith("0")


def _daytime(clock: tuple[int, int, bool], rest: str) -> tuple[int, int, bool]:
    """A bare 1 to 6 ("pick up leo at 3") as the afternoon hour a person means; "in the morning"
    or "early" beside it keeps it early, "evening" beside any bare hour makes it late."""
    hour, minute, explicit = clock
    if not explicit and 1 <= hour <= 11 and _LATE.search(rest):  # "friday evening at 7"
        return hour + 12, minute, True
    if explicit or not 1 <= hour <= 6 or _EARLY.search(rest):
        return clock
    return hour + 12, minute, True


def _evening(clock: tuple[int, int, bool] | None, rest: str) -> tuple[int, int, bool] | None:
    """A repeating reminder's bare 5 to 11 said of the evening or the night is that evening's
    hour ("take my pills at 8 every evening" was every day at 08:00); any other bare hour is kept
    as said ("every day at 6")."""
    if clock is None or clock[2] or not 5 <= clock[0] <= 11 or not _LATE.search(rest):
        return clock
    return clock[0] + 12, clock[1], True


def _task(rest: str, spans: list[tuple[int, int]]) -> str:
    kept, cursor = [], 0
    for start, end in sorted(spans):
        kept.append(rest[cursor:start])
        cursor = max(cursor, end)
    kept.append(rest[cursor:])
    text = " ".join("".join(kept).split()).strip(" ,;:")
    text = _PART_LEFT.sub("", text)  # "tomorrow morning at 6 to run": the part is the when's
    text = _TASK_LEAD.sub("", text).strip().rstrip(".!?").strip()
    return text


def _say_when(moment: datetime, now: datetime) -> str:
    if moment.date() == now.date():
        day = "today"
    elif moment.date() == now.date() + timedelta(days=1):
        day = "tomorrow"
    else:
        day = f"on {moment:%A} {moment.day} {moment:%B}"
        if moment.year != now.year:
            day += f" {moment.year}"
    return f"{day} at {moment:%H:%M}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _op(text: str, zone: str, *, at: datetime | None = None, **extra: Any) -> dict[str, Any]:
    op: dict[str, Any] = {"op": "remind", "text": text}
    if at is not None:
        op["at"] = f"{at:%Y-%m-%dT%H:%M}"
        op["zone"] = zone
    op.update(extra)
    return op


def _relative(match: re.Match[str]) -> int | None:
    if match.group("half"):
        return 1800
    amount = _amount(match.group("n"))
    unit = match.group("unit").lower().rstrip("s")
    unit = {"h": "hour", "hr": "hour", "hou": "hour"}.get(unit, unit)
    factor = next((v for k, v in _UNITS.items() if unit.startswith(k)), None)
    if amount is None or factor is None or amount <= 0:
        return None
    return amount * factor


def _span(seconds: int) -> str:
    for size, name in ((604800, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {name}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def reminder(sentence: str, now: LocalNow | None) -> ReminderAnswer | None:
    """The answer to "remind me …", or None when the sentence is not a reminder request."""
    asked = _ASK.match(sentence.strip())
    if asked is None:
        return None
    rest = _HOUR_WORD.sub(lambda m: f"at {_HOURS.index(m[1].casefold()) + 1}", asked["rest"])
    spans: list[tuple[int, int]] = []

    def take(pattern: LazyPattern) -> re.Match[str] | None:
        found = pattern.search(rest)
        if found is not None and not any(s < found.end() and found.start() < e for s, e in spans):
            spans.append(found.span())
            return found
        return None

    relative = take(_REL)
    every = on_date = day_word = weekday = at_time = part = None
    if relative is None:
        every, on_date, day_word = take(_EVERY), take(_DATE), take(_DAYWORD)
        if every is None and on_date is None and day_word is None:
            weekday = take(_ON_WEEKDAY)
        at_time = take(_TIME)
        part = take(_PART_OF_DAY) if at_time is None and every is None else None
    task = _task(rest, spans)
    if not task or task.casefold() in _POINTS_BACK:
        return ReminderAnswer(
            "Remind you of what, exactly? Say it with the thing: remind me tomorrow evening to "
            "call the dentist."
            if task
            else "What should I remind you of? Say: remind me tomorrow at 9 to …"
        )
    said = _second_person(task)
    if relative is not None:
        seconds = _relative(relative)
        if seconds is None:
            return ReminderAnswer("I didn't catch how long from now. Try: in 20 minutes.")
        if seconds > REMIND_MAX_AHEAD_SECONDS:
            return ReminderAnswer(TOO_FAR)
        return ReminderAnswer(
            f"Okay, I'll remind you in {_span(seconds)} to {said}.",
            _op(task, now.zone if now else "UTC", in_seconds=seconds),
        )
    if now is None:
        return ReminderAnswer("I can't tell the time right now, so I can't set that reminder.")
    clock_time = _hour_minute(at_time) if at_time is not None else None
    if relative is None and part is not None:  # "thursday evening": 19:00, said as the owner did
        clock_time = (*_PART_HOURS[part["part"].casefold()], True)
    if at_time is not None and clock_time is None:
        return ReminderAnswer("That doesn't look like a time I know. Try: at 18:30, or at 9am.")
    local = now.local
    if every is not None:
        return _repeating(every.group("every").lower(), _evening(clock_time, rest), task, said, now)
    bare = clock_time is not None and not clock_time[2]  # "at 3", "at 7": the next one meant
    clock_time = _daytime(clock_time, rest) if clock_time is not None else None
    midnight = (  # "at midnight", "tonight at midnight": the coming one, never today's 00:00
        at_time is not None
        and (at_time["word"] or "").lower() == "midnight"
        and on_date is None
        and weekday is None
        and (day_word is None or day_word["day"].lower() in ("today", "tonight"))
    )
    day: date | None = None
    if on_date is not None:
        try:
            day = date.fromisoformat(on_date.group("date"))
        except ValueError:
            return ReminderAnswer("That date doesn't exist. Try: on 2026-12-24 at 10.")
    elif day_word is not None:
        word = day_word.group("day").lower()
        day = local.date() + timedelta(days=1 if word == "tomorrow" else 0)
        if word == "tonight" and clock_time is not None and clock_time[0] < 12:
            clock_time = (clock_time[0] + 12, clock_time[1], True)
        elif word == "tonight" and clock_time is None:  # "tonight" alone: not 09:00
            clock_time = (*_PART_HOURS["evening"], True)
            later = local + timedelta(minutes=45 + 59)  # said after 19:00: the next full hour on
            if local.hour >= 19 and later.date() == local.date():
                clock_time = (later.hour, 0, True)
    elif weekday is not None:
        wanted = _WEEKDAYS.index(weekday.group("weekday").lower())
        ahead = (wanted - local.weekday()) % 7 or 7
        day = local.date() + timedelta(days=ahead)
    if midnight:
        day, clock_time = local.date() + timedelta(days=1), (0, 0, True)
    if day is None and clock_time is None:
        return ReminderAnswer(
            f"When should I remind you to {said}? Say: in 20 minutes, or tomorrow at 9."
        )
    hour, minute, explicit = clock_time or (DEFAULT_TIME.hour, DEFAULT_TIME.minute, True)
    moment = datetime.combine(day or local.date(), time(hour, minute))
    if day is None and not explicit and moment <= local and moment + timedelta(hours=12) > local:
        moment += timedelta(hours=12)  # "at 6" said in the afternoon: this evening
    if day is None and bare and moment <= local:  # "at 3" said at 19:00: tomorrow's
        moment += timedelta(days=1)
    if moment <= local:
        return ReminderAnswer(
            f"{_upper_first(_say_when(moment, local))} has already passed, so I can't remind you "
            "then. Give me a later time?"
        )
    if (moment - local).total_seconds() > REMIND_MAX_AHEAD_SECONDS:
        return ReminderAnswer(TOO_FAR)
    return ReminderAnswer(
        f"Okay, I'll remind you {_say_when(moment, local)} to {said}.",
        _op(task, now.zone, at=moment),
    )


# The pet's own questions when a request lacked its time (above), and how the owner answers one.
_ASKED_WHEN = lazy(r"^(?:At what time|When) should I remind you (?:to|that) (?P<task>.+?)\?", re.I)
_NEVER_MIND = lazy(
    r"^(?:oh[\s,]+|ah[\s,]+)?(?:never ?mind|nvm|nm|cancel(?: that| it)?|"
    r"forget (?:it|that|about it)|don'?t bother|no(?:pe|ah?)?(?:,? thanks?| thank you)?|"
    r"not now|skip it|scratch that|leave it)[\s!.]*$",
    re.IGNORECASE,
)
_BARE_TIME = lazy(r"^(?:(?:\d{1,2}(?:[:.]\d{2})?(?: ?[ap]\.?m\.?)?)|noon|midnight)\b", re.I)
NO_REMINDER = "Okay, no reminder then."


def is_never_mind(text: str) -> bool:
    """Whether `text` takes back what the owner was asked or was about to say ("never mind")."""
    return _NEVER_MIND.match(text.strip()) is not None


def reminder_follow_up(
    sentence: str, pet_last: str, asked_before: str, now: LocalNow | None
) -> ReminderAnswer | None:
    """The owner's answer to the pet's "When should I remind you to …?": a time or a day given
    ("at 8am", "tomorrow at 9", "8:30") completes the request they made (`asked_before`, their
    line before), "never mind" drops it; None when the pet asked nothing of the kind, or the line
    answers something else."""
    asked = _ASKED_WHEN.match(pet_last.strip())
    if asked is None:
        return None
    said = sentence.strip()
    if _NEVER_MIND.match(said):
        return ReminderAnswer(NO_REMINDER)
    when = f"at {said}" if _BARE_TIME.match(said) else said
    if not any(p.search(when) for p in (_TIME, _REL, _DAYWORD, _ON_WEEKDAY, _DATE, _EVERY)):
        return None
    request = asked_before.strip()
    if not _ASK.match(request):
        request = f"remind me to {asked.group('task')}"
    answer = reminder(f"{request.rstrip(' ?.!')} {when.rstrip(' .!')}", now)
    return answer if answer is not None and answer.op is not None else None


def _repeating(
    every: str,
    clock_time: tuple[int, int, bool] | None,
    task: str,
    said: str,
    now: LocalNow,
) -> ReminderAnswer:
    defaults = {"morning": time(8, 0), "evening": time(19, 0), "night": time(21, 0)}
    if clock_time is None:
        if every not in defaults:
            return ReminderAnswer(f"At what time should I remind you to {said}?")
        at = defaults[every]
    else:
        at = time(clock_time[0], clock_time[1])
    local = now.local
    weekly = every in _WEEKDAYS
    day = local.date()
    if weekly:
        day += timedelta(days=(_WEEKDAYS.index(every) - day.weekday()) % 7)
    first = datetime.combine(day, at)
    if first <= local:
        first += timedelta(days=7 if weekly else 1)
    what = f"every {every.capitalize()}" if weekly else "every day"
    return ReminderAnswer(
        f"Okay, {what} at {at:%H:%M} I'll remind you to {said} (first {_say_when(first, local)}).",
        _op(task, now.zone, at=first, repeat="weekly" if weekly else "daily"),
    )
