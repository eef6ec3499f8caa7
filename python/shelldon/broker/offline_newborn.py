"""A baby born to one of the owner's family, and its name, read by broker.offline (docs/brain.md,
"Nineteenth pass: a pet that keeps the day"):

    my sister Priya just had a baby boy!   -> "A baby boy! Congratulations to Priya, … What's
                                              his name?" (the sister kept as before)
    his name is Arjun                      -> people/nephew: "The owner's nephew is called Arjun."
    my son Daniel had twins last night!    -> "Twins! Congratulations to Daniel, …"

The baby is the owner's too, by the relation: a sister's or brother's is a nephew or niece, a
son's or daughter's a grandson or granddaughter, a mum's or dad's a brother or sister, an aunt's
or uncle's a cousin. `named` says the name line again as the owner's ("my nephew is called
Arjun"), so broker.offline's fact rules keep it as they keep any name; a friend's baby is no one
of the owner's and its name stays unkept (offline_referent's `named_reply`). Before the nineteenth
pass "his name is Arjun" kept nothing and "what's my nephew called?" was "I don't know that yet.",
and "my brother Marek and his wife just had a little girl!" was met as a name ("Oh, Marek! I'll
remember Marek is your brother.").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import KIN, alternation
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_KIN_OF = {
    "sister": ("nephew", "niece"),
    "brother": ("nephew", "niece"),
    "son": ("grandson", "granddaughter"),
    "daughter": ("grandson", "granddaughter"),
    "mum": ("brother", "sister"),
    "mom": ("brother", "sister"),
    "mam": ("brother", "sister"),
    "mother": ("brother", "sister"),
    "dad": ("brother", "sister"),
    "father": ("brother", "sister"),
    "aunt": ("cousin", "cousin"),
    "auntie": ("cousin", "cousin"),
    "uncle": ("cousin", "cousin"),
}
# Who a relation has a baby with: their wife, husband, partner … (offline_words.KIN).
_COUPLED = tuple(
    w
    for w in KIN
    if w in ("wife", "husband", "partner") or w.endswith("friend") or w.startswith("fianc")
)
# What was had: "a baby boy", "twins", "a little girl", "a son".
_HAD = ("twin boys", "twin girls", "twins", "boy", "girl", "baby", "son", "daughter")
_BORN = lazy(
    r"\b(?:my|our) (?:(?:big|little|older|younger|elder|baby|twin) )?"
    rf"(?P<rel>{alternation(*_KIN_OF)})(?:-in-law)?(?:'s (?:{alternation(*_COUPLED)}))?"
    r"(?:,? (?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]+))?"
    rf"(?: and (?:his|her|their) (?:{alternation(*_COUPLED)}))?,?"
    r" (?:(?:has|have|'s|’s) )?(?:just |finally |only )?(?:had|welcomed|gave birth to)"
    r" (?P<baby>(?:a |an )?(?:(?:healthy|beautiful|gorgeous|tiny|little|new|baby|bouncing) )*"
    rf"(?:{alternation(*_HAD)})\b)",
    re.IGNORECASE,
)
_NAME_GIVEN = lazy(
    r"^(?:(?:and|oh|so)[\s,]+)*(?:(?P<pos>his|her)\s+name(?:'s|’s|\s+is)"
    r"|(?P<p>he|she)(?:'s|’s|\s+is)\s+(?:called|named)"
    r"|(?:they|we)(?:'ve|’ve| have)?\s+(?:called|named)\s+(?P<obj>him|her))"
    r"\s+(?P<name>[^\W\d_][\w'’-]*)[\s.!]*$",
    re.IGNORECASE,
)
_CHEERS = (
    "{Baby}! Congratulations to {who}, that's wonderful news! 🎉 {ask}",
    "Oh, {baby}! How lovely, congratulations to {who}! 💛 {ask}",
)


def _sex(baby: str) -> str:
    """ "boy", "girl" or "" (a baby, twins) for what was had."""
    found = re.search(r"\b(boy|son|girl|daughter)s?\b", baby, re.IGNORECASE)
    if found is None or re.search(r"\btwin", baby, re.IGNORECASE):
        return ""
    return "boy" if found.group(1).casefold() in ("boy", "son") else "girl"


class Born(NamedTuple):
    """What is kept (each (collection, name, content)) and the pet's reply."""

    keep: tuple[tuple[str, str, str], ...]
    reply: str


def born(sentence: str, now: LocalNow | None, seed: int) -> Born | None:
    """The pet's cheer for a baby born to the owner's family, the news kept with the day it was
    told on, and the relation's name as the fact rules keep it (see the module), or None."""
    found = _BORN.search(sentence)
    if found is None:
        return None
    baby = re.sub(r"^(?:a|an) ", "", found["baby"].strip(), flags=re.IGNORECASE).casefold()
    who = found["name"] or f"your {found['rel'].casefold()}"
    sex = _sex(baby)
    ask = {"boy": "What's his name?", "girl": "What's her name?"}.get(sex, "")
    ask = ask or ("What are their names?" if "twin" in baby else "What's the baby called?")
    said = f"a {baby}" if not baby.startswith("twin") else baby
    reply = pick(_CHEERS, seed).format(
        Baby=said[:1].upper() + said[1:], baby=said, who=who, ask=ask
    )
    rel = found["rel"].casefold()
    name = found["name"] or ""
    day = f" (told on {now.local:%A} {now.local.day} {now.local:%B %Y})" if now else ""
    kin = _KIN_OF[rel][0 if sex == "boy" else 1] if sex else ""
    whose = f", the owner's {kin}" if kin else ""
    keep = [
        (
            "facts",
            f"{rel}'s baby",
            f"The owner's {rel} {name}".rstrip() + f" had {said}{whose}{day}.",
        )
    ]
    if name:
        keep.append(("people", f"{rel} {name}".casefold(), f"The owner's {rel} is called {name}."))
    return Born(tuple(keep), reply)


def named(sentence: str, before: Sequence[str]) -> str | None:
    """ "his name is Arjun" right after a baby born to the owner's sister: "my nephew is called
    Arjun"; None for any other line, a baby of no one of the owner's, or twins."""
    given = _NAME_GIVEN.match(" ".join(sentence.split()))
    if given is None:
        return None
    pronoun = (given["pos"] or given["p"] or given["obj"] or "").casefold()
    sex = "boy" if pronoun in ("his", "he", "him") else "girl"
    for line in reversed(before):
        found = _BORN.search(line)
        if found is None:
            continue
        had = _sex(found["baby"])
        if had and had != sex:
            return None  # "her name is …" after "a baby boy": the sister, not the baby
        if "twin" in found["baby"].casefold():
            return None
        kin = _KIN_OF[found["rel"].casefold()][0 if sex == "boy" else 1]
        name = given["name"]
        return f"my {kin} is called {name[:1].upper()}{name[1:]}"
    return None
