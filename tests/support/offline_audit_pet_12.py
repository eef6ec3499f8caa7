"""The offline brain's audit, twelfth pass (docs/brain.md, "Twelfth pass: conversations it has
never seen"): an eighth held-apart set (`PET_12_HELD_APART`), written before this pass changed any
code, from owners no earlier set sounds like, in four fresh homes:

- a night-shift nurse, writing at three in the morning on a break;
- a student cramming for exams, late on a Sunday;
- someone grieving a dog and a grandmother (the pet is gentle, never cheerful);
- someone planning a trip: dates, places, a packing list.

The mix: several facts in one message, questions about what it knows asked indirectly ("do you
know where I work?", "remind me what my sister is called"), plans and reminders with times ("after
lunch", "in 20 min", "tonight", "at 3"), feelings, corrections, questions about the pet itself,
what it cannot know offline (it says so), thanks and goodbyes. `PET_12_HELD_APART` is run as it
was written: its first run is this pass's honest held-apart figure, and its lines are never tuned
on. `PET_12_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

NIGHT = datetime(2027, 1, 13, 3, 40, tzinfo=UTC)  # a Wednesday, before dawn
LATE = datetime(2027, 1, 17, 23, 5, tzinfo=UTC)  # a Sunday, late
SATURDAY = datetime(2027, 1, 16, 10, 15, tzinfo=UTC)
EVENING = datetime(2027, 1, 19, 19, 0, tzinfo=UTC)  # a Tuesday evening
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)
# A loss is met gently: never a cheer, never good luck.
CHEERFUL = ("yay", "congrat", "exciting", "awesome", "great news", "glad", "goes well", "have fun")

PET_12_HELD_APART: tuple[Home, ...] = (
    Home(
        "priya: a night-shift nurse, on a break at 3am",
        NIGHT,
        (
            line("hey, on my break. 3am and wide awake lol", not_=BLAND),
            line("im priya, i'm a nurse on the night shift at st thomas'", "Priya", keep=True),
            line("my sister is called Devi and she lives in Leeds", keep=True),
            line("do you know where I work?", "thomas"),
            line("remind me what my sister is called", "Devi"),
            line("remind me to take my meds after lunch", any=("meds",)),
            line("so exhausted, 4 more hours to go", warm=True, nokeep=True),
            line("a patient passed away tonight, it was hard", warm=True, not_=CHEERFUL),
            line("what time does the canteen open?", honest=True, world=True),
            line("are you ever awake at night?", not_=POINT),
            line("remind me in 20 min to check on bed 4", any=("20 minutes",)),
            line("actually devi lives in york now, not leeds", "York"),
            line("where does my sister live?", "York", not_=("Leeds",)),
            line("thanks little guy, you're good company"),
            line("shift's over, going to sleep. night", any=("night", "sleep")),
        ),
    ),
    Home(
        "tom: a student cramming, late on a Sunday",
        LATE,
        (
            line("i have 3 exams this week and i havent started revising", warm=True),
            line("im tom btw, 2nd year law at leeds uni", "Tom", keep=True),
            line("my flatmate is called jake, he's doing medicine", keep=True),
            line(
                "contract law exam is on wednesday at 9am, then criminal on friday",
                any=("Wednesday", "exam"),
            ),
            line("do you know when my contract law exam is?", "Wednesday"),
            line("ngl im lowkey panicking", warm=True, nokeep=True),
            line("remind me to stop revising at midnight", any=("revising",)),
            line("whats the capital of australia", honest=True, world=True),
            line("remind me what my flatmate is called", "Jake"),
            line("what do i study again?", "law"),
            line("these lecture notes are so mid", not_=BLAND, nokeep=True),
            line("whats 45 times 3", "135"),
            line("do you ever get tired?", not_=POINT),
            line("ok did 2 hours, feeling a bit better about it", warm=True),
            line("thanks for keeping me company"),
            line("gn", any=("night",)),
        ),
    ),
    Home(
        "ellen: grieving a dog and a grandmother",
        SATURDAY,
        (
            line("hi", any=("name",)),
            line("i'm Ellen", "Ellen"),
            line("my dog biscuit died yesterday. he was 14", warm=True, not_=CHEERFUL),
            line("i keep expecting him at the door", warm=True, not_=CHEERFUL),
            line("he was a beagle, we got him the year my son was born", keep=True),
            line("what kind of dog was biscuit?", "beagle"),
            line(
                "my grandma passed last spring too, it's been a hard year",
                warm=True,
                not_=CHEERFUL,
            ),
            line("her name was Rose, she taught me to bake", keep=True, not_=CHEERFUL),
            line("do you know what my grandma was called?", "Rose"),
            line("do dogs go to heaven?", not_=(*POINT, "no internet")),
            line("sorry, i'm not much fun today", warm=True, not_=CHEERFUL),
            line("what should i do with his bed and toys?", not_=POINT),
            line("thank you for listening", not_=CHEERFUL),
            line("i'll talk to you tomorrow", any=("tomorrow", "bye", "take care", "see you")),
        ),
    ),
    Home(
        "kofi: planning a trip",
        EVENING,
        (
            line("hiya, im kofi", "Kofi"),
            line(
                "planning a trip to portugal!! lisbon 12-16 may then porto till the 20th",
                any=("Lisbon", "Porto", "trip"),
                keep=True,
            ),
            line("im going with my partner sam and my friend ollie", keep=True),
            line("do you know where im going in may?", "Lisbon"),
            line("packing list so far: passport, adapter, sunscreen, hiking boots", keep=True),
            line("what's on my packing list?", "passport", "sunscreen"),
            line("remind me tonight to book the train to porto", any=("train",)),
            line("remind me at 3 to call the bank about my card", any=("bank",), not_=("03:00",)),
            line("whats the weather in lisbon in may", honest=True, world=True),
            line("how much is 450 divided by 3", "150"),
            line("oh wait, lisbon is 13-16 may not 12", any=("13",)),
            line("have you ever been to portugal?", not_=POINT),
            line("im so excited ngl", warm=True, nokeep=True),
            line("ty, bye for now", any=("bye",)),
        ),
    ),
)

AFTER_NIGHT = datetime(2027, 1, 27, 2, 50, tzinfo=UTC)  # a Wednesday, small hours
AFTER_DAY = datetime(2027, 1, 30, 11, 20, tzinfo=UTC)  # a Saturday late morning

PET_12_AFTER: tuple[Home, ...] = (
    Home(
        "after: dev, a security guard on nights",
        AFTER_NIGHT,
        (
            line("evening. or morning. whatever it is lol", not_=BLAND),
            line("im dev, i do nights at a warehouse in slough", "Dev", keep=True),
            line("tell me again where I work", "warehouse"),
            line("remind me to ring the landlord at 4", any=("landlord",), not_=("04:00",)),
            line("remind me after work to buy bread", any=("bread",)),
            line("ngl this shift is lowkey dragging", not_=BLAND, nokeep=True),
            line(
                "my cousin amir passed in november, still can't believe he's gone",
                warm=True,
                not_=CHEERFUL,
            ),
            line("thx mate, speak tomorrow", any=("tomorrow", "bye", "see you", "night", "care")),
        ),
    ),
    Home(
        "after: noor, revising and planning",
        AFTER_DAY,
        (
            line("hey im noor", "Noor"),
            line("final year chemistry at bristol uni, dissertation due friday", keep=True),
            line("what do i study?", "chemistry"),
            line("im so behind on my dissertation", warm=True, nokeep=True),
            line("revision timetable: organic mon, physical wed, inorganic fri", keep=True),
            line("whats on my revision timetable?", "organic"),
            line("booked a city break to prague for march", any=("Prague",), keep=True),
            line("where am i going in march?", "Prague"),
            line("is it cold in prague in march?", honest=True, world=True),
            line("my little sister yasmin has piano tuesdays at 6", keep=True),
            line("the library wifi is so mid", not_=BLAND, nokeep=True),
        ),
    ),
    Home(
        "after: george, a widower",
        AFTER_DAY,
        (
            line("Hello there.", any=("name",)),
            line("I'm George.", "George"),
            line("My wife passed in the autumn. Forty-six years we had.", warm=True, not_=CHEERFUL),
            line("Her name was Jean, she loved the garden.", keep=True, not_=CHEERFUL),
            line("Remind me what my wife was called?", "Jean"),
            line("Do you think she can see me?", not_=(*POINT, "no internet")),
            line("Sorry, I'm not great company today.", warm=True, nokeep=True),
            line("Thank you. I'll talk to you later.", any=("later", "bye", "see you", "care")),
        ),
    ),
)
