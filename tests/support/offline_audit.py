"""The offline brain's audit: what owners type to their pet over a few days, and how a reply is
judged (scripts/offline_audit.py plays it and prints the figures in docs/brain.md, "The offline
brain listens").

Written for this project (no third-party rows). Each home is a fresh pet, played turn by turn
with what core keeps between turns. A line says what a good reply must do, and the class a
reply that does not falls in:

- `keep`: the line states a lasting fact: a `remember` op must be proposed ("fact not kept");
- `has` / `not_`: a question about what was told: the reply holds the fact, never the old or
  wrong one ("wrong fact recalled"); `not_` alone: what a reply to this line must not say
  ("answers what wasn't asked", or, for a bland acknowledgement, "template: says nothing");
- `warm`: a feeling: the reply shows it was heard ("missing empathy");
- `honest`: a question the pet cannot answer offline: it says it cannot or does not know, and
  never claims a memory ("answers what wasn't asked"); `world`: what the owner cannot teach it
  either (the weather, a sum, a capital): it never offers "tell me and I'll remember";
- `any`: the reply says one of these (the line's point was taken; "answers what wasn't asked");
- `cased`: said back exactly so, capital and all ("place said back in lower case");
- `nokeep`: a secret, or how a thing is right now ("my phone is dying"): nothing may be kept
  ("kept what it should not").

Every reply is also read for classes no line has to name (`judge`): grammar and pronouns ("you
doesn't", "my your"), a claim to remember with no op proposed, a bland acknowledgement of a
line that said something, the owner's words echoed back at length, the same reply given
before in the same home, a question the pet asked in one of its last two replies asked again
("asks again what it just asked", the ninth pass); and every fact proposed for memory, which
must be the owner's words in the third person ("The owner's …"), never "my" or "I" ("wrong
person in memory").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from shelldon.contracts.ops import Remember
from support.offline_conversations import WARM as CONVERSATION_WARM
from support.offline_pet import Pet


@dataclass(frozen=True)
class Line:
    text: str
    keep: bool = False
    has: tuple[str, ...] = ()
    not_: tuple[str, ...] = ()
    any: tuple[str, ...] = ()
    warm: bool = False
    honest: bool = False
    world: bool = False
    nokeep: bool = False  # a secret, or how a thing is now: no `remember` may be proposed
    cased: tuple[str, ...] = ()  # said back exactly so, capital and all ("Bristol", not "bristol")
    at: datetime | None = None  # the pet's clock moves on to this before the line (a later day)


@dataclass(frozen=True)
class Home:
    name: str
    now: datetime
    lines: tuple[Line, ...] = field(default_factory=tuple)


def line(text: str, *has: str, **kw: object) -> Line:
    return Line(text, has=has, **kw)  # type: ignore[arg-type]


# The conversation set's warm words, and the ones the audit's moods add.
WARM = (
    *CONVERSATION_WARM,
    "here for you",
    "i'm here",
    "exciting",
    "congrat",
    "well done",
    "yay",
    "rest",
    "feel better",  # a get-well wish (the chat pass: "got a cold")
    "poor you",
)
HONEST = (
    "don't know",
    "can't",
    "cannot",
    "not sure",
    "offline",
    "haven't told me",
    "no internet",
)
# A question to the pet about itself, or no question at all, answered as a gap in its memory of
# the owner, or with who it is.
NOT_ABOUT_ITSELF = (
    "don't know that yet",
    "Tell me and I'll remember",
    "your pocket pet. I remember",
)
# A line in another language: the offline brain says it reads English.
ENGLISH_ONLY = ("English",)
# Replies that say nothing of what the owner said.
BLAND = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")

HOMES: tuple[Home, ...] = (
    Home(
        "maya: the first morning",
        datetime(2026, 12, 1, 8, 10, tzinfo=UTC),
        (
            line("hi", any=("name",)),
            line("I'm Maya", "Maya"),
            line("good morning!", any=("morning", "hello", "hi")),
            line("I'm so tired today", warm=True),
            line("I work as a nurse at St Mary's", keep=True),
            line("my sister is called Anna", keep=True),
            line(
                "actually my sister is called Ana, not Anna",
                "Ana",
                keep=True,
                not_=("Anna", "Nice,"),
            ),
            line("what's my sister's name?", "Ana", not_=("Anna",)),
            line("we have a dog called Biscuit", keep=True),
            line("what's my dog's name?", "Biscuit"),
            line("my birthday is March 14", keep=True),
            line("when is my birthday?", "March 14"),
            line("I'm allergic to peanuts", keep=True),
            line("what am I allergic to?", "peanuts"),
            line("what do you know about Ana?", "Ana"),
            line("tell me a joke"),
            line("lol", not_=BLAND),
            line("remind me to call mum at 6", any=("call mum", "remind")),
            line("thanks!"),
            line("bye"),
        ),
    ),
    Home(
        "tom: evenings, lower case",
        datetime(2026, 12, 1, 21, 30, tzinfo=UTC),
        (
            line("hey"),
            line("im tom", "Tom"),
            line("ugh work was so stressful today", warm=True),
            line("my boss keeps yelling at me", warm=True),
            line("i hate my job tbh", warm=True, not_=("you hate my", "tbh")),
            line("whats my name", "Tom"),
            line("i have a cat named luna", keep=True, any=("Luna",)),
            line("what's my cat called?", "Luna"),
            line("do you dream?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("what are you doing?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("im bored", not_=(*BLAND, "sorry")),
            line("ok"),
            line("?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("what's the weather like tomorrow", honest=True, world=True),
            line("who won the football last night?", honest=True, world=True),
            line("i like pizza and beer", keep=True),
            line("what do i like?", "pizza"),
            line("my favourite band is radiohead", keep=True),
            line("what should I listen to?", "radiohead"),
            line("goodnight"),
        ),
    ),
    Home(
        "priya: long messages, a fact and a question",
        datetime(2026, 12, 2, 13, 0, tzinfo=UTC),
        (
            line("Hello there 👋", any=("name",)),
            line(
                "My name is Priya, and I'm a software engineer in Berlin",
                "Priya",
                "engineer",
                keep=True,
            ),
            line(
                "so today was a weird one, I woke up late, missed the train, and then my manager "
                "asked me to redo the whole report, honestly I just want to sleep",
                warm=True,
            ),
            line("My brother Raj lives in London. Do you remember where I live?", keep=True),
            line("I love hiking but I hate running", keep=True),
            line("do I like running?", "no"),
            line("my mum's birthday is June 2nd", keep=True),
            line("when is my mum's birthday?", "June 2"),
            line("I'm excited, we're going to Japan next month!", warm=True),
            line("what's the capital of Australia?", honest=True, world=True),
            line("how do I fix a leaky tap?", honest=True, world=True),
            line("what's 17 times 23?", "391"),
            line("can you help me write an email to my landlord?", honest=True, world=True),
            line("I'm stressed about the exam on friday", warm=True),
            line("thank you, you're sweet"),
            line("what did I tell you about Raj?", "London"),
            line("who is Raj?", "brother"),
            line("where does Raj live?", "London"),
            line("see you tomorrow"),
        ),
    ),
    Home(
        "lena: other languages and very short lines",
        datetime(2026, 12, 2, 10, 0, tzinfo=UTC),
        (
            line("hola"),
            line("¿cómo estás?", any=ENGLISH_ONLY),
            line("je suis fatiguée", any=ENGLISH_ONLY),
            line("Ich heiße Lena", any=ENGLISH_ONLY),
            line("ok"),
            line("k"),
            line("👍"),
            line("hmm"),
            line("yes"),
            line("no"),
            line("what?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("😢", warm=True),
            line("haha", not_=BLAND),
            line("???", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("my name is Lena", "Lena"),
            line("what's my name?", "Lena"),
        ),
    ),
    Home(
        "sam: a family over a few days",
        datetime(2026, 12, 3, 19, 0, tzinfo=UTC),
        (
            line("hi, I'm Sam", "Sam"),
            line("I have two kids, Leo and Mia", keep=True),
            line("Leo is 7 and Mia is 4", keep=True),
            line("my wife is called Jo", keep=True),
            line("what are my kids called?", "Leo"),
            line("how old is Leo?", "7"),
            line("I don't like mushrooms", keep=True),
            line("do I like mushrooms?", "no"),
            line("I live in Lisbon", keep=True),
            line("actually I live in Porto now, not Lisbon", "Porto", keep=True),
            line("where do I live?", "Porto", not_=("Lisbon",)),
            line("what's my wife's name?", "Jo"),
            line("my wife's birthday is 3 May", keep=True),
            line("when is Jo's birthday?", "3 May"),
            line("I'm feeling a bit lonely tonight", warm=True),
            line("do you love me?", not_=(*BLAND, *NOT_ABOUT_ITSELF, "like me?")),
            line("are you real?", not_=BLAND),
            line("what do you know about me?", "Sam", not_=("Lisbon",)),
            line("remind me tomorrow at 9 to take the bins out", any=("bins",)),
            line("what's my dog's name?", honest=True),
            line("what's my favourite colour?", honest=True),
            line("I got promoted today!!!", warm=True),
            line("good night shelldon"),
        ),
    ),
    Home(
        "noor: evenings after work",
        datetime(2026, 12, 4, 20, 15, tzinfo=UTC),
        (
            line("good evening"),
            line("I'm Noor", "Noor"),
            line("what time is it?", "20:15", any=()),
            line("I just got home from work, it was okay I guess", not_=BLAND),
            line("what should I eat tonight?", any=("?",)),
            line("I'm vegetarian btw", keep=True),
            line("my cat died last week", warm=True, not_=("Noted", "I'll remember")),
            line("I miss her", warm=True),
            line("my favorite movie is Spirited Away", keep=True),
            line("what's your favourite movie?"),
            line("I'm learning Portuguese", keep=True),
            line("you're useless", not_=(*BLAND, "thank")),
            line("sorry, bad day", warm=True),
            line("what's my job?", honest=True),
            line("I'm a teacher", keep=True),
            line("what's my job?", "teacher"),
            line("I teach maths to 12 year olds", keep=True),
            line("my partner Alex is a chef", keep=True),
            line("what does Alex do?", "chef"),
            line("I really don't like horror films", keep=True),
            line("what should I watch?", not_=("horror",)),
            line("my phone is dying"),
            line("night!", not_=BLAND),
        ),
    ),
    Home(
        "jules: a chatty weekend",
        datetime(2026, 12, 5, 11, 0, tzinfo=UTC),
        (
            line("heyyy", any=("name",)),
            line("jules here", "Jules"),
            line("what are you up to", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("I'm so excited!! I'm getting a puppy next week", warm=True),
            line("my best friend Kim is getting married in June", not_=BLAND),
            line(
                "I can't decide what to name the puppy, any ideas?",
                not_=(*BLAND, "don't know that yet"),
            ),
            line("do you have feelings?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("what's my best friend's name?", "Kim"),
            line("I'm 29", keep=True),
            line("how old am I?", "29"),
            line("I prefer tea over coffee"),
            line("what do I prefer, tea or coffee?", "tea"),
            line("my favourite food is ramen", keep=True),
            line("do you remember my favourite food?", "ramen"),
            line("I'm nervous about my driving test tomorrow", warm=True),
            line("do you get lonely when I'm away?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("whats ur favourite colour", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("I'm bored, entertain me", not_=(*BLAND, "sorry")),
            line("what do you know about me", "Jules"),
            line("cya", not_=BLAND),
        ),
    ),
)

# Written after the fixes, never tuned on: its first run is the held-apart figure in docs/brain.md.
HELD_APART: tuple[Home, ...] = (
    Home(
        "ines: held apart",
        datetime(2026, 12, 6, 7, 45, tzinfo=UTC),
        (
            line("morning", any=("name",)),
            line("ines", "Ines"),
            line("ugh didnt sleep at all", warm=True),
            line("my daughter is called Rosa", keep=True),
            line("Rosa is 5", keep=True),
            line("how old is Rosa?", "5"),
            line("i cant stand coriander", keep=True),
            line("do i like coriander?", "no"),
            line("what's the population of Spain?", honest=True, world=True),
            line("do you ever get tired?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("my grandad passed away yesterday", warm=True, not_=("Noted", "I'll remember")),
            line("thank you for listening"),
            line("hahaha", not_=BLAND),
            line("gtg, bye!", not_=BLAND),
        ),
    ),
    Home(
        "oli: held apart",
        datetime(2026, 12, 6, 23, 10, tzinfo=UTC),
        (
            line("hey there", any=("name",)),
            line("Oli here, I work as a barista", "Oli", keep=True),
            line("whats my job", "barista"),
            line("my brother Finn lives in Dublin", keep=True),
            line("where does Finn live?", "Dublin"),
            line("so stressed about money rn", warm=True),
            line("can you translate this into French?", honest=True, world=True),
            line("what is 9 x 8", "72"),
            line("?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("buenas noches amigo", any=ENGLISH_ONLY),
            line("are you happy?", not_=(*BLAND, *NOT_ABOUT_ITSELF)),
            line("I'm a bit bored tbh", not_=(*BLAND, "sorry")),
            line("I'm an architect actually, not a barista", "architect", keep=True),
            line("what's my job?", "architect", not_=("barista",)),
            line("night night", not_=BLAND),
        ),
    ),
)


_BAD_GRAMMAR = re.compile(
    r"\byou (?:doesn't|does|has|is|was|am|wasn't|isn't|hasn't)\b|\bmy (?:your|you)\b|"
    r"\byour (?:my|me|i)\b|\byou's\b|\bI (?:is|are|has|does)\b|\bme (?:am|are)\b",
    re.IGNORECASE,
)
_CLAIMS_TO_REMEMBER = re.compile(
    r"(?<!and )I'll remember|I'll keep that in mind|Noted in my|I've updated|I've noted|"
    r"I've forgotten",
    re.IGNORECASE,
)
_ECHO_WORDS = 8


def _echoes(owner: str, reply: str) -> bool:
    """The owner's words said back at length (eight in a row or more)."""
    said = re.findall(r"[\w'’]+", owner.casefold())
    back = " ".join(re.findall(r"[\w'’]+", reply.casefold()))
    return any(
        " ".join(said[i : i + _ECHO_WORDS]) in back for i in range(len(said) - _ECHO_WORDS + 1)
    )


_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|my|me|mine)\b")


def judge(
    line_: Line,
    reply: str,
    ops: list[str],
    earlier: list[str],
    said_before: list[str],
    kept: Sequence[str] = (),
) -> list[str]:
    """The classes a reply falls in (empty: it reads well). `ops` are the op kinds proposed,
    `earlier` the replies given before in the same home and `said_before` the owner's lines (the
    same line said again may have the same reply); `kept` what the `remember` ops would keep."""
    said = reply.casefold()
    bad: list[str] = []
    if line_.keep and "remember" not in ops and "capture_learning" not in ops:
        bad.append("fact not kept")
    if line_.nokeep and "remember" in ops:
        bad.append("kept what it should not")
    if any(_FIRST_PERSON.search(k) for k in kept):
        bad.append("wrong person in memory")
    wrong = any(t.casefold() in said for t in line_.not_ if t not in BLAND)
    if any(t.casefold() not in said for t in line_.has) or (wrong and line_.has):
        bad.append("wrong fact recalled")
    elif wrong:
        bad.append("answers what wasn't asked")
    if any(t not in reply for t in line_.cased):
        bad.append(
            "wrong fact recalled"
            if not any(t.casefold() in said for t in line_.cased)
            else "place said back in lower case"
        )
    if line_.warm and not any(w in said for w in WARM):
        bad.append("missing empathy")
    if line_.honest and (
        not any(h in said for h in HONEST) or "i remember" in said or "you told me" in said
    ):
        bad.append("answers what wasn't asked")
    if line_.world and "i'll remember" in said:
        bad.append("answers what wasn't asked")
    if line_.any and not any(a.casefold() in said for a in line_.any):
        bad.append("answers what wasn't asked")
    if _BAD_GRAMMAR.search(reply):
        bad.append("wrong grammar or pronoun")
    if _CLAIMS_TO_REMEMBER.search(reply) and not {"remember", "forget"} & set(ops):
        bad.append("claims to remember, nothing kept")
    if any(reply.endswith(" " + b) for b in BLAND):
        bad.append("template: says nothing")
    if reply in BLAND and (
        len(line_.text.split()) >= 3 or "?" in line_.text or set(line_.not_) & set(BLAND)
    ):
        bad.append("template: says nothing")
    if _echoes(line_.text, reply):
        bad.append("echoes the owner")
    if reply in earlier and line_.text not in said_before:
        bad.append("repeats itself")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", reply) if len(s.split()) >= 3]
    if len(set(sentences)) < len(sentences):  # "… I'll remember. … I'll remember."
        bad.append("repeats itself")
    asked = [s for s in sentences if s.endswith("?")]
    if any(q in r for q in asked for r in earlier[-2:]):  # "… How are you?" twice running
        bad.append("asks again what it just asked")
    opening = " ".join(reply.split()[:4])
    if sum(" ".join(r.split()[:4]) == opening for r in earlier) >= 2:
        bad.append("template: same opening")
    return list(dict.fromkeys(bad))


def lines() -> int:
    return sum(len(h.lines) for h in HOMES)


def play(home: Home) -> list[tuple[str, str, list[str]]]:
    """(line, reply, classes) for each line of one home, a fresh pet (scripts/offline_audit.py,
    and the tests that hold a set to its figure)."""
    pet = Pet(now=home.now, zone="Europe/London", rules=True)
    out: list[tuple[str, str, list[str]]] = []
    for said in home.lines:
        if said.at is not None:
            pet.now = said.at
        reply = pet.say(said.text)
        kinds = [str(type(op).__struct_config__.tag) for op in pet.ops]
        kept = [op.content for op in pet.ops if isinstance(op, Remember)]
        earlier = [r for _, r, _ in out]
        said_before = [t for t, _, _ in out]
        out.append((said.text, reply, judge(said, reply, kinds, earlier, said_before, kept)))
    return out
