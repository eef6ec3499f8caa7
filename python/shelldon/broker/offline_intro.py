"""An introduction in one line, read by broker.offline (docs/brain.md, "The audit pass: chat as
owners type it"): "Oli here, I work as a barista", "name's Ruth, I'm retired", "I'm Dan, 34, from
Leeds". The first part gives the name (offline_talk.said_name); each other part is said back as
the statement it stands for ("34" is "I'm 34", "from Leeds" is "I'm from Leeds"), so the fact
rules keep it in its own entry, in the owner's words, one fact per op.

`work` reads what the owner does said as a status or by its verb ("I'm retired", "I teach maths
to 12 year olds", "I run a little bakery", "I used to drive a bus for a living"): the fact in the
owner's words, filed where "what's my job?" finds it, and heard in a few words of the pet's own
(their sentence said back would be an echo).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick, said_name
from shelldon.broker.offline_words import to_third_person
from shelldon.broker.patterns import lazy

_PARTS = lazy(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+(?=(?:i|i'm|i’m|im|my)\b)", re.IGNORECASE)
_AGE = lazy(r"^\d{1,3}(?:\s*(?:years? old|yrs? old|yo|y/o))?$", re.IGNORECASE)
_FROM = lazy(r"^(?:originally )?from\s+\S", re.IGNORECASE)
_LIVES = lazy(r"^(?:based|living|live) in\s+(.+)$|^in\s+([A-ZÀ-ÖØ-Þ].*)$", re.IGNORECASE)
_ITS_NAME = lazy(r"^(?i:it's|it’s|it is|its|this is)\s+[A-ZÀ-ÖØ-Þ][\w'’-]*$")
_WHAT = lazy(r"^(?:a|an)\s+\S|^(?:retired|unemployed|self-employed|freelance)\b", re.IGNORECASE)


def introduction(sentence: str) -> tuple[str, list[str]] | None:
    """(the name, the other parts as statements) when the line opens with the owner's name and
    says more; None otherwise (a name alone is offline_talk.said_name's)."""
    parts = [p.strip(" .!") for p in _PARTS.split(sentence.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return None
    # "it's Tariq, I'm a plumber": "it's" + a capitalised name is a name when more follows
    name = said_name(parts[0], asked=bool(_ITS_NAME.match(parts[0])))
    if name is None:
        return None
    return name, [as_statement(p) for p in parts[1:]]


def as_statement(part: str) -> str:
    """A part of an introduction as the statement it stands for: "34" -> "I'm 34", "from Leeds"
    -> "I'm from Leeds", "based in Bath" -> "I live in Bath", "a nurse" -> "I'm a nurse"."""
    if _AGE.match(part) or _FROM.match(part) or _WHAT.match(part):
        return f"I'm {part}"
    if (lives := _LIVES.match(part)) is not None:
        return f"I live in {lives.group(1) or lives.group(2)}"
    return part


_STATUS = lazy(
    r"^i(?:'m|’m| am) (?:now |currently |happily )?(?:retired|unemployed|self-employed|"
    r"a freelancer|freelance|a (?:(?:full|part)[- ]time |uni |university |phd |grad )?student|"
    r"a stay[- ]at[- ]home (?:mum|mom|dad|parent)|between jobs|on (?:maternity|paternity|"
    r"parental) leave)\b",
    re.IGNORECASE,
)
_WORK_VERB = lazy(
    r"^i (?:used to |still |now )?(?:teach|tutor|lecture in|lecture on)\b.+"
    r"|^i (?:used to |still |now )?(?:run|own|manage) (?:a|an|my own|my|our|the) "
    r"(?:[\w'’-]+ ){0,2}(?:shop|store|cafe|café|bakery|restaurant|bar|pub|business|company|"
    r"firm|salon|studio|farm|clinic|school|hotel|garage|team|department|charity|startup|"
    r"practice|office|kitchen|warehouse)s?\b.*"
    r"|^i (?:used to |still |now )?\w+ .+ for (?:a living|work)$",
    re.IGNORECASE,
)
_WORK_HEARD = (
    "Oh, so that's what you do! I'll remember. Do you enjoy it?",
    "Ooh, interesting! I'll keep that in mind. What's the best part of it?",
    "Nice! I'll remember that. How long have you been doing it?",
)
_STATUS_HEARD = {
    "student": "Ooh, a student! I'll remember. What are you studying?",
    "retired": "Retired, lucky you! I'll remember. What fills your days now?",
}
_DID = "Oh, so that's what you did! I'll remember. Do you miss it?"


def work(sentence: str, seed: int, avoid: Sequence[str] = ()) -> tuple[str, str] | None:
    """(the fact in the owner's words, the pet's reply) for work said as a status or by its
    verb; None for any other sentence ("I run every morning" is no job)."""
    s = sentence.strip().rstrip(".!?,;").strip()
    status = _STATUS.match(s)
    if status is None and not _WORK_VERB.match(s):
        return None
    kind = re.search(r"\b(student|retired)\b", s, re.IGNORECASE) if status else None
    if re.match(r"^i used to\b", s, re.IGNORECASE):
        heard = _DID  # the work they did: no "what's the best part of it?"
    elif kind is not None:
        heard = _STATUS_HEARD[kind.group(1).lower()]
    else:
        heard = pick(_WORK_HEARD, seed, avoid)
    return to_third_person(s), heard
