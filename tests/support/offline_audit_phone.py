"""The offline brain's audit, sixth pass (docs/brain.md, "The audit pass: typed on a phone"): a
second held-apart set, written before this pass changed any code, of what owners type to a
pocket pet on a phone, played like the first set (tests/support/offline_audit.py, `judge`):

- lower case, typos, no punctuation, emoji, short fragments ("kai", "cant sleep", "gm 🌞");
- several facts in one line ("its jo. im a teacher, 41, got two dogs") and a fact about someone
  just mentioned, said with a pronoun ("my gf is called mia", then "shes a vet");
- questions about what was told, corrections ("actually im 42 not 41");
- small talk to the pet and open requests ("tell me something", "surprise me", "say something
  funny"), which deserve a small real answer, never "I don't know";
- feelings, plans, greetings by the time of day, other languages' greetings ("salut!",
  "buenos días ☀️").

`PHONE_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on (the classes are fixed from the earlier sets).
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line
from support.offline_audit_chat import GOODBYE, PLAN

# A line with a point of its own: neither a bland acknowledgement nor a gap in memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF, "I don't know")

PHONE_HELD_APART: tuple[Home, ...] = (
    Home(
        "kai: held apart 2, a commute",
        datetime(2026, 12, 14, 8, 20, tzinfo=UTC),
        (
            line("gm 🌞", any=("morning",)),
            line("kai", "Kai"),
            line("im 27 and i live in glasgow", keep=True),
            line("train is late again 🙄", not_=BLAND, nokeep=True),
            line("where do i live", "Glasgow"),
            line("my gf is called mia", keep=True),
            line("shes a vet", keep=True, not_=BLAND),
            line("what does mia do", "vet"),
            line("tell me a fun fact", not_=POINT),
            line("lol", not_=BLAND),
            line("got a job interview on friday 😬", any=PLAN, not_=BLAND),
            line("kinda nervous tbh", warm=True),
            line("i dont like mornings", keep=True),
            line("whats my girlfriends name", "Mia"),
            line("ok gotta go, bye", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "nadia: held apart 2, lunch in a hurry",
        datetime(2026, 12, 15, 13, 5, tzinfo=UTC),
        (
            line("salut!", not_=BLAND),
            line("i'm nadia, nurse at the childrens hospital", "Nadia", keep=True),
            line("whats my job", "nurse"),
            line("my son omar turns 6 tomorrow!!", keep=True, not_=BLAND),
            line("who is omar", "son"),
            line("say something funny", not_=POINT),
            line("haha good one", not_=BLAND),
            line("so tired today, double shift", warm=True),
            line("do you remember my name?", "Nadia"),
            line("my husband is karim", keep=True),
            line("he works from home", keep=True, not_=BLAND),
            line("what does karim do", "home"),
            line("thx shelldon ❤️", not_=BLAND),
            line("good afternoon", any=("afternoon",)),
            line("surprise me", not_=POINT),
            line("back to work now, ttyl", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "jo: held apart 2, a sunday evening",
        datetime(2026, 12, 13, 19, 40, tzinfo=UTC),
        (
            line("hey buddy", any=("name",)),
            line("its jo. im a teacher, 41, got two dogs", "Jo", keep=True),
            line("how old am i", "41"),
            line("what do i do", "teacher"),
            line("the dogs are called pepper and salt", keep=True),
            line("whats my dogs names", "Pepper"),
            line("went for a long walk w them today, so nice", not_=BLAND),
            line("i think im getting a cold 🤧", warm=True),
            line("buonasera", not_=BLAND),
            line("how are you", not_=POINT),
            line("actually im 42 not 41", "42", keep=True),
            line("how old am i?", "42", not_=("41",)),
            line("tell me something", not_=POINT),
            line("what do you know about me", "Jo"),
            line("any plans for tonight?", not_=POINT),
            line("night 🌙", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "sven: held apart 2, late and rambling",
        datetime(2026, 12, 16, 23, 30, tzinfo=UTC),
        (
            line("hallo", not_=BLAND),
            line("sven here, from oslo originally but i live in london now", "Sven", keep=True),
            line("where am i from", "Oslo"),
            line("where do i live", "London"),
            line("my brother lars lives in bergen", keep=True),
            line("hes a fisherman", keep=True, not_=BLAND),
            line("what does lars do", "fisherman"),
            line("cant sleep", warm=True),
            line("work tomorrow at 7 ugh", not_=BLAND),
            line("do you ever sleep?", not_=POINT),
            line("tell me a joke", not_=POINT),
            line("🤣🤣", not_=BLAND),
            line("i love pizza and sushi", keep=True),
            line("what food do i like", "pizza"),
            line("im vegan now btw", keep=True),
            line("ok really going to bed now", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "lucia: held apart 2, a morning off",
        datetime(2026, 12, 17, 10, 30, tzinfo=UTC),
        (
            line("buenos días ☀️", not_=POINT),
            line("im lucia :)", "Lucia"),
            line("my mum has been in hospital all week", warm=True),
            line("shes a bit better today", not_=BLAND),
            line("whats my name again", "Lucia"),
            line("off to see her later", any=PLAN, not_=BLAND),
            line("my favourite flower is tulips, shes got a garden full of them", keep=True),
            line("what's my fav flower", "tulip"),
            line("say something nice", not_=POINT),
            line("aw ty", not_=BLAND),
            line("what are you up to today", not_=POINT),
            line("bye for now 👋", any=GOODBYE, not_=BLAND),
        ),
    ),
)
