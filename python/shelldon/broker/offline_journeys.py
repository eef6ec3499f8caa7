"""A journey the owner says they are making, read by broker.offline (docs/brain.md, "Eighteenth
pass: a pet that listens"):

    we're going to Lisbon in March          -> kept: "The owner is going to Lisbon in March 2027."
    my wife and I are flying to Rome in May -> kept: "The owner and their wife are going to Rome
                                               in May 2027."
    we're off to Cornwall for the weekend   -> wished well, left to history (days ahead)
    I'm heading to Berlin tomorrow for work -> the same

Before, a journey said with "going/flying/off to" and no "trip" was "Okay!", "Tell me more!"
or "Mm-hm, I'm listening." with nothing kept, so "where am I going in March?" found nothing. A
journey weeks ahead is kept, past the recent window, as a trip planned is (offline_notes), with
its month said as a date (offline_milestones' reading of "in March", "next month"); one in the
days ahead is wished well and left to history, as a visit is (offline_visits). "Going to" is a
journey only before a place typed with its capital ("going to start yoga in March" is a plan,
not a place); "flying", "heading", "off", "driving", "travelling" to anywhere but the day's
places (bed, work, the gym …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.offline_milestones import when_dated
from shelldon.broker.offline_words import KIN, MONTHS, OTHERS, WEEKDAYS, alternation
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow


@dataclass(frozen=True)
class Journey:
    reply: str
    keep: tuple[str, str, str] | None  # collection, name, content; None: history's alone


_WHO = (
    r"(?P<who>i'?m|i’m|im|i am|we'?re|we’re|we are|"
    rf"(?:my|me and my|me and) (?P<with>{alternation(*KIN, *OTHERS)}) and i are|"
    rf"me and my (?P<with2>{alternation(*KIN, *OTHERS)}) are)"
)
_MOVING = r"(?P<how>flying|heading|headed|off|driving|travell?ing|taking the train|sailing)"
_PLACE = r"(?P<place>(?:the )?[\w'’-]+(?: [\w'’-]+){0,2}?)"
_CAPITAL_PLACE = r"(?P<place>(?:the )?[A-Z][\w'’-]+(?: (?:[A-Z][\w'’-]+|de|do|da|del|la|le)){0,2})"
_AHEAD = (
    rf"in (?:{alternation(*MONTHS)})|(?:this|next) (?:{alternation(*MONTHS)})|next month|"
    r"in (?:a|one|two|three|four|five|six|\d) months?|in (?:two|three|four|a few|\d) weeks|"
    r"(?:at|for|over) (?:christmas|easter|new year)|(?:this|next|in the|over the) "
    r"(?:summer|winter|spring|autumn|fall)|next year|later this year"
)
_SOON = (
    r"today|tonight|tomorrow|this weekend|for the weekend|next week|this week|on (?:\w+day)|"
    rf"(?:this|next|on) (?:{alternation(*WEEKDAYS)})"
)
_TAIL = (
    rf"(?:\s+(?P<when>{_AHEAD})|\s+(?P<soon>{_SOON}))?(?P<rest>\s+(?:for|to see) [^.!?]{{1,40}})?"
)
# Case-blind but for the place, whose capital says it is one ("going to Lisbon", not "going to
# start yoga").
_GOING = lazy(
    rf"^(?i:(?:(?:so|oh|btw|guess what|also|and)[\s,!]+)*{_WHO}\s+(?:(?:also|finally|actually|"
    r"hopefully|probably|all)\s+)?(?:going|gonna go)\s+(?:back\s+)?to\s+)"
    rf"{_CAPITAL_PLACE}(?i:{_TAIL})[\s.!]*$",
)
_TRAVELLING = lazy(
    rf"^(?:(?:so|oh|btw|guess what|also|and)[\s,!]+)*{_WHO}\s+(?:(?:also|finally|actually|"
    rf"hopefully|probably|all)\s+)?{_MOVING}\s+(?:back\s+)?(?:off\s+)?to\s+{_PLACE}{_TAIL}"
    r"[\s.!]*$",
    re.IGNORECASE,
)
# The day's places: "I'm off to bed", "heading to work", "flying to the gym" is no journey.
_DAYS_PLACES = frozenset((
    "bed", "work", "school", "sleep", "uni", "college", "class", "church", "lunch", "dinner",
    "breakfast", "the gym", "gym", "the shops", "the shop", "the office", "the pub", "the park",
    "the doctor", "the doctors", "the doctor's", "the dentist", "the store", "the supermarket",
    "town", "practice", "training", "the loo", "the toilet", "the bathroom", "the kitchen",
    "my room", "the library", "the hospital", "a meeting", "a party", "the beach", "the cinema",
    "the movies", "it", "that", "this", "the airport", "the station",
))  # fmt: skip


def _resolved(ahead: str, now: LocalNow | None) -> str:
    """ "in March" as "in March 2027" with the prompt's clock (a year kept stays right later)."""
    dated = when_dated(ahead, now.local.date()) if now is not None else None
    if dated is not None:
        return dated
    return " ".join(w.capitalize() if w in MONTHS or w in ("christmas", "easter") else w
                    for w in ahead.casefold().split())  # fmt: skip


def said(sentence: str, now: LocalNow | None) -> Journey | None:
    """A journey the owner is making (see the module), else None."""
    text = " ".join(sentence.split())
    going = _GOING.match(text)
    found = going or _TRAVELLING.match(text)
    if found is None:
        return None
    place = found["place"]
    if place.casefold() in _DAYS_PLACES or place.casefold().startswith(("my ", "our ", "see ")):
        return None  # the day's places; "going to see my mum" is offline_visits'
    place = " ".join(w if w.casefold() in ("the", "de", "do", "da", "del", "la", "le") else
                     w[:1].upper() + w[1:] for w in place.split())  # fmt: skip
    with_whom = found["with"] or found["with2"]
    rest = " ".join(found["rest"].split()) if found["rest"] else ""
    if found["when"]:
        when = _resolved(found["when"], now)
        who = f"The owner and their {with_whom.casefold()} are" if with_whom else "The owner is"
        content = f"{who} going to {place} {when}" + (f" {rest}" if rest else "") + "."
        said_when = " ".join(
            w.capitalize() if w in MONTHS or w in ("christmas", "easter") else w
            for w in found["when"].casefold().split()
        )
        return Journey(
            f"Ooh, {place} {said_when}! That sounds wonderful. I'll remember.",
            ("facts", f"trip to {place.casefold()}", content),
        )
    if not found["soon"] and going is not None:
        return None  # "I'm going to Tesco": a day's errand as like as a journey; the rules say
    soon = f" {found['soon'].casefold()}" if found["soon"] else ""
    return Journey(f"Ooh, {place}{soon}! Have a lovely time, and tell me all about it after.", None)
