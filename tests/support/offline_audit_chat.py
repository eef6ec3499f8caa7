"""The offline brain's audit, fourth pass (docs/brain.md, "The audit pass: chat as owners type
it"): lines written from the classes the earlier passes left, played like the first set
(tests/support/offline_audit.py, `judge`):

- introductions with a job, an age or a place ("I teach maths to 12 year olds", "Oli here, I
  work as a barista", "hi! I'm Dan, 34, from Leeds") and the question back ("what do I do for
  work?");
- moods and health in slang and typos ("ugh didnt sleep", "tired af", "my head is killing me");
- goodbyes and greetings in chat shorthand ("gtg, bye!", "brb", "nite", "mornin");
- plans with a day ("dentist thursday at 3");
- likes and dislikes with a negation, and one changed ("I don't really like jazz anymore");
- corrections without the comma ("I'm 35 not 34");
- other languages (the offline brain reads English and says so);
- secrets and how a thing is now ("my phone is dying"): never kept (`nokeep`).

`CHAT` was written before the fixes (the rules were then tuned on it); `CHAT_HELD_APART` after
them, run once for the figure in docs/brain.md.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, ENGLISH_ONLY, Home, line

# A goodbye is answered as one; a plan is wished well or offered a reminder.
GOODBYE = ("bye", "see you", "night", "later", "take care", "sleep")
PLAN = ("luck", "hope", "fun", "remind", "enjoy", "safe", "go well")
BACK = ("back", "here", "wait")

CHAT: tuple[Home, ...] = (
    Home(
        "dan: introductions",
        datetime(2026, 12, 7, 9, 0, tzinfo=UTC),
        (
            line("hi", any=("name",)),
            line("hi! I'm Dan, 34, from Leeds", "Dan", keep=True),
            line("I teach maths to 12 year olds", keep=True, not_=BLAND),
            line("what do I do for work?", "maths"),
            line("how old am I?", "34"),
            line("where am I from?", "Leeds"),
            line("my wife Sara is a nurse", keep=True),
            line("what does Sara do?", "nurse"),
            line("I run a little bakery in town", keep=True, not_=BLAND),
            line("what's my job?", "bakery"),
            line("im a student too, part time", keep=True),
            line("brb", any=BACK, not_=BLAND),
            line("back", not_=BLAND),
            line("gtg, bye!", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "ruth: a name and a life in one line",
        datetime(2026, 12, 7, 15, 0, tzinfo=UTC),
        (
            line("hello", any=("name",)),
            line("name's Ruth, I'm retired", "Ruth", keep=True),
            line("I'm 71 and I live in Bath", keep=True),
            line("I used to drive a bus for a living", keep=True, not_=BLAND),
            line("what's my name?", "Ruth"),
            line("where do I live?", "Bath"),
            line("my back hurts today", warm=True),
            line("feelin rough", warm=True),
            line("my phone is dying", not_=BLAND, nokeep=True),
            line("k bye", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "kai: moods in slang, late",
        datetime(2026, 12, 7, 23, 30, tzinfo=UTC),
        (
            line("yo", not_=BLAND),
            line("Kai here, I work as a chef", "Kai", keep=True),
            line("whats my job", "chef", not_=("Kai here",)),
            line("so tired rn", warm=True),
            line("ugh didnt sleep at all last night", warm=True),
            line("stressed af", warm=True),
            line("had the worst day", warm=True),
            line("not feeling great", warm=True),
            line("my head is killing me", warm=True),
            line("got a cold :(", warm=True, nokeep=True),
            line("meh", not_=BLAND),
            line("cant be bothered with anything today", warm=True),
            line("im soooo sleepy", warm=True),
            line("g'night", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "mo: plans, likes and corrections",
        datetime(2026, 12, 8, 12, 0, tzinfo=UTC),
        (
            line("hiii", not_=BLAND),
            line("I'm Mo", "Mo"),
            line("dentist thursday at 3", any=PLAN, not_=BLAND),
            line("flight to Rome on friday!", any=PLAN, not_=BLAND),
            line("exam next tuesday, wish me luck", any=("luck",), not_=BLAND),
            line("party at Jo's tonight", any=PLAN, not_=BLAND),
            line("I like jazz", keep=True),
            line("I don't really like jazz anymore", keep=True),
            line("do I like jazz?", "no"),
            line("not a fan of sushi", keep=True),
            line("do I like sushi?", "no"),
            line("I'm not into football", keep=True),
            line("do I like football?", "no"),
            line("I'm 34", keep=True),
            line("no wait, I'm 35 not 34", "35", keep=True),
            line("how old am I?", "35", not_=("34",)),
            line("my dog is called Rex", keep=True),
            line("sorry my dog is called Max not Rex", "Max", keep=True),
            line("what's my dog called?", "Max", not_=("Rex",)),
            line("my bank pin is 4821", nokeep=True),
            line("gotta run", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "lea: other languages, shorthand",
        datetime(2026, 12, 8, 7, 30, tzinfo=UTC),
        (
            line("mornin", not_=BLAND),
            line("merci beaucoup", any=ENGLISH_ONLY),
            line("hola, me llamo Carlos", any=ENGLISH_ONLY),
            line("je m'appelle Marie", any=ENGLISH_ONLY),
            line("qué tal?", any=ENGLISH_ONLY),
            line("wie geht es dir?", any=ENGLISH_ONLY),
            line("sup", not_=BLAND),
            line("im back", not_=BLAND),
            line("ok bye", any=GOODBYE, not_=BLAND),
            line("nite", any=GOODBYE, not_=BLAND),
        ),
    ),
)

# Written after the fixes, from the same classes in other words; run once, never tuned on.
CHAT_HELD_APART: tuple[Home, ...] = (
    Home(
        "bea: held apart",
        datetime(2026, 12, 9, 8, 20, tzinfo=UTC),
        (
            line("hey hey", any=("name",)),
            line("Bea here, 27, originally from Cork", "Bea", keep=True),
            line("I look after elderly people for a living", keep=True, not_=BLAND),
            line("what's my job?", "elderly"),
            line("where am I from?", "Cork"),
            line("urgh my throat is so sore", warm=True),
            line("barely slept tbh", warm=True),
            line("feelin kinda low today", warm=True),
            line("my laptop keeps crashing", not_=BLAND, nokeep=True),
            line("vet appointment for the cat tomorrow at 10", any=PLAN, not_=BLAND),
            line("I used to love running but not anymore", keep=True),
            line("do I like running?", "no"),
            line("bbl", any=GOODBYE, not_=BLAND),
            line("wb me", not_=BLAND),
            line("alright, gtg", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "tariq: held apart",
        datetime(2026, 12, 9, 22, 40, tzinfo=UTC),
        (
            line("evening", not_=BLAND),
            line("it's Tariq, I'm a plumber in Leeds", "Tariq", keep=True),
            line("what do I do?", "plumber"),
            line("knackered af", warm=True),
            line("worst week ever honestly", warm=True),
            line("my stomach hurts", warm=True),
            line("not feeling myself lately", warm=True),
            line("interview at google on wednesday!!", any=PLAN, not_=BLAND),
            line("I'm not a big fan of cats", keep=True),
            line("do I like cats?", "no"),
            line("my brother is called Sami", keep=True),
            line("sorry my brother is called Samir not Sami", "Samir", keep=True),
            line("what's my brother called?", "Samir", not_=("Sami.",)),
            line("ich bin sehr müde heute", any=ENGLISH_ONLY),
            line("my card number is 4111 1111 1111 1111", nokeep=True),
            line("nighty night", any=GOODBYE, not_=BLAND),
        ),
    ),
)
