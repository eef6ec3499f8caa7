"""Work the owner did once, read by broker.offline (docs/brain.md, "Fourteenth pass"): a
former job is kept as the past and asked back as the past.

    retired welder, 40 years at the shipyard  -> The owner is a retired welder.
    ex-teacher, now I run a little bakery      -> The owner used to be a teacher. (the bakery apart)
    I used to be in the army before all this   -> The owner used to be in the army.
    what did I used to do? / what was I before the bakery? -> You used to be a teacher.

`said` reads one clause ("retired X", "ex-X", "former X", "I used to be a X", "I was a X for
30 years"; X a job: an occupation word, one made as jobs are, or a service such as the army);
`asked` says whether a question is about the work of before, and `answer` says it from what is
known. Before the fourteenth pass "retired welder" was met as an achievement ("Congratulations!
How are you celebrating?"), "ex-teacher" was taken for a name, and "what did I used to do?" was a
gap in memory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from shelldon.broker.offline_jobs import is_work
from shelldon.broker.offline_past import PAST
from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_whose import someone_elses
from shelldon.broker.offline_words import KIN, OCCUPATIONS, to_second_person
from shelldon.broker.patterns import lazy


class Former(NamedTuple):
    """A former job: what is kept and what the pet says."""

    content: str
    reply: str


_I_AM = r"(?:i(?:'m|’m| am)\s+)?"
_ARTICLE = r"(?:an?\s+)?"
_JOB = r"(?P<job>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})"
_RETIRED = lazy(rf"^{_I_AM}{_ARTICLE}(?P<how>retired|ex-?|former)\s*-?\s*{_JOB}$", re.IGNORECASE)
_USED_TO_BE = lazy(
    rf"^i (?:used to be|was once|was)\s+(?:an?\s+)?{_JOB}"
    r"(?:\s+(?:before|until|for (?:\d+|a few|many|over \d+) (?:years|decades)|back in)\b.*)?$",
    re.IGNORECASE,
)
_SERVED = lazy(
    r"^i (?:used to be|was|served) in the (?P<service>army|navy|air force|raf|marines|police|"
    r"forces|military|fire service|merchant navy)\b.*$",
    re.IGNORECASE,
)
# "I used to work at the post office for twenty years", "I worked at the mill for 30 years":
# a place of work of before (the sixteenth pass: kept as a fact of its own and said back whole).
_WORKED_AT = lazy(
    r"^i (?:used to work|worked) (?P<prep>at|in|for) (?P<place>(?:the |a |an )?[\w'’ -]+?)"
    r"(?P<long>\s+for (?:\d+|a few|many|over \d+|(?:twenty|thirty|forty|fifty|ten|fifteen|"
    r"twelve|eleven|five|six|seven|eight|nine|two|three|four)(?:[- ]\w+)?) (?:years|decades))?$",
    re.IGNORECASE,
)
# Said with "ex-" or "former" but no job: an ex-partner, an ex-smoker, a former self.
_NOT_WORK = frozenset(("smoker", "drinker", "vegan", "vegetarian", "addict", "gambler", "partner"))
_SERVICES = frozenset(("army", "navy", "raf", "marines", "police", "military", "forces"))
_ONCE = "I'll remember. What was it like?"
_HEARD = (
    "{job}! That's a working life. I'll remember. Do you miss it?",
    "{job}, I'll keep that in mind. What was the best part of it?",
)


def _a(job: str) -> str:
    return f"{'an' if job[:1].casefold() in 'aeiou' else 'a'} {job}"


def _a_job(job: str, message: str) -> bool:
    words = job.casefold().split()
    if not words or words[-1] in _NOT_WORK or words[-1] in KIN or words[0] in KIN:
        return False
    return (
        words[-1] in OCCUPATIONS
        or words[-1] in _SERVICES
        or is_work(_a(job), message)
        or is_work(_a(job), f"work {message}")  # "retired welder": retired says it was work
    )


def said(clause: str, seed: int, message: str, avoid: Sequence[str] = ()) -> Former | None:
    """The former job a clause tells, or None ("I'm retired" alone is offline_intro's status)."""
    s = " ".join(clause.split()).strip().rstrip(".!,;")
    if (served := _SERVED.match(s)) is not None:
        service = served.group("service").lower()
        return Former(
            f"The owner used to be in the {service}.",
            f"Oh, you were in the {service}! I'll remember. What was that like?",
        )
    if (worked := _WORKED_AT.match(s)) is not None and (
        worked["long"] or re.match(r"^i used to", s, re.IGNORECASE)
    ):
        place, how_long = worked["place"].strip(), (worked["long"] or "").strip()
        content = f"The owner used to work {worked['prep'].lower()} {place} {how_long}"
        if how_long:  # "for twenty years": "Twenty years at the post office! …"
            years = how_long.removeprefix("for ")
            heard = pick(_HEARD, seed, avoid).format(job=f"{years.capitalize()} at {place}")
        else:
            heard = f"{place[:1].upper()}{place[1:]}, once upon a time! {_ONCE}"
        return Former(content.strip() + ".", heard)
    if (retired := _RETIRED.match(s)) is not None:
        job = retired.group("job").lower()
        if not _a_job(job, message):
            return None
        if job in _SERVICES:
            return Former(
                f"The owner used to be in the {job}.",
                f"Oh, you were in the {job}! I'll remember. What was that like?",
            )
        retired_now = retired.group("how").casefold() == "retired"
        content = (
            f"The owner is a retired {job}." if retired_now else f"The owner used to be {_a(job)}."
        )
        said_back = f"A retired {job}" if retired_now else f"You used to be {_a(job)}"
        return Former(content, pick(_HEARD, seed, avoid).format(job=said_back))
    if (was := _USED_TO_BE.match(s)) is not None:
        job = was.group("job").lower()
        if not _a_job(job, message) or not re.match(
            r"^i (?:used to be|was once|was) an? ", s, re.I
        ):
            return None
        return Former(
            f"The owner used to be {_a(job)}.",
            pick(_HEARD, seed, avoid).format(job=f"You used to be {_a(job)}"),
        )
    return None


_ASKED = lazy(
    r"\b(?:what|where) did i (?:use|used) to (?:do|work|be)\b"
    r"|\bwhat (?:did i do|was i|did i work as) (?:before|back then|for (?:work|a living) before)\b"
    r"|\bwhat (?:was|were) my (?:old|last|former|previous|first) (?:job|work|career|line of work)\b"
    r"|\bwhat did i (?:retire|do) (?:from|before i retired)\b"
    r"|\bwhat (?:did|do) i do before\b",
    re.IGNORECASE,
)
_WORK_BEFORE = lazy(
    r"\b(?:retired|used to be|used to work(?! out)|worked as|was an? )\b", re.IGNORECASE
)


def asked(question: str) -> bool:
    """Whether a question asks about the work the owner did before."""
    return bool(_ASKED.search(question))


def answer(known: Sequence[str]) -> str:
    """The work of before from what is known (newest first), or a question for it."""
    for text in known:
        if _WORK_BEFORE.search(text) and (PAST.search(text) or "retired" in text.casefold()):
            if someone_elses(text):
                continue
            said_back = to_second_person(text).rstrip(".")
            return f"{said_back[:1].upper()}{said_back[1:]}."
    return "You haven't told me what you did before. What was it?"
