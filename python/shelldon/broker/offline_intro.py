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

from shelldon.broker.offline_moods import mood
from shelldon.broker.offline_talk import feeling, pick, said_name
from shelldon.broker.offline_words import HELLOS, OCCUPATIONS, alternation, to_third_person
from shelldon.broker.patterns import lazy

_PARTS = lazy(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+(?=(?:i|i'm|i’m|im|my)\b)", re.IGNORECASE)
_AGE = lazy(r"^\d{1,3}(?:\s*(?:years? old|yrs? old|yo|y/o))?$", re.IGNORECASE)
_FROM = lazy(r"^(?:originally )?from\s+\S", re.IGNORECASE)
_LIVES = lazy(r"^(?:based|living|live) in\s+(.+)$|^in\s+([A-ZÀ-ÖØ-Þ].*)$", re.IGNORECASE)
_ITS_NAME = lazy(r"^(?i:it's|it’s|it is|its|this is)\s+[A-ZÀ-ÖØ-Þ][\w'’-]*$")
_JOB = lazy(rf"^(?:{alternation(*OCCUPATIONS)})\b", re.IGNORECASE)
_DOING = lazy(r"^(?:just|recently|also|still|currently|now|finally)\s+[^\W\d_]+(?<!ing)\s+\S", re.I)
_GOT = lazy(r"^(?:got|have)\s+(?:a|an|one|two|three|four|five|\d+|some)\s+\S", re.IGNORECASE)
_GERUND = lazy(r"^[^\W\d_]{2,}ing\s+\S", re.IGNORECASE)
_WHAT = lazy(r"^(?:a|an)\s+\S|^(?:retired|unemployed|self-employed|freelance)\b", re.IGNORECASE)


def introduction(sentence: str, *, asked: bool = False) -> tuple[str, list[str]] | None:
    """(the name, the other parts as statements) when the line opens with the owner's name and
    says more; None otherwise (a name alone is offline_talk.said_name's). `asked`: the pet just
    asked the owner's name, so a name in lower case needs no statement after it."""
    parts = [p.strip(" .!") for p in _PARTS.split(sentence.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return None
    parts[0] = _HELD_HELLO.sub("", parts[0]) or parts[0]  # "heyy its ola": "its ola"
    # "it's Tariq, I'm a plumber": "it's" + a capitalised name is a name when more follows
    name = said_name(parts[0], asked=bool(_ITS_NAME.match(parts[0])))
    rest = [as_statement(p) for p in parts[1:]]
    stated = asked or all(_STATED.match(r) for r in rest)
    if _ITS.match(parts[0]) and not asked and not any(_SELF.match(r) for r in rest):
        stated = False  # "its true, i love it": "it's" opens a name only before who they are
    if name is None and lower_case_name(parts[0]) and stated:
        name = said_name(parts[0], asked=True)  # "im marco, i work in a bank": typed in lower case
    if name is None:
        return None
    return name, rest


# A name typed in lower case is heard only in the shapes that give one ("im leo", "una here"),
# followed by what the owner says of themselves; never a state ("im off, i have work").
_LOWER_SHAPE = lazy(
    rf"^(?:(?:{alternation(*HELLOS)})[\s,!]+)?"
    r"(?:(?:i'm|i’m|im|i am)\s+(?P<a>[^\W\d_]+)|(?P<b>[^\W\d_]+) here|"
    r"(?:it's|it’s|its|it is|this is)\s+(?P<c>[^\W\d_]+))"
    r"(?:\s+(?:btw|lol|again|here))?$",
    re.I,
)
# A hello with its letters held ("heyy", "hiii", "helloo"), before the name.
_HELD_HELLO = lazy(r"^(?:h+e+y+|h+i+|hell+o+|hiy+a+|yo+)[\s,!]+(?=\S)", re.IGNORECASE)
_ITS = lazy(rf"^(?:(?:{alternation(*HELLOS)})[\s,!]+)?(?:it's|it’s|its|it is|this is)\s", re.I)
# What the owner says of who they are: an age, a job, a home, what they have.
_SELF = lazy(
    r"^i(?:'m|’m| am|m) (?:a |an |\d|from\b)|^i (?:live|work)\b|^i(?:'ve| have) got\b", re.I
)
_STATED = lazy(r"^(?:i|i'm|i’m|i've|my)\b", re.IGNORECASE)
_NOT_A_STATE = frozenset(
    re.findall(
        r"\S+",
        "off up out down in stuck lost confused starving broke full dead dying finished done "
        "sorry glad fed sat stood gone fine",
    )
)


def lower_case_name(part: str) -> bool:
    """Whether the part gives a name in the shapes that do even in lower case ("im leo", "una
    here"), and the word is no state ("im off", "im stuck") nor a feeling or mood."""
    found = _LOWER_SHAPE.match(part.strip())
    if found is None:
        return False
    word = (found.group("a") or found.group("b") or found.group("c")).casefold()
    return (
        word not in _NOT_A_STATE
        and not (len(word) > 4 and word.endswith("ing"))
        and feeling(f"I'm {word}") is None
        and mood(f"I'm {word}") is None
    )


def joined(sentences: list[str]) -> str:
    """The message's sentences as one line of parts ("im max. i live in cardiff" -> "im max, i
    live in cardiff"): an introduction typed over two sentences is read as one."""
    return ", ".join(s.strip().rstrip(".!") for s in sentences)


def as_statement(part: str) -> str:
    """A part of an introduction as the statement it stands for: "34" -> "I'm 34", "from Leeds"
    -> "I'm from Leeds", "based in Bath" -> "I live in Bath", "a nurse" -> "I'm a nurse"."""
    if _AGE.match(part) or _FROM.match(part) or _WHAT.match(part):
        return f"I'm {part}"
    if _JOB.match(part):  # "nurse at the hospital": a job said without its article
        return f"I'm {'an' if part[:1].casefold() in 'aeiou' else 'a'} {part}"
    if (lives := _LIVES.match(part)) is not None:
        return f"I live in {lives.group(1) or lives.group(2)}"
    if _GOT.match(part):  # "got two dogs", "have a cat": what the owner has
        return f"I've {part}" if part[:1] in "gG" else f"I {part}"
    if _DOING.match(part):  # "just moved to Bristol", "recently started a new job"
        return f"I {part}"
    if _GERUND.match(part):  # "loving it so far", "working at the bakery"
        return f"I'm {part}"
    return part


def fragments(line: str) -> list[str] | None:
    """A line of fragments only, the owner's "I" dropped from each ("23, student in Glasgow"):
    the statements they stand for; None when any part is more than a fragment ("tired, hungry"
    stay as they are)."""
    parts = [p.strip() for p in re.split(r"\s*[,;]\s*", line.strip().rstrip(".!")) if p.strip()]
    if len(parts) < 2:
        return None
    said = [as_statement(part) for part in parts]
    return None if any(s == p for s, p in zip(said, parts, strict=True)) else said


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
    r"|^i (?:used to |still |now )?\w+ .+ for (?:a living|work)$"
    # a trade said by its verb and who it is for: "I test software for a bank" (the fourteenth
    # pass: "Ooh, … Enjoy it!" and nothing kept)
    r"|^i (?:used to |still |now )?(?:test|write|build|code|develop|design|fix|repair|drive|"
    r"deliver|clean|program|translate|audit|inspect|install|sell|plaster|tile|wire|plumb) "
    r"(?:[\w-]+ ){1,3}"
    r"(?:for|at) (?:a|an|the) (?!hobby|laugh|living room|weekend)[\w -]+$"
    # how or when the work is done, then what it is: "I work from home as a translator"
    r"|^i (?:used to |still |now |mostly |currently )?work (?:from home|remotely|part[- ]?time|"
    r"full[- ]?time|nights|night shifts?|weekends|shifts|freelance|for myself)\b.*",
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
