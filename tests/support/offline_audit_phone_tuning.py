"""The offline brain's audit, sixth pass (docs/brain.md, "The audit pass: typed on a phone"): the
tuning set, written from the classes the fifth pass's held-apart set still failed and the brief
named, never from the sixth pass's own held-apart lines (tests/support/offline_audit_phone.py):

- a fact about someone just mentioned, said with a pronoun ("his name is Theo", "she's a
  doctor", "he's my cousin");
- an introduction in lower case with a job or a place ("im leo, i work at a hospital", "una
  here, i'm a vet in york", two sentences: "im max. i live in cardiff");
- a greeting or a goodbye with an emoji or the time of day ("good evening 🌙", "afternoon 👋",
  "gn 😴"), and a greeting in another language ("hola 👋");
- an open request ("tell me something cool", "entertain me pls", "talk to me"): a small real
  answer, never "I don't know";
- a plan said in full, by what the owner is doing and when ("we're going camping this weekend",
  "off to the gym later"; the fifth pass left "I'm going hiking with my dad later").
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line
from support.offline_audit_chat import GOODBYE, PLAN

POINT = (*BLAND, *NOT_ABOUT_ITSELF, "I don't know")

PHONE_TUNING: tuple[Home, ...] = (
    Home(
        "rae: someone just mentioned",
        datetime(2026, 12, 20, 18, 0, tzinfo=UTC),
        (
            line("hi", any=("name",)),
            line("I'm Rae", "Rae"),
            line("my sister just had a baby boy!", warm=True),
            line("his name is Theo", "Theo", not_=BLAND),
            line("my dad retired last week", warm=True),
            line("he was a postman for 40 years", not_=BLAND),
            line("my best friend is called Priya", keep=True),
            line("she's a doctor", keep=True, not_=BLAND),
            line("what does Priya do?", "doctor"),
            line("I had lunch with Sam today", not_=BLAND),
            line("he's my cousin", keep=True, not_=BLAND),
            line("who is Sam?", "cousin"),
            line("my boyfriend lives in Paris", keep=True),
            line("he's 31", keep=True, not_=BLAND),
            line("how old is my boyfriend?", "31"),
            line("my neighbour got a puppy", not_=BLAND),
            line("its name is Pickle", "Pickle", not_=BLAND),
        ),
    ),
    Home(
        "leo: introductions in lower case",
        datetime(2026, 12, 21, 9, 0, tzinfo=UTC),
        (
            line("hey", any=("name",)),
            line("im leo, i work at a hospital", "Leo", keep=True),
            line("whats my job", "hospital"),
            line("whats my name", "Leo"),
        ),
    ),
    Home(
        "una: a name, a job and a town",
        datetime(2026, 12, 21, 14, 0, tzinfo=UTC),
        (
            line("hello", any=("name",)),
            line("una here, i'm a vet in york", "Una", keep=True),
            line("what do i do for work", "vet"),
            line("what's my name", "Una"),
        ),
    ),
    Home(
        "max: two sentences",
        datetime(2026, 12, 22, 19, 0, tzinfo=UTC),
        (
            line("hiya", any=("name",)),
            line("im max. i live in cardiff and i work as a chef", "Max", keep=True),
            line("where do i live", "cardiff"),
            line("whats my job", "chef"),
            line("dev here, a student", "Dev", keep=True),
            line("what's my name?", "Dev"),
        ),
    ),
    Home(
        "nina: greetings by the clock",
        datetime(2026, 12, 23, 20, 0, tzinfo=UTC),
        (
            line("good evening 🌙", any=("evening",)),
            line("nina", "Nina"),
            line("good morning!! ☕", any=("morning",)),
            line("afternoon 👋", any=("afternoon",)),
            line("evening all", any=("evening",)),
            line("hola 👋", not_=BLAND),
            line("bonjour", not_=BLAND),
            line("morning sunshine", any=("morning",)),
            line("gn 😴", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "ivy: open requests",
        datetime(2026, 12, 24, 16, 0, tzinfo=UTC),
        (
            line("hey", any=("name",)),
            line("I'm Ivy", "Ivy"),
            line("I love baking and my cat is called Mochi", keep=True),
            line("tell me something cool", not_=POINT),
            line("entertain me pls", not_=POINT),
            line("say something", not_=POINT),
            line("tell me a story", not_=POINT),
            line("talk to me", not_=POINT),
            line("tell me a fact", not_=POINT),
            line("make me smile", not_=POINT),
            line("i need a laugh", not_=POINT),
            line("surprise me!", not_=POINT),
            line("bye 👋", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "pia: plans said in full",
        datetime(2026, 12, 25, 11, 0, tzinfo=UTC),
        (
            line("hello", any=("name",)),
            line("I'm Pia", "Pia"),
            line("we're going camping this weekend", any=PLAN, not_=BLAND),
            line("im seeing my mum tomorrow", any=PLAN, not_=BLAND),
            line("going for a run later", any=PLAN, not_=BLAND),
            line("I'm meeting Sara for coffee later", any=PLAN, not_=BLAND),
            line("off to the gym later", any=PLAN, not_=BLAND),
            line("we are having a bbq on saturday", any=PLAN, not_=BLAND),
            line("I'm having a bad day today", warm=True),
        ),
    ),
)
