"""What the owner dictates to the pet, to keep or to pass on, read by broker.offline (docs/brain.md,
"Seventeenth pass: owners who dictate, list and mix"):

    jot down that I owe Marek 20 quid      -> remember that I owe Marek 20 quid
    write down: dentist on the 12th at 3pm -> remember that dentist on the 12th at 3pm
    make a note, the boiler man is due     -> remember that the boiler man is due
    say that I'll be late                  -> passed on? no: said so, with the words to send
    tell Sam I'll be late for dinner       -> the same, to Sam

`kept` reads a dictated note as the "remember that …" the fact rules already keep, so what is
kept is the owner's note without the command ("The owner owes Marek 20 quid.", never "jot down
that you owe …"). `relay` is a message for someone else: offline the pet talks with its owner
alone, so it says it cannot send it and gives the words back to copy, and keeps nothing (before
the seventeenth pass "Say that I'll be late" was "I hear you." and "tell Sam …" "Okay!", which
read as a promise to pass it on, and "jot down that …" kept nothing and was said back with its
command).
"""

from __future__ import annotations

import re

from shelldon.broker.offline_words import KIN, OTHERS, alternation
from shelldon.broker.patterns import lazy

_PLEASE = r"^(?:(?:please|pls|ok|okay|hey|oh|and|also|can you|could you|would you)[\s,]+)*"
_NOTE = lazy(
    _PLEASE + r"(?:jot (?:this |it )?down|write (?:this |it )?down|note (?:this |it )?down|"
    r"make a note(?: of (?:this|it))?|take a note|put (?:it |this )?down|note)"
    r"(?:\s*(?:that|:|,|-)\s*|\s+(?=i\b|my\b|the\b))(?P<said>\S.{2,200}?)[\s.!]*$",
    re.IGNORECASE,
)
_WHO = (
    rf"(?P<who>(?:my|our) (?:{alternation(*KIN, *OTHERS)})|(?-i:[A-Z][\w'-]*)|everyone|"
    r"them|him|her)"
)
_WHO2 = _WHO.replace("?P<who>", "?P<who2>")
_RELAY = lazy(
    _PLEASE + r"(?:say (?:that |(?=(?:i|we)\b))|tell (?:them|everyone|people) (?:that )?|"
    rf"tell (?!(?i:me|you|u|us)\b){_WHO},? (?:that )?"
    r"(?!to\b|about\b|what\b|how\b|where\b|when\b|why\b)|"
    rf"let {_WHO2} know,? (?:that )?)(?P<said>\S.{{1,200}}?)[\s.!]*$",
    re.IGNORECASE,
)


# A note that says something of someone ("I owe Marek 20 quid", "the plumber comes Friday"),
# not a fragment ("dentist on the 12th at 3pm").
_CLAUSE = lazy(
    r"^(?:i|we|you|he|she|they|it)\b|\b(?:is|are|was|were|am|has|have|had|will|can|must|should|"
    r"comes?|go|goes|owes?|needs?|starts?|ends?|arrives?|lands?|leaves?|opens?|closes?|"
    r"collect(?:s|ed)?|due)\b|"
    r"['’](?:s|ll|re|m)\b",
    re.IGNORECASE,
)


def kept(line: str) -> str | None:
    """The note as "remember that …" (see the module), or None for any other line and for a
    fragment (`noted`)."""
    found = _NOTE.match(line.strip())
    if found is None or not _CLAUSE.search(found["said"]):
        return None
    said = found["said"].strip()
    return f"remember that {said[:1].lower() + said[1:] if not said.startswith('I ') else said}"


def noted(line: str) -> tuple[str, tuple[str, str, str]] | None:
    """A note with no clause ("write down: dentist on the 12th at 3pm"): the pet's reply and
    what is kept, as typed and under its own words (two notes are two entries); None for any
    other line."""
    found = _NOTE.match(line.strip())
    if found is None or _CLAUSE.search(found["said"]):
        return None
    said = found["said"].strip().rstrip(".")
    name = " ".join(re.findall(r"[\w'’]+", said.casefold())[:5])
    return f"Got it, I've written it down: {said}.", (
        "facts",
        f"note {name}",
        f"The owner's note: {said}.",
    )


def relay(line: str) -> str | None:
    """The pet's honest word on a message for someone else (see the module), or None for any
    other line."""
    found = _RELAY.match(line.strip())
    if found is None:
        return None
    who = found.group("who") or found.group("who2") or ""
    if who.casefold() in ("him", "her", "them"):
        who = ""
    if who.casefold().startswith(("my ", "our ")):
        who = f"your {who.split(' ', 1)[1]}"
    said = found["said"].strip()
    said = said[:1].upper() + said[1:]
    said = said if said[-1:] in ".!?" else f"{said}."
    to = f" to {who}" if who else ""
    return (
        f'I can\'t send messages{to} from here, I only talk with you. Here it is to copy: "{said}"'
    )


_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# "remind me the bins go out on Tuesdays": a weekday in the plural is every week
_PLURAL_DAY = lazy(rf"\b(?:on )?({_WEEKDAY})s\b", re.IGNORECASE)
_REMIND = lazy(r"^(?:please[, ]+)?(?:(?:can|could|would) you )?remind me\b", re.IGNORECASE)
# "… remind you to the bins go out", "… at 09:00 to rent is due": a clause, said with "that"
_TO_CLAUSE = lazy(
    r"\bto ((?:the|my|your|our|his|her|their|a|an) (?:[\w'’-]+ ){0,3}?"
    r"(?:go|goes|comes?|is|are|starts?|ends?|opens?|closes?|needs?|due|lands?|arrives?)\b"
    # "rent is due", "bins are out": a noun and "is" ("call the bank" stays "to")
    r"|(?:[\w'’-]+ ){1,2}(?:is|are|was|were)\b)",
    re.IGNORECASE,
)


def weekly(line: str) -> str:
    """ "remind me the bins go out on Tuesdays" -> "… every Tuesday" (a reminder each week, as
    said); any other line as it was."""
    if not _REMIND.match(line.strip()):
        return line
    return _PLURAL_DAY.sub(lambda m: f"every {m[1].capitalize()}", line)


def that_clause(reply: str) -> str:
    """ "I'll remind you to the bins go out" -> "… remind you that the bins go out" (a reminder's
    reply: its task after "to")."""
    return _TO_CLAUSE.sub(r"that \1", reply)
