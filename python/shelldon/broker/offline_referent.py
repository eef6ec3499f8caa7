"""Who "he", "she" or "it" is, read by broker.offline (docs/brain.md, "The audit pass: typed on a
phone"): a line about someone the owner just mentioned, said with a pronoun.

    my dad retired last week        -> he was a postman for 40 years
    my best friend is called Priya  -> she's a doctor
    I had lunch with Sam today      -> he's my cousin
    we got a kitten                 -> its name is Miso
    my sister just had a baby boy!  -> his name is Theo

The person is the last one named, in the sentences before it in the same message or in the
owner's line before, whose word fits the pronoun ("she" is no brother; "his" after "a baby boy"
is the baby, not the sister): one of the owner's ("my dad", "my best friend"), a name ("Sam"),
or someone new ("a baby boy", "a puppy").

`resolved` says the line again with the person in place of the pronoun ("my dad was a postman
for 40 years", "Sam is my cousin", "my kitten is called Miso"), so broker.offline's fact rules
read it as they read any statement and propose what they keep, through the gate, in the owner's
words. A name given to someone who is not the owner's ("his name is Theo", the sister's baby)
keeps nothing: it is answered warmly by `named_reply`. A name that puts right the one just given
("my brother is called Tom" -> "actually his name is Tomas") is said as the correction it is
("actually my brother is called Tomas"), so the same entry is revised. A pronoun with no one
before it that fits is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import (
    ANIMALS,
    HE,
    KIN,
    KIN_GROUPS,
    MONTHS,
    OTHERS,
    SHE,
    UNSAID,
    WEEKDAYS,
    alternation,
    plurals,
)
from shelldon.broker.patterns import lazy

PLURAL_ONES = tuple(p for w in (*KIN, *OTHERS, *ANIMALS) for p in plurals(w) if p != w)

_ADJ = r"(?:(?:older|younger|little|big|elder|twin|new|old|lovely|baby|beautiful|tiny)\s+)*"
_OWNERS = lazy(
    rf"\b(?:my|our)\s+{_ADJ}(?P<rel>{alternation(*KIN, *OTHERS, *ANIMALS)})\b"
    r"(?:(?:\s+(?:is|'s|’s)\s+(?:called|named)\s+|,?\s+)(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]+)"
    # "my fiancee is Marta": Marta is the fiancee, not someone else to be "she"
    r"|\s+(?:is|'s|’s)\s+(?P<is_name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]+)(?=[\s.,!]*$))?",
    re.IGNORECASE,
)
# "my dogs", "our kids", "my best friends": several of the owner's at once, who "they" are.
_GROUPS = lazy(
    rf"\b(?:my|our|the|two|three|four|five|six|\d+)\s+{_ADJ}"
    rf"(?P<rel>{alternation(*KIN_GROUPS, 'twins', *PLURAL_ONES)})\b",
    re.IGNORECASE,
)
# "a baby boy", "a new puppy": someone new, the owner's when they got it ("we got a kitten").
_NEW = lazy(
    rf"\b(?P<got>(?:i|we)(?:'ve|’ve| have)?\s+(?:just\s+)?(?:got|adopted|bought|rescued|have)\s+)?"
    rf"(?:a|an)\s+{_ADJ}(?P<new>baby girl|baby boy|girl|boy|{alternation(*ANIMALS)}|baby)\b",
    re.IGNORECASE,
)
# A name mid-sentence ("lunch with Sam"), not a place ("lives in Paris", "back from Rome").
_NAMED = lazy(
    r"(?<=[\w,] )(?<!\bin )(?<!\bto )(?<!\bfrom )(?<!\bat )(?<!\bnear )(?<!\bof )"
    r"(?P<name>[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ][\w'’-]*)"
)
_GIRL = frozenset(("girl", "baby girl"))
_BOY = frozenset(("boy", "baby boy"))

_PRONOUN = r"(?P<p>he|she|it|they)"
_NAME_GIVEN = lazy(
    r"^(?:(?P<pos>his|her|its|their)\s+name(?:'s|’s|s|\s+is|\s+(?P<was>was))"
    rf"|{_PRONOUN}(?:'s|’s|s|\s+is|\s+are|'re)\s+(?:called|named))"
    # "her name was Rose, she taught me to bake": someone gone, and a clause about them after
    r"\s+(?P<name>[^\W\d_][\w'’-]*)(?:[\s.!]*$|(?=\s*,\s*(?:she|he|they)\b))",
    re.IGNORECASE,
)
# "she's a doctor", "hes 31", "he was a postman", "she lives in Leeds", "he works from home".
_SAID_OF = lazy(
    rf"^{_PRONOUN}(?P<be>'s|’s|s|\s+is|\s+was|\s+has|\s+had|\s+will|'ll|(?<=they)(?:'re|’re|re|"
    r"\s+are|\s+were|\s+have)|\s+(?!is\b|was\b)"
    r"(?=[a-z]+s\b))\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)
# What tells more, read past ("oh and she's into italian food": the seventeenth pass, it was lost).
_TOLD_MORE = lazy(r"^(?:(?:oh|and|also|plus|btw|ah|oh yeah|anyway|ps)[\s,]+)+", re.IGNORECASE)
# What puts a name right: "actually", "no wait", "sorry i meant", "oops".
_CORRECTED = lazy(
    r"^(?:(?:actually|no+|nope|wait|sorry|oops|i mean|i meant|correction|my bad|hang on)"
    r"[\s,:!.-]+)+",
    re.IGNORECASE,
)
_HEARD = (
    "Oh, {who}! How do you feel about that?",
    "Ooh, news about {who}. What do you make of it?",
)
_NAMED_REPLY = ("{N}! What a lovely name.", "Oh, {N}, that's a lovely name!")


@dataclass(frozen=True)
class Someone:
    """One mention: the owner's relation (`rel`, "" for a name alone or someone new), a name,
    someone new (`new`: "baby boy"), and whether they are the owner's."""

    rel: str = ""
    name: str = ""
    new: str = ""
    owners: bool = True
    several: bool = False  # "my dogs": only "they"
    far: int = field(default=0, compare=False)  # further back (`farther_ones`): 1 window, 2 memory

    def fits(self, pronoun: str) -> bool:
        word = (self.rel or self.new).casefold()
        if self.several:
            return pronoun == "they"
        if pronoun == "she":
            return word not in HE and word not in _BOY
        if pronoun == "he":
            return word not in SHE and word not in _GIRL
        if pronoun == "it":
            return word in ANIMALS or word == "baby"
        return True

    @property
    def said(self) -> str:
        """How a statement names them: "my dad", "Sam", "my kitten"."""
        if self.rel:  # "my best friend Priya": the detail joins the name's entry (the gate)
            return f"my {self.rel.casefold()} {self.name}".rstrip()
        if self.new and self.owners:
            return f"my {self.new.casefold()}"
        return self.name


def mentions(text: str) -> list[Someone]:
    """Everyone a line names, in the order it names them."""
    found: list[tuple[int, Someone]] = []
    said_is: set[str] = set()
    for m in _OWNERS.finditer(text):
        found.append((m.start(), Someone(rel=m.group("rel"), name=m.group("name") or "")))
        said_is.add(m.group("is_name") or "")
    for m in _GROUPS.finditer(text):
        found.append((m.start(), Someone(rel=m.group("rel"), several=True)))
    for m in _NEW.finditer(text):
        found.append((m.start("new"), Someone(new=m.group("new"), owners=bool(m.group("got")))))
    taken = {s.name for _, s in found} | said_is
    for m in _NAMED.finditer(text):
        name = m.group("name")
        if name not in taken and name.casefold() not in UNSAID and _is_person(name):
            found.append((m.start(), Someone(name=name)))
    return [s for _, s in sorted(found, key=lambda f: f[0])]


def _is_person(word: str) -> bool:
    return word.casefold() not in (*MONTHS, *WEEKDAYS)


def last_fitting(
    before: list[str], pronoun: str, farther: Sequence[Someone] = ()
) -> Someone | None:
    """The last one named before (the nearest line last in `before`) that the pronoun fits; when
    no line before names anyone, the only one of `farther` it fits (`farther_ones`)."""
    for line in reversed(before):
        named = mentions(line)
        if pronoun == "they":  # several before one ("my hens are called Dot and Peg")
            named = sorted(named, key=lambda someone: someone.several)
        for someone in reversed(named):
            if someone.fits(pronoun):
                return someone
        if mentions(line):
            return None  # the nearest line named someone else: no guessing further back
    return only_fitting(farther, pronoun)


_THE_OWNERS = lazy(r"\b(?:the )?owner['’]s\b", re.IGNORECASE)


def farther_ones(
    window: Sequence[str], memory: Sequence[str] = (), titles: Sequence[str] = ()
) -> list[Someone]:
    """The owner's people named further back than a pronoun reaches: in the recent window's other
    lines (`far` 1), then in memory's statements ("The owner's wife is called Margit.") and the
    titles of its people/ entries ("wife margit likes"; `far` 2). One each: "my wife" and "my
    wife Margit" are one, "my sister Anna" and "my sister Beth" two (the sixteenth pass: "she
    likes birdwatching" many lines after "my wife Margit" found no one)."""
    people: dict[tuple[str, str], Someone] = {}
    # a people/ entry memory lists by title alone ("wife margit likes"): who it is about
    titled = [_titled(t.split()) for t in titles if t.split()]
    said = [(line, 1) for line in window] + [(line, 2) for line in (*memory, *titled)]
    for line, far in said:
        for someone in mentions(_THE_OWNERS.sub("my", line)):
            rel = someone.rel.casefold()
            if not rel or someone.several or rel not in (*KIN, *OTHERS, *ANIMALS):
                continue
            named = {name for r, name in people if r == rel}
            key = (rel, someone.name.casefold())
            if not someone.name and named:
                continue  # "my wife", and "my wife Margit" known: the same
            if someone.name and "" in named:
                far = min(far, people.pop((rel, "")).far)  # now named
            if key not in people:
                people[key] = Someone(someone.rel, someone.name, far=far)
    return list(people.values())


def said_of_whom(before: list[str], farther: Sequence[Someone] = ()) -> list[str]:
    """The lines before, each said with the person in place of its pronoun where one is read
    ("she likes birdwatching" -> "my wife Margit likes birdwatching"), so a pronoun after them
    is read as theirs: "any idea what I could get her?" next is the wife's."""
    out: list[str] = []
    for line in before:
        found = resolved(line, out, farther)
        out.append(found.sentence if found is not None else line)
    return out


# What a people/ entry's title says after the relation when it names no one ("mum home").
_TOPICS = frozenset(("home", "work", "likes", "birthday", "details", "age", "visit", "colour"))


def _titled(words: list[str]) -> str:
    """ "my wife Margit" of the title "wife margit likes", "my mum" of "mum home"."""
    if len(words) < 2 or words[1] in _TOPICS:
        return f"my {words[0]}"
    return f"my {words[0]} {words[1].capitalize()}"


def only_fitting(farther: Sequence[Someone], pronoun: str) -> Someone | None:
    """The one of `farther` a pronoun fits, by who they are ("she": no brother nor dad, so a
    partner or a friend may be; "it": an animal), recent talk first; None for none, or for two
    at the nearest reach: never a guess between them."""

    def fits(someone: Someone) -> bool:
        rel = someone.rel.casefold()
        if pronoun == "it":
            return rel in ANIMALS
        if pronoun not in ("he", "she") or rel in ANIMALS:
            return False
        return rel not in (HE if pronoun == "she" else SHE)  # "my partner Lou": either

    for far in sorted({someone.far for someone in farther}):  # recent talk before memory
        fitting = [someone for someone in farther if someone.far == far and fits(someone)]
        if fitting:
            return fitting[0] if len(fitting) == 1 else None
    return None


def _pronoun_of(found: re.Match[str]) -> str:
    said = (found.group("p") or "").casefold()
    if not said:
        said = {"his": "he", "her": "she", "its": "it", "their": "they"}[
            found.group("pos").casefold()
        ]
    return said


@dataclass(frozen=True)
class Resolved:
    """The sentence said with the person in place of the pronoun, and the person."""

    sentence: str
    who: Someone


def resolved(sentence: str, before: list[str], farther: Sequence[Someone] = ()) -> Resolved | None:
    """The sentence with the person in place of its pronoun ("she's a doctor" -> "my best friend
    is a doctor"), for the fact rules; None when it opens with no pronoun, no one before fits,
    or the name it gives is for someone who is not the owner's (`named_reply`)."""
    text = sentence.strip()
    opener = _CORRECTED.match(text)  # "actually her name is jessie": a name put right
    body = text[opener.end() :] if opener else _TOLD_MORE.sub("", text, count=1)
    given = _NAME_GIVEN.match(body)
    if given is not None:
        someone = last_fitting(before, _pronoun_of(given), farther)
        if someone is None or not someone.owners or (someone.name and not someone.rel):
            return None
        name = given.group("name")
        name = name[:1].upper() + name[1:]
        if someone.name and someone.name.casefold() != name.casefold():
            # the name known was wrong: the same entry, revised ("my brother is called Tomas")
            return Resolved(f"actually my {someone.rel.casefold()} is called {name}", someone)
        if someone.name:  # the name is known already: nothing new to read
            return None
        was = "was" if given["was"] else "is"
        return Resolved(f"{someone.said} {was} called {name}{body[given.end() :]}", someone)
    said_of = _SAID_OF.match(body)  # "actually she lives in Cork, not Galway": a correction
    if said_of is None:
        return None
    someone = last_fitting(before, said_of.group("p").casefold(), farther)
    if someone is None or not (someone.owners or someone.name):
        return None
    be = said_of.group("be").strip().casefold()
    verb = {"'s": "is", "’s": "is", "s": "is", "'ll": "will", "'re": "are", "’re": "are"}.get(
        be, be
    )
    verb = "are" if verb == "re" else verb
    if not someone.several:  # "they" of one person: "my friend is …"
        verb = {"are": "is", "were": "was", "have": "has"}.get(verb, verb)
    said = f"{someone.said} {verb} {said_of.group('rest')}".replace("  ", " ").strip()
    return Resolved(f"actually {said}" if opener else said, someone)


_HEARD_SEVERAL = ("Ha, {who}! Tell me more about them.", "Aww, {who}! What are they up to?")


def heard(who: Someone, seed: int) -> str:
    """What the pet says of a line about someone that no fact rule took ("he's going to be a
    pilot"): the person, and a question back, never a bare "Okay!"; of several ("theyre so
    naughty lol", the dogs), a word about them."""
    named = who.said.replace("my ", "your ", 1)
    if who.several:
        return pick(_HEARD_SEVERAL, seed).format(who=named)
    return pick(_HEARD, seed).format(who=named, Who=named[:1].upper() + named[1:])


_PRONOUN_FIRST = lazy(r"^(?P<p>he|she|they)\s+[a-z]", re.IGNORECASE)


def about(sentence: str, before: list[str], farther: Sequence[Someone] = ()) -> Someone | None:
    """Who a line that opens with "he", "she" or "they" is about ("they laid three eggs today"
    after "my hens are called Nan, Dot and Pip"), when `resolved` had no rule to say it again
    by; None when no one before fits."""
    found = _PRONOUN_FIRST.match(sentence.strip())
    if found is None:
        return None
    someone = last_fitting(before, found.group("p").casefold(), farther)
    return someone if someone is not None and (someone.owners or someone.name) else None


def named_reply(sentence: str, before: list[str], seed: int) -> str | None:
    """ "his name is Theo" of someone who is not the owner's (a friend's baby): a warm word for
    the name, nothing kept. None for any other sentence."""
    given = _NAME_GIVEN.match(sentence.strip())
    if given is None:
        return None
    someone = last_fitting(before, _pronoun_of(given))
    if someone is None or (someone.owners and not (someone.name and not someone.rel)):
        return None
    name = given.group("name")
    name = name[:1].upper() + name[1:]
    return pick(_NAMED_REPLY, seed).format(N=name)


# A question about someone just named, by a pronoun: "what's her name again?", "how old is he?"
_ASKED_BY = lazy(r"\b(?P<p>he|she|him|his|her)\b(?P<after>\s+[\w'’]+)?", re.IGNORECASE)
_NOT_A_NOUN = lazy(
    r"^\s+(?:again|now|today|then|too|at|in|on|to|for|about|with|from|yet|still|please|lol)$",
    re.IGNORECASE,
)


def asked_of(question: str, before: list[str], farther: Sequence[Someone] = ()) -> str | None:
    """The question with the person just named in place of its pronoun ("what's her name again?"
    after "my mom is called Ruth": "what's my mom's name again?"), for the answer rules; None
    when it has no such pronoun or no one before fits (the tenth pass: it answered with the
    owner's own name)."""
    found = _ASKED_BY.search(question)
    if found is None:
        return None
    said = found.group("p").casefold()
    pronoun = {"him": "he", "his": "he", "her": "she"}.get(said, said)
    someone = last_fitting(before, pronoun, farther)
    if someone is None or not someone.owners or not someone.rel:
        return None
    who = f"my {someone.rel.casefold()}"
    after = found.group("after") or ""
    owning = said == "his" or (said == "her" and after and not _NOT_A_NOUN.match(after))
    start, end = found.span("p")
    return question[:start] + (f"{who}'s" if owning else who) + question[end:]
