"""A coming occasion in the life of someone of the owner's, read by broker.offline
(docs/brain.md, "Nineteenth pass"):

    my grandson Tom is getting married in August -> kept: "The owner's grandson Tom is getting
                                                    married: his wedding is in August 2027."
    Susan is graduating next month               -> the same, with Susan's relation if kept
    when is Tom's wedding?                       -> the entry, found by its word "wedding"

Before, these were "How exciting for your grandson! I'm so happy for them." with nothing kept,
and "when is Tom's wedding?" found only his name. The when is read as offline_milestones reads a
coming age's ("in August", "next month", "in two months", "this year"), said as a date so it
stays right later; the occasion's noun is kept beside the verb, as a birthday is beside "turns",
so the question's word finds it. A when days ahead, or none, is left to the other rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.offline_milestones import REL, WHEN, when_dated
from shelldon.broker.offline_words import HE, SHE
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

# What is happening, and how its day is said ("getting married": "his wedding is in …"): the
# noun kept beside the verb, so "when is Tom's wedding?" finds it by its word.
_OCCASIONS = {
    "getting married": "{their} wedding is",
    "graduating": "{their} graduation is",
    "retiring": "{their} retirement is",
    "moving house": "the move is",
    "having a baby": "the baby is due",
    "having her baby": "the baby is due",
    "having their baby": "the baby is due",
    "starting school": "{their} first day at school is",
    "starting university": "{their} first day at university is",
    "starting uni": "{their} first day at university is",
    "starting college": "{their} first day at college is",
}
_WHAT = "|".join(re.escape(k) for k in _OCCASIONS)
_SAID = lazy(
    r"^(?:(?:actually|oh|btw|so|also|and|guess what)[\s,!]+)*"
    rf"(?:(?:my|our) {REL}(?: (?P<relname>[A-Z][\w-]*))?|(?P<name>[A-Z][\w-]*))"
    rf" (?:is|'s|’s) (?P<what>{_WHAT})\s+{WHEN}[\s.!🎉💍]*$",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(("it", "that", "this", "what", "who", "there", "he", "she", "i", "my"))


@dataclass(frozen=True)
class Occasion:
    reply: str
    keep: tuple[str, str, str]  # collection, name, content


def said(sentence: str, now: LocalNow | None, relation_of: dict[str, str]) -> Occasion | None:
    """A coming occasion said with a month or a week ahead (see the module), else None."""
    found = _SAID.match(" ".join(sentence.split()))
    if found is None or now is None:
        return None
    name = found["relname"] or found["name"] or ""
    if name.casefold() in _NOT_NAMES:
        return None
    when = when_dated(found["when"], now.local.date())
    if when is None or when.startswith("in the week of") or when == "soon":
        return None  # days ahead, or no telling when: history keeps it
    name = name[:1].upper() + name[1:]
    rel = (found["rel"] or relation_of.get(name.casefold(), "")).casefold()
    what = found["what"].casefold()
    day_is = _OCCASIONS[what]
    base = rel.split()[-1] if rel else ""
    their = "his" if base in HE else "her" if base in SHE else "their"
    who = (f"The owner's {rel}" + (f" {name}" if name else "")) if rel else name
    content = f"{who} is {what}: {day_is.format(their=their)} {when}."
    said_as = name or f"your {rel}"
    reply = (
        f"Oh, how exciting! {said_as[:1].upper() + said_as[1:]} is {what} {found['when']}. "
        f"I'll remember it's {when.removeprefix('in ')}. 🎉"
    )
    noun = day_is.format(their="").split(" is")[0].strip().removeprefix("the ")
    return Occasion(reply, ("people", f"{rel or name.casefold()} {noun}", content))
