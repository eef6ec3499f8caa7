"""The offline brain's audit, fourteenth pass (docs/brain.md, "Fourteenth pass: three owners
talking to the real pet"): a tenth held-apart set (`PET_14_HELD_APART`), written before this pass
changed any code, across the classes met talking to the running pet as three owners (a retired
welder, a barista at evening classes, a software tester who runs), in other owners' words:

- a greeting and a name in one line ("evening, I'm Oskar", "Good afternoon! Kwame here");
- a former job ("retired welder", "I used to be a teacher") kept as what the owner did, and
  asked back ("what did I used to do?");
- "next friday" of a plan or a visit read as the Friday of next week, and said as its date;
- a good thing said with "not" ("the tomatoes didn't do well") heard as the let-down it is;
- a correction by "not X, it's Y" / "correction: …" that revises what was kept;
- an ache or a pain in the body ("my knee is playing up") met as one;
- day words typed short ("tmrw", "tmr", "2moro") in a reminder;
- a laugh at the pet's joke, and a joke the owner tells;
- a complaint about the pet ("you never remember anything") owned up to, not pitied;
- a question about what it keeps typed as a text ("wat do u know abt me").

`PET_14_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on. `PET_14_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

WEDNESDAY = datetime(2027, 3, 3, 18, 40, tzinfo=UTC)  # Wednesday 3 March 2027, evening
MONDAY = datetime(2027, 3, 8, 9, 15, tzinfo=UTC)  # Monday 8 March 2027, morning
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)
GLAD = ("lovely", "so glad", "yay", "congrat", "proud", "best bit", "amazing")
PITY = ("small hug", "sounds rough", "sending you")
SORRY = ("sorry", "my bad", "fair", "you're right", "try", "small brain", "offline")
LAUGH = ("haha", "hehe", "glad", "laugh", "giggle", "groan", "ha!", "funny")

PET_14_HELD_APART: tuple[Home, ...] = (
    Home(
        "brenda: a retired bus driver, a greeting with her name",
        WEDNESDAY,
        (
            line("good evening, I'm Brenda", "Brenda", not_=("What's your name",)),
            line("retired bus driver, did 30 years on the number 12", keep=True, not_=GLAD),
            line("what did I used to do for work?", "bus driver", not_=POINT),
            line("my sister Gwen is visiting next friday", keep=True, not_=BLAND),
            line("when is Gwen coming?", any=("12 March", "March 12", "12th"), not_=POINT),
            line("the roses didn't come up well this year", not_=(*GLAD, *BLAND)),
            line("my hip is giving me grief today", warm=True, not_=BLAND),
            line("you're a good listener, better than my brother", not_=POINT),
            line("my grandson Tyler is into skateboarding", keep=True),
            line("what's Tyler into?", "skateboard"),
        ),
    ),
    Home(
        "zoe: a student who texts short",
        WEDNESDAY,
        (
            line("hiya im zoe", "Zoe", not_=("What's your name",)),
            line("i work at a pizza place and study nursing", keep=True),
            line("wat do u know abt me", any=("pizza", "nursing"), not_=POINT),
            line(
                "remind me to call the bank tmrw at 11",
                any=("tomorrow", "Thursday"),
                not_=("tmrw", "today"),
            ),
            line(
                "can u remind me 2moro at 9 to buy milk",
                any=("tomorrow", "Thursday"),
                not_=("2moro", "today"),
            ),
            line("tell me a joke"),
            line("hahaha thats so bad", any=LAUGH, not_=BLAND),
            line("u never remember anything lol", any=SORRY, not_=(*PITY, *BLAND)),
            line("whats my job again", "pizza", not_=POINT),
            line("thx ur the best", any=("welcome", "thank", "aw")),
        ),
    ),
    Home(
        "idris: a joiner who corrects the pet",
        WEDNESDAY,
        (
            line("Morning! Idris here", "Idris", not_=("What's your name",)),
            line("I'm a joiner, mostly kitchens", keep=True),
            line("my daughter Seren lives in Swansea", keep=True),
            line("no, not Swansea, it's Newport. my mistake", "Newport", keep=True, not_=BLAND),
            line("where does Seren live?", "Newport", not_=("Swansea",)),
            line("correction: I do bathrooms too, not only kitchens", keep=True, not_=BLAND),
            line("my back is killing me after today's job", warm=True, not_=BLAND),
            line("what do you call a fish with no eyes? a fsh", any=LAUGH, not_=POINT),
            line("you got my daughter's town wrong earlier", any=SORRY, not_=(*PITY, *BLAND)),
            line("I used to be in the army before all this", keep=True),
            line("what did I do before?", "army", not_=POINT),
        ),
    ),
    Home(
        "nadia: a week of plans",
        MONDAY,
        (
            line("afternoon, it's Nadia", "Nadia", not_=("What's your name",)),
            line("ex-teacher, now I run a little bakery", keep=True),
            line("what was I before the bakery?", "teacher", not_=POINT),
            line("seeing my friend Lou next friday for her 40th", keep=True, not_=BLAND),
            line("when am I seeing Lou?", any=("19 March", "March 19", "19th"), not_=POINT),
            line("the sourdough didn't rise at all today", not_=(*GLAD, *BLAND)),
            line(
                "remind me tmr at 6am to feed the starter",
                any=("tomorrow", "Tuesday"),
                not_=("tmr ", "today"),
            ),
            line("my wrists ache from kneading", warm=True, not_=BLAND),
            line("lol ok that one was good", not_=BLAND),
        ),
    ),
)

TUESDAY = datetime(2027, 4, 6, 19, 5, tzinfo=UTC)  # Tuesday 6 April 2027, evening

# Written after the fixes, in other owners' words, and run once: a retired firefighter and a
# plasterer who texts short.
PET_14_AFTER: tuple[Home, ...] = (
    Home(
        "wyn: a retired firefighter",
        TUESDAY,
        (
            line("evening all, Wyn here", "Wyn", not_=("What's your name",)),
            line("ex-firefighter, 25 years at Splott station", keep=True, not_=GLAD),
            line("what did I do before I retired?", "firefighter", not_=POINT),
            line("my son Rhodri is coming up next friday", keep=True, not_=BLAND),
            line("what day is Rhodri coming?", any=("16 April", "April 16", "16th"), not_=POINT),
            line("the leeks didn't take this spring", not_=(*GLAD, *BLAND)),
            line("my ankles are swollen again", warm=True, not_=BLAND),
            line("you muddled my son's name last week", any=SORRY, not_=(*PITY, *BLAND)),
        ),
    ),
    Home(
        "kez: a plasterer who texts short",
        TUESDAY,
        (
            line("yo im kez", "Kez", not_=("What's your name",)),
            line("i plaster walls for a building firm", keep=True),
            line(
                "remind me 2moro at 7 to ring the skip company",
                any=("tomorrow", "Wednesday"),
                not_=("2moro", "today"),
            ),
            line("tell me a joke"),
            line("omg thats awful 😂", any=LAUGH, not_=BLAND),
            line(
                "why did the scarecrow win an award? he was outstanding in his field",
                any=LAUGH,
                not_=POINT,
            ),
            line("u forgot what i do for work", any=SORRY, not_=(*PITY, *BLAND)),
        ),
    ),
)
