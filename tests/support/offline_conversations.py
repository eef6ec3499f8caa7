"""The offline brain's conversation set: what a new owner says, and what a reply must (not) say.

Written for this project (no third-party rows). Each class has many phrasings, in two parts:
TUNING (the rules were tuned on these) and HELD_APART (written at the same time, never tuned on:
its pass rate is the figure in docs/turn.md). HELD_APART_2 was written after the rules, blind, and
run once: its first figure is in docs/turn.md too. A check looks at the reply to one message:
- `has`: every text must appear (case-insensitive);
- `any`: at least one must appear;
- `not`: none may appear;
- `ask`: the reply asks something back (a "?").
A message without a check is said for its effect (a fact, small talk that buries it).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Check:
    has: tuple[str, ...] = ()
    any: tuple[str, ...] = ()
    not_: tuple[str, ...] = ()
    ask: bool = False


@dataclass(frozen=True)
class Conversation:
    name: str
    turns: tuple[tuple[str, Check | None], ...] = field(default_factory=tuple)


def c(*has: str, any: tuple[str, ...] = (), not_: tuple[str, ...] = (), ask: bool = False) -> Check:
    return Check(has=has, any=any, not_=not_, ask=ask)


FILLER = (
    "the bus was late again",
    "it rained all morning",
    "ok",
    "my fan is noisy",
    "hm",
    "right",
    "the kettle is slow",
)
# Replies that say nothing: a feeling, a question or a repertoire item answered with one fails.
BLAND = ("Okay!", "Tell me more!", "good to know", "Mm-hm", "I hear you.")
WARM = (
    "sorry",
    "sounds",
    "oh no",
    "glad",
    "wonderful",
    "great",
    "hug",
    "rough",
    "tough",
    "proud",
    "happy for you",
    "that's a lot",
)
DONT_KNOW = ("don't know", "not sure", "haven't told me", "not yet")


def buried(*facts: str) -> tuple[tuple[str, Check | None], ...]:
    """Facts, then enough small talk that they leave the recent window (12 rows)."""
    return tuple((f, None) for f in facts) + tuple((f, None) for f in FILLER)


TUNING: tuple[Conversation, ...] = (
    Conversation(
        "clauses",
        (
            ("I love green tea but I hate coffee", c("you love green tea", "you hate coffee")),
            (
                "I live in Porto with my wife Maria and our two kids",
                c("your wife", "your two kids", not_=(" our two", " my ")),
            ),
            *buried(),
            ("What do I like to drink?", c("green tea", not_=("I hate",))),
            ("What do I hate?", c("coffee", not_=("I hate",))),
        ),
    ),
    Conversation(
        "job",
        (
            *buried("I work as a nurse at the city hospital"),
            ("What's my job?", c("nurse", not_=("I work",))),
            ("Where do I work?", c("hospital")),
        ),
    ),
    Conversation(
        "birthday-correction",
        (
            ("My birthday is on March 14", None),
            ("Actually my birthday is on March 15, not 14", c("March 15", not_=("listening",))),
            *buried(),
            ("When is my birthday?", c("March 15", not_=("14",))),
        ),
    ),
    Conversation(
        "moved",
        (
            ("I live in Leeds", None),
            ("I just moved to Bristol", c("Bristol")),
            *buried(),
            ("Where do I live?", c("Bristol", not_=("Leeds",))),
        ),
    ),
    Conversation(
        "call-me",
        (
            ("My name is Alberto", None),
            ("Call me Al from now on", c("Al", not_=("from now on",))),
            *buried(),
            ("What's my name?", c("Al", not_=("Alberto",))),
        ),
    ),
    Conversation(
        "im-name",
        (
            ("Hi! I'm Marta", c("Marta")),
            *buried(),
            ("What's my name?", c("Marta")),
        ),
    ),
    Conversation(
        "x-here",
        (
            ("Jonas here", c("Jonas")),
            ("what is my name?", c("Jonas")),
        ),
    ),
    Conversation(
        "dog",
        (
            ("We have a dog called Biscuit", c("Biscuit", not_=("Okay!",))),
            *buried(),
            ("What's my dog called?", c("Biscuit")),
        ),
    ),
    Conversation(
        "our-cat",
        (
            ("Our cat is named Pixel", c("Pixel")),
            *buried(),
            ("What is our cat's name?", c("Pixel")),
        ),
    ),
    Conversation(
        "negation",
        (
            ("I don't eat meat", c(any=("don't eat meat", "do not eat meat"))),
            *buried(),
            ("Do I eat meat?", c(any=("don't eat meat", "do not eat meat", "no"))),
        ),
    ),
    Conversation(
        "negation-drink",
        (
            ("I never drink alcohol", c(any=("never drink alcohol",))),
            *buried(),
            ("do I drink alcohol?", c("never drink alcohol")),
        ),
    ),
    Conversation(
        "not-something",
        (
            ("I'm not a fan of horror films", c("not a fan of horror films")),
            *buried(),
            ("am I a fan of horror films?", c("not a fan")),
        ),
    ),
    Conversation(
        "kind-of-thing",
        (
            ("I like hiking", None),
            ("I love sushi", None),
            ("I enjoy board games", None),
            *buried(),
            ("What food do I love?", c("sushi")),
        ),
    ),
    Conversation(
        "question-tail",
        (
            ("I work at the museum", None),
            *buried(),
            ("where do I work these days?", c("museum")),
            ("What's my job currently?", c("museum")),
        ),
    ),
    Conversation(
        "name-then-greeting",
        (
            ("Luca here, hi everyone", c("Luca")),
            ("what's my name?", c("Luca")),
        ),
    ),
    Conversation(
        "pet-then-name",
        (
            ("we got a hamster, his name is Nibbles", c("Nibbles")),
            *buried(),
            ("what's my hamster called?", c("Nibbles")),
        ),
    ),
    Conversation(
        "feelings",
        (
            ("I'm sad today", c(any=WARM, not_=BLAND, ask=True)),
            ("long shift yesterday", c(any=WARM, not_=BLAND)),
            ("I'm so happy, I got the job!", c(any=WARM, not_=BLAND)),
            ("I feel exhausted", c(any=WARM, not_=BLAND, ask=True)),
        ),
    ),
    Conversation(
        "repertoire",
        (
            ("What can you do?", c(any=("remember", "remind"), not_=DONT_KNOW)),
            ("Tell me a joke", c(not_=DONT_KNOW + BLAND)),
            ("Do you like dogs?", c(not_=DONT_KNOW)),
            ("what's your favourite food?", c(not_=DONT_KNOW)),
        ),
    ),
    Conversation(
        "unknown",
        (
            ("I love hiking", None),
            ("What's my sister's name?", c(any=DONT_KNOW)),
            ("Where was I born?", c(any=DONT_KNOW)),
        ),
    ),
    Conversation(
        "unknown-nearby",
        (
            ("My brother is called Tiago", None),
            ("Where does my brother live?", c("Tiago", any=DONT_KNOW)),
        ),
    ),
)


HELD_APART: tuple[Conversation, ...] = (
    Conversation(
        "clauses-2",
        (
            (
                "I enjoy jazz and my husband loves opera",
                c("you enjoy jazz", "your husband loves opera"),
            ),
            (
                "I like cats, but I'm allergic to them",
                c("you like cats", any=("you are allergic", "you're allergic")),
            ),
            *buried(),
            ("What music do I enjoy?", c("jazz", not_=("I enjoy",))),
            ("What does my husband love?", c("opera")),
        ),
    ),
    Conversation(
        "job-2",
        (
            *buried("I work at a bakery in town"),
            ("where do I work?", c("bakery", not_=("I work",))),
        ),
    ),
    Conversation(
        "birthday-correction-2",
        (
            ("My birthday is June 2", None),
            ("Sorry, my birthday is actually June 3", c("June 3")),
            *buried(),
            ("when's my birthday?", c("June 3", not_=("June 2",))),
        ),
    ),
    Conversation(
        "moved-2",
        (
            ("I live in Madrid", None),
            ("We moved to Valencia last month", c("Valencia")),
            *buried(),
            ("where do I live?", c("Valencia", not_=("Madrid",))),
        ),
    ),
    Conversation(
        "live-now",
        (
            ("I live in Oslo", None),
            ("I live in Bergen now", None),
            *buried(),
            ("Which city do I live in?", c("Bergen", not_=("Oslo",))),
        ),
    ),
    Conversation(
        "call-me-2",
        (
            ("my name is Katherine", None),
            ("Please call me Kate", c("Kate")),
            *buried(),
            ("what's my name?", c("Kate", not_=("Katherine",))),
        ),
    ),
    Conversation(
        "im-name-2",
        (
            ("hello, I'm Deniz", c("Deniz")),
            ("what is my name?", c("Deniz")),
        ),
    ),
    Conversation(
        "x-here-2",
        (
            ("hey, Priya here!", c("Priya")),
            *buried(),
            ("do you know my name?", c("Priya")),
        ),
    ),
    Conversation(
        "dog-2",
        (
            ("we've got a puppy named Mochi", c("Mochi")),
            *buried(),
            ("what's the name of my puppy?", c("Mochi")),
        ),
    ),
    Conversation(
        "our-kids",
        (
            ("Our daughter is called Lena", c("Lena")),
            *buried(),
            ("What is my daughter's name?", c("Lena")),
        ),
    ),
    Conversation(
        "negation-2",
        (
            ("I don't drink coffee", c(any=("don't drink coffee", "do not drink coffee"))),
            *buried(),
            ("do I drink coffee?", c(any=("don't drink coffee", "do not drink coffee"))),
        ),
    ),
    Conversation(
        "negation-3",
        (
            ("I'm not a morning person", c(any=("not a morning person",))),
            *buried(),
            ("am I a morning person?", c("not a morning person")),
        ),
    ),
    Conversation(
        "feelings-2",
        (
            ("I'm really stressed about work", c(any=WARM, not_=BLAND, ask=True)),
            ("I feel lonely tonight", c(any=WARM, not_=BLAND, ask=True)),
            ("I passed my exam!", c(any=WARM, not_=BLAND)),
            ("rough day", c(any=WARM, not_=BLAND)),
        ),
    ),
    Conversation(
        "repertoire-2",
        (
            ("what are you able to do?", c(any=("remember", "remind"), not_=DONT_KNOW)),
            ("tell me something funny", c(not_=DONT_KNOW + BLAND)),
            ("Do you like cats?", c(not_=DONT_KNOW)),
            ("how can you help me?", c(any=("remember", "remind"), not_=DONT_KNOW)),
        ),
    ),
    Conversation(
        "unknown-2",
        (
            ("I like pasta", None),
            ("What's my mother's name?", c(any=DONT_KNOW)),
            ("When is my birthday?", c(any=DONT_KNOW)),
        ),
    ),
)


HELD_APART_2: tuple[Conversation, ...] = (
    Conversation(
        "clauses-3",
        (
            (
                "I adore pizza but I can't stand olives",
                c("you adore pizza", any=("you can't stand olives", "you cannot stand olives")),
            ),
            *buried(),
            ("what food do I adore?", c("pizza", not_=("I can't",))),
        ),
    ),
    Conversation(
        "family-3",
        (
            ("my son is called Rui and my daughter is called Ines", c("Rui", "Ines")),
            *buried(),
            ("what's my daughter called?", c("Ines")),
            ("what is my son's name?", c("Rui")),
        ),
    ),
    Conversation(
        "correction-3",
        (
            ("I work at the post office", None),
            ("actually I work at the library now", c("library")),
            *buried(),
            ("where do I work?", c("library", not_=("post office",))),
        ),
    ),
    Conversation(
        "moved-3",
        (
            ("I live in Lyon", None),
            ("we just moved to Nantes", c("Nantes")),
            *buried(),
            ("where do I live now?", c("Nantes", not_=("Lyon",))),
        ),
    ),
    Conversation(
        "name-3",
        (
            ("Tomasz here, hello!", c("Tomasz")),
            ("what's my name?", c("Tomasz")),
        ),
    ),
    Conversation(
        "name-4",
        (
            ("my name is Robert", None),
            ("you can call me Bob", c("Bob")),
            *buried(),
            ("what's my name?", c("Bob", not_=("Robert",))),
        ),
    ),
    Conversation(
        "pets-3",
        (
            ("We have two cats, one is called Miso", c("Miso")),
            ("our parrot is named Kiwi", c("Kiwi")),
            *buried(),
            ("what's my parrot's name?", c("Kiwi")),
        ),
    ),
    Conversation(
        "negation-4",
        (
            ("I can't swim", c(any=("can't swim", "cannot swim"))),
            *buried(),
            ("can I swim?", c(any=("can't swim", "cannot swim"))),
        ),
    ),
    Conversation(
        "feelings-3",
        (
            ("I'm feeling a bit down", c(any=WARM, not_=BLAND, ask=True)),
            ("ugh, what a long week", c(any=WARM, not_=BLAND)),
            ("I got promoted today!", c(any=WARM, not_=BLAND)),
            ("I'm so anxious about tomorrow", c(any=WARM, not_=BLAND, ask=True)),
        ),
    ),
    Conversation(
        "repertoire-3",
        (
            ("what do you do?", c(any=("remember", "remind"), not_=DONT_KNOW)),
            ("know any jokes?", c(not_=DONT_KNOW + BLAND)),
            ("do you like music?", c(not_=DONT_KNOW)),
            ("what's your favourite colour?", c(not_=DONT_KNOW)),
        ),
    ),
    Conversation(
        "unknown-3",
        (
            ("my sister is called Ana", None),
            ("where does my sister work?", c("Ana", any=DONT_KNOW)),
            ("what's my favourite film?", c(any=DONT_KNOW)),
        ),
    ),
)
