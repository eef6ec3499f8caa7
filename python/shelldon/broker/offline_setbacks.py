"""A test or a try that did not go the owner's way, read by broker.offline (docs/brain.md,
"Sixteenth pass: memory it loses or bends"):

    I didn't pass my driving test             -> facts/driving test: failed (told on Tuesday …)
    failed my theory test again today         -> facts/theory test: failed again (told on …)
    I didn't get the job at the garden centre -> facts/job at the garden centre: not got (…)

It is an event, kept as one with the day it was told on ("The owner failed the driving test (told
on Tuesday 9 March 2027)."), so "what happened with my driving test?" has an answer
and a later "I passed!" reads as the news it is; and it is met warmly, never "Good to know:".
Before the sixteenth pass "I didn't pass my driving test" was met as a let-down and kept nothing,
and "I didn't get the job at …" was a negated fact ("Good to know: you didn't get the job …").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_WHEN = r"(?:\s+again)?(?:\s+(?:today|this (?:morning|afternoon)|earlier|yesterday))?"
_THING = (
    r"(?P<thing>(?:[\w-]+\s+){0,2}?(?:test|exam|exams|theory|interview|audition|assessment|"
    r"course|module|resit|finals|trial|probation|grading|driving))"
)
_FAILED = lazy(
    rf"^(?:i\s+|so\s+i\s+|ugh,?\s+i\s+)?(?:(?:didn'?t|did not|didnt)\s+pass|failed)"
    rf"{_WHEN}\s+(?:my|the)\s+{_THING}{_WHEN}[\s.!]*$",
    re.IGNORECASE,
)
_NOT_GOT = lazy(
    rf"^(?:i\s+)?(?:didn'?t|did not|didnt)\s+get\s+(?P<thing>the\s+(?:job|place|role|promotion|"
    rf"part|flat|house|apartment|grant|scholarship)(?:\s+(?:at|in|with|on|for)\s+[\w'’ -]+?)?)"
    rf"{_WHEN}[\s.!]*$",
    re.IGNORECASE,
)
_AGAIN = lazy(r"\bagain\b", re.IGNORECASE)
_FAILED_REPLIES = (
    "Oh no, I'm sorry about your {thing}. That stings, but it says nothing about what you can "
    "do: lots of people pass on the next go. How are you feeling?",
    "Ah, I'm so sorry about the {thing}. Be kind to yourself tonight. Do you get to try again?",
)
_NOT_GOT_REPLIES = (
    "Oh, I'm sorry about {thing}. That's a real disappointment. Their loss. How are you doing?",
    "Ah, that's hard, I'm sorry about {thing}. Be gentle with yourself. What's next?",
)


class Setback:
    """What is kept (collection, name, content) and the pet's reply."""

    __slots__ = ("keep", "reply")

    def __init__(self, keep: tuple[str, str, str], reply: str) -> None:
        self.keep = keep
        self.reply = reply


class _Said(NamedTuple):
    thing: str
    again: bool
    not_got: bool


def _read(sentence: str) -> _Said | None:
    text = " ".join(sentence.split())
    if (found := _FAILED.match(text)) is not None:
        return _Said(found["thing"].casefold(), _AGAIN.search(text) is not None, False)
    if (found := _NOT_GOT.match(text)) is not None:
        thing = re.sub(r"^the\s+", "", found["thing"]).strip()
        return _Said(thing, _AGAIN.search(text) is not None, True)
    return None


def said(sentence: str, now: LocalNow | None, seed: int) -> Setback | None:
    """A test failed or a thing not got (see the module), or None."""
    read = _read(sentence)
    if read is None:
        return None
    day = f" (told on {now.local:%A} {now.local.day} {now.local:%B %Y})" if now else ""
    again = " again" if read.again else ""
    if read.not_got:
        content = f"The owner did not get the {read.thing}{again}{day}."
        reply = pick(_NOT_GOT_REPLIES, seed).format(thing=f"the {read.thing}")
    else:
        content = f"The owner failed the {read.thing}{again}{day}."
        reply = pick(_FAILED_REPLIES, seed).format(thing=read.thing)
    return Setback(("facts", read.thing, content), reply)
