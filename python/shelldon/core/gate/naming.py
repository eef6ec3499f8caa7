"""Names said with a bare "is" (docs/gate-design.md "The leftovers pass"): "The user is Bob.", "My
human is Priya", "The owner is Dr. Hannah Weiss", "my human, Marguerite, ...", and, in about.md
(the pet's description of itself, in its own first person), "I'm Nova", "My owner is Bob".

`gate.authority.names_someone` reads how a name is given ("is called", "goes by", "'s name is");
this reads the shorter shape, where only the capital tells a name from a description: "The owner
is German", "The user is Bob's sister", "The user is OK with it", "the owner is in Berlin" are
descriptions. A capitalised word after "is" is a name unless it is a nationality, a language or a
faith (`_DESCRIPTIONS`), a possessive ("Bob's") or in capitals ("ADHD").

`names_by_be(text, voice)`: ("owner" or "pet", the name folded), or None. `voice` is who "I"
is: "owner" for a memory entry (the owner's or a model's note about the owner), "pet" for
about.md, which the pet writes about itself ("I am shelldon", "my owner is ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from shelldon.core.gate.normalise import fold_letters

# Capitalised words that describe rather than name: nationalities, languages, faiths.
_DESCRIPTIONS = frozenset(
    """
    english french german spanish italian portuguese dutch polish russian ukrainian greek turkish
    swedish norwegian danish finnish icelandic irish scottish welsh british american canadian
    mexican brazilian argentinian argentine chilean colombian peruvian venezuelan cuban indian
    pakistani bangladeshi nepali sri chinese japanese korean vietnamese thai filipino indonesian
    malaysian singaporean australian african nigerian kenyan ghanaian ethiopian egyptian moroccan
    algerian tunisian israeli palestinian iranian iraqi syrian lebanese jordanian saudi emirati
    swiss austrian belgian luxembourgish czech slovak hungarian romanian bulgarian serbian
    croatian slovenian bosnian albanian lithuanian latvian estonian european asian arab latino
    latina hispanic catholic protestant lutheran anglican methodist baptist evangelical christian
    orthodox muslim jewish hindu buddhist sikh jain atheist agnostic mormon quaker pagan
    """.split()  # noqa: SIM905
)

_NAME = r"((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-Z][a-z]+(?:-[A-Z]?[a-z]+|'[A-Z][a-z]+)?)(?![\w'-])"
_ADV = r"(?:(?i:now|actually|really|still|officially)\s+)?"
# Who the sentence is about, by voice: in a memory entry the owner is "the user" and the pet "the
# pet"; in about.md "I" is the pet and "my owner" the owner.
_THIRD_OWNER = r"(?i:(?:the|my|your|our)\s+(?:user|owner|human))"
_THIRD_PET = r"(?i:(?:the|this)\s+(?:pet|assistant))"
_SUBJECTS = {
    "owner": ((_THIRD_OWNER, "owner"), (_THIRD_PET, "pet")),
    "pet": ((_THIRD_OWNER, "owner"), (r"(?i:i\s+am|i'm)", "pet"), (_THIRD_PET, "pet")),
}


# "The wife of the owner is Mia", "lunch with the user is Bob's idea": the name is another's (and
# "the sister of the owner, Mia, ..." in apposition; "with my human, Marguerite," is the owner).
_NOT_AFTER = "".join(
    rf"(?<!\b(?i:{w})\s)"
    for w in ("of", "for", "to", "with", "from", "by", "and", "or", "than", "like")
)


def _patterns(voice: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for subject, who in _SUBJECTS[voice]:
        lead = subject if subject.startswith("(?i:i") else subject + r"\s+(?i:is|was)"
        # "The user is Bob", "I'm Nova"; "my human, Marguerite, ..."; "my owner, whose name is X"
        out.append((re.compile(r"(?<![\w'])" + _NOT_AFTER + lead + r"\s+" + _ADV + _NAME), who))
        if not subject.startswith("(?i:i"):
            out.append(
                (
                    re.compile(
                        r"(?<![\w'])(?<!\b(?i:of)\s)" + subject + r",\s+" + _NAME + r"\s*[,;)]"
                    ),
                    who,
                )
            )
            out.append(
                (
                    re.compile(
                        r"(?<![\w'])"
                        + subject
                        + r",?\s+(?i:whose\s+(?:\w+\s+)?name\s+is)\s+"
                        + _NAME
                    ),
                    who,
                )
            )
    return tuple(out)


_BY_VOICE = {voice: _patterns(voice) for voice in _SUBJECTS}


def _fold_keeping_case(text: str) -> str:
    """`fold_letters` letter by letter, a capital kept a capital (a Cyrillic "Воb" is "Bob")."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        folded = fold_letters(ch)
        out.append(folded.upper() if ch.isupper() or ch.istitle() else folded)
    return "".join(out)


def namings_by_be(text: str, voice: str = "owner") -> Iterator[tuple[str, str]]:
    """Each ("owner" or "pet", the name folded) `text` gives with a bare "is" or an apposition
    (module docstring), in the text's order."""
    folded = _fold_keeping_case(text).replace("\u2019", "'")
    for pattern, who in _BY_VOICE[voice]:
        for m in pattern.finditer(folded):
            name = m.group(1)
            if name.split()[-1].casefold() not in _DESCRIPTIONS:
                yield who, " ".join(name.casefold().split())


def names_by_be(text: str, voice: str = "owner") -> tuple[str, str] | None:
    """The first of `namings_by_be`, or None."""
    return next(namings_by_be(text, voice), None)
