"""An addition said as a correction, read by broker.offline (docs/brain.md, "Sixteenth pass:
memory it loses or bends"):

    correction: I do bathrooms too, not only kitchens  -> the entry that says kitchens, with it
    actually I teach piano as well                     -> kept beside what was said before
    update: I also do funerals                         -> a fact of its own when nothing fits

"Correction:", "actually" or "update" before "… too", "… as well" or "I also …" adds, it does not
swap: the entry memory shows that says the old value ("not only kitchens") keeps its words with
the new ones after them, and nothing is put right. Before the sixteenth pass such a line was read
as a correction with no old value and kept nothing ("Mm-hm, I'm listening.").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from shelldon.broker.offline_view import Shown
from shelldon.broker.offline_words import to_second_person, to_third_person
from shelldon.broker.patterns import lazy

_OPENER = r"^(?:(?:correction|actually|update|oh|and|sorry|wait)[\s,:!.-]+)+"
_NOT_ONLY = r"(?:[\s,]+(?:and )?not (?:just|only) (?P<old>[\w'’ -]+?))?[\s.!]*$"
_TOO = lazy(
    rf"{_OPENER}(?P<said>i\s+(?!(?:am|'m|was)\b)[\w'’ -]+?)[\s,]+(?:too|as well){_NOT_ONLY}",
    re.IGNORECASE,
)
_ALSO = lazy(rf"{_OPENER}i also (?P<rest>[\w'’ -]+?){_NOT_ONLY}", re.IGNORECASE)
_OPENED = lazy(r"^(?:correction|actually|update)\b", re.IGNORECASE)


class Added(NamedTuple):
    """What is kept (collection, name, content) and the pet's reply."""

    keep: tuple[str, str, str]
    reply: str


def _says(body: str, old: str) -> bool:
    return re.search(rf"\b{re.escape(old)}\b", body, re.IGNORECASE) is not None


def _same_doing(said: str, entry: Shown) -> bool:
    """Whether a kept fact of the owner's says the same doing ("teaches" of "I teach")."""
    verb = said.split()[1].casefold() if len(said.split()) > 1 else ""
    if entry.collection != "facts" or not entry.body or len(verb) < 3 or verb in ("do", "have"):
        return False
    forms = {verb, f"{verb}s", f"{verb}es"}
    return bool(forms & set(re.findall(r"[a-z]+", entry.body.casefold())))


def added(message: str, entries: Sequence[Shown]) -> Added | None:
    """The addition a line makes (see the module), or None for any other line."""
    text = " ".join(message.split())
    if not _OPENED.match(text):
        return None  # "I do bathrooms too" alone is a statement, read as any is
    found = _TOO.match(text)
    said = found["said"] if found else None
    if found is None and (found := _ALSO.match(text)) is not None:
        said = f"I {found['rest']}"
    if found is None or said is None:
        return None
    old = (found["old"] or "").strip()
    clause = to_third_person(f"{said} too").rstrip(".")
    spoken = to_second_person(f"{said} too").rstrip(".")
    entry = next((e for e in reversed(entries) if old and e.body and _says(e.body, old)), None)
    if entry is None:  # "I teach piano as well" beside "The owner teaches guitar."
        entry = next((e for e in reversed(entries) if _same_doing(said, e)), None)
    if entry is not None:
        content = f"{entry.body.rstrip().rstrip('.')}, and {clause[:1].lower()}{clause[1:]}."
        if old:  # "you do bathrooms, as well as kitchens"
            spoken = f"{spoken.removesuffix(' too')}, as well as {old}"
        return Added(
            (entry.collection, entry.title, content),
            f"Got it: {spoken}. I've added that, nothing taken away.",
        )
    name = " ".join(re.findall(r"[\w'’-]+", said)[1:6]).casefold()
    return Added(("facts", name, f"{clause}."), f"Got it: {spoken}. I'll remember that too.")
