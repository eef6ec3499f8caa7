"""The date a recall query names ("yesterday", "last week", "3 days ago", "in June", "May 2023").

`window(query, now)` turns the first such phrase into a `DateWindow`; recall boosts the rows whose
timestamp falls inside it. Relative phrases are read in `now`'s timezone. A month without a year
("in June") means that month of any year; "may" counts as the month only where a date reads it so
("in May", "May 5", "May 2023"), never the verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

_MONTHS: Final = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_WEEKDAYS: Final = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_NUMBERS: Final = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}

_DAY_WORDS = re.compile(r"\b(today|tonight|this morning|yesterday|last night)\b")
_PERIOD = re.compile(r"\b(this|last|past|previous) (week|month|year)\b")
_AGO = re.compile(
    r"\b(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten) "
    r"(day|week|month|year)s? ago\b"
)
_WEEKDAY = re.compile(r"\b(?:on|last|this) (" + "|".join(_WEEKDAYS) + r")\b")
_MONTH_YEAR = re.compile(r"\b(" + "|".join(_MONTHS) + r"),? ((?:19|20)\d\d)\b")
_MONTH_CONTEXT = re.compile(
    r"\b(?:in|of|since|during|early|late|mid|last|this|next) (" + "|".join(_MONTHS) + r")\b"
    r"|\b(" + "|".join(_MONTHS) + r") \d{1,2}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(" + "|".join(_MONTHS) + r")\b"
)
_MONTH_BARE = re.compile(r"\b(" + "|".join(m for m in _MONTHS if m != "may") + r")\b")
_YEAR = re.compile(r"\b(?:in|of|since|during) ((?:19|20)\d\d)\b")


@dataclass(frozen=True)
class DateWindow:
    """[start, end) in `now`'s timezone, or, when `month` is set, that month of any year."""

    start: datetime | None = None
    end: datetime | None = None
    month: int | None = None

    def contains(self, ts: str) -> bool:
        try:
            moment = datetime.fromisoformat(ts)
        except (TypeError, ValueError):
            return False
        if self.start is not None and moment.tzinfo is not None:
            moment = moment.astimezone(self.start.tzinfo)
        if self.month is not None:
            return moment.month == self.month
        if self.start is None or self.end is None or moment.tzinfo is None:
            return False
        return self.start <= moment < self.end


def not_before(ts: str, moment: datetime) -> bool:
    """Whether a row's timestamp is at or after `moment` (an unreadable one counts as after)."""
    try:
        stamped = datetime.fromisoformat(ts)
    except (TypeError, ValueError):
        return True
    if stamped.tzinfo is None:
        stamped = stamped.replace(tzinfo=moment.tzinfo)
    return stamped >= moment


def window(query: str, now: datetime) -> DateWindow | None:
    """The date the query names, or None."""
    text = query.casefold()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if m := _DAY_WORDS.search(text):
        start = day if m.group(1) in ("today", "tonight", "this morning") else day - _days(1)
        return DateWindow(start, start + _days(1))
    if m := _AGO.search(text):
        count = _NUMBERS.get(m.group(1)) or int(m.group(1))
        return _period_ago(m.group(2), count, day)
    if m := _PERIOD.search(text):
        return _period_ago(m.group(2), 0 if m.group(1) == "this" else 1, day)
    if m := _WEEKDAY.search(text):
        back = (day.weekday() - _WEEKDAYS.index(m.group(1))) % 7 or 7
        start = day - _days(back)
        return DateWindow(start, start + _days(1))
    if m := _MONTH_YEAR.search(text):
        start = day.replace(year=int(m.group(2)), month=_MONTHS.index(m.group(1)) + 1, day=1)
        return DateWindow(start, _add_months(start, 1))
    if (m := _MONTH_CONTEXT.search(text)) or (m := _MONTH_BARE.search(text)):
        name = next(g for g in m.groups() if g)
        return DateWindow(month=_MONTHS.index(name) + 1)
    if m := _YEAR.search(text):
        start = day.replace(year=int(m.group(1)), month=1, day=1)
        return DateWindow(start, start.replace(year=start.year + 1))
    return None


def _days(n: int) -> timedelta:
    return timedelta(days=n)


def _period_ago(unit: str, count: int, day: datetime) -> DateWindow:
    if unit == "day":
        start = day - _days(count)
        return DateWindow(start, start + _days(1))
    if unit == "week":
        start = day - _days(day.weekday() + 7 * count)
        return DateWindow(start, start + _days(7))
    if unit == "month":
        start = _add_months(day.replace(day=1), -count)
        return DateWindow(start, _add_months(start, 1))
    start = day.replace(year=day.year - count, month=1, day=1)
    return DateWindow(start, start.replace(year=start.year + 1))


def _add_months(first_of_month: datetime, months: int) -> datetime:
    index = first_of_month.year * 12 + first_of_month.month - 1 + months
    return first_of_month.replace(year=index // 12, month=index % 12 + 1)
