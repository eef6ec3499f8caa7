"""An introduction in one line, read by broker.offline (docs/brain.md, "The audit pass: chat as
owners type it"): "Oli here, I work as a barista", "name's Ruth, I'm retired", "I'm Dan, 34, from
Leeds". The first part gives the name (offline_talk.said_name); each other part is said back as
the statement it stands for ("34" is "I'm 34", "from Leeds" is "I'm from Leeds"), so the fact
rules keep it in its own entry, in the owner's words, one fact per op.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_talk import said_name
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
