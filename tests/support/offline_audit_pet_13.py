"""The offline brain's audit, thirteenth pass (docs/brain.md, "Thirteenth pass: what the lead
found talking to the real pet"): a ninth held-apart set (`PET_13_HELD_APART`), written before this
pass changed any code, across the five classes the lead met talking to the running pet, in other
owners' words:

- a second clause that describes the owner ("…, I work as an accountant") is kept, not only the
  first, and the place and the work are two facts;
- a relation's birthday said with a date relative to today and an age ("it's Ana's birthday on
  saturday, she'll be 40") is kept as the real date and the age;
- asking the pet for an idea about someone ("what should I get my mum?") is answered from what it
  knows of them, or it asks what they like: never a gap in memory;
- feelings the mood lists miss (drained, burnt out, nostalgic, restless, on edge, left out,
  missing home, swamped) met warmly and specifically, never kept;
- "forget that …" when nothing of it is kept says so honestly, never "I'll let that go".

`PET_13_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on. `PET_13_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

THURSDAY = datetime(2027, 2, 4, 10, 30, tzinfo=UTC)  # Thursday 4 February 2027
SUNDAY_EVENING = datetime(2027, 2, 7, 20, 15, tzinfo=UTC)
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)
# "Forget" when nothing was kept: no claim of having let anything go.
LET_GO = ("let that go", "let go of", "i've forgotten")
NOTHING_KEPT = ("wasn't keeping", "nothing to forget", "don't have anything", "wasn't kept")

PET_13_HELD_APART: tuple[Home, ...] = (
    Home(
        "marta: moved for work, two facts in one line",
        THURSDAY,
        (
            line("hi, I'm Marta", "Marta"),
            line("we moved to Cardiff in january and I teach at a primary school", keep=True),
            line("what do I do for work?", "teach", not_=POINT),
            line("where do I live?", "Cardiff"),
            line("I'm from Porto originally, I work as an accountant now", keep=True),
            line("what's my job?", "accountant"),
            line("I live in a flat in Splott and I'm a part-time cellist", keep=True),
            line("what do you know about me?", "Cardiff", "cellist"),
            line("my husband is called Idris, he's a plumber", keep=True),
            line(
                "it's Idris's birthday on saturday, he'll be 45",
                any=("Idris", "birthday", "45"),
                keep=True,
                not_=BLAND,
            ),
            line("when is Idris's birthday?", any=("6 February", "February 6", "6th"), not_=POINT),
            line("how old will Idris be?", "45"),
            line("any ideas what I could get him?", not_=POINT),
            line("forget that I hate coriander", not_=LET_GO, any=NOTHING_KEPT),
        ),
    ),
    Home(
        "oskar: a nurse far from home, low this week",
        SUNDAY_EVENING,
        (
            line("evening, I'm Oskar", "Oskar"),
            line("I live in Dundee and I'm a nurse on the renal ward", keep=True),
            line("where do I work?", "renal"),
            line("honestly I'm missing home a lot lately", warm=True, nokeep=True, not_=BLAND),
            line("feeling totally drained after this week", warm=True, nokeep=True, not_=BLAND),
            line("kinda burnt out to be honest", warm=True, nokeep=True, not_=BLAND),
            line("my sister Lena lives in Gdansk, she's a vet", keep=True),
            line(
                "lena's birthday is next tuesday, she turns 29",
                any=("Lena", "birthday", "29"),
                keep=True,
            ),
            line("when's Lena's birthday again?", any=("9 February", "February 9", "9th")),
            line("what should I send her for her birthday?", not_=POINT),
            line("a bit nostalgic tonight, looking at old photos", warm=True, nokeep=True),
            line("forget what I said about my old flat", not_=LET_GO, any=NOTHING_KEPT),
        ),
    ),
    Home(
        "bea: a student, restless and left out",
        THURSDAY,
        (
            line("hey im bea", "Bea"),
            line("im at uni in York and I work weekends at a bakery", keep=True),
            line("do you know where I work?", "bakery"),
            line("so restless today, can't settle on anything", warm=True, nokeep=True),
            line("felt really left out at the party last night", warm=True, nokeep=True),
            line("bit on edge about my results tbh", warm=True, nokeep=True, not_=BLAND),
            line("my best friend is Cass, she loves climbing", keep=True),
            line("what could I get Cass for her birthday?", "climbing"),
            line(
                "cass's birthday is in two weeks, she'll be 20",
                any=("Cass", "birthday", "20"),
                keep=True,
            ),
            line("forget that my bike got stolen", not_=LET_GO, any=NOTHING_KEPT),
            line("any gift ideas for my dad?", not_=POINT),
        ),
    ),
    Home(
        "ade: overwhelmed dad of two",
        SUNDAY_EVENING,
        (
            line("hi, Ade here", "Ade"),
            line("just started as a site manager, we live in Luton now", keep=True),
            line("what's my job again?", "site manager"),
            line("feeling swamped and overwhelmed with everything", warm=True, nokeep=True),
            line("my son Femi turns 6 on wednesday", keep=True, any=("Femi", "6")),
            line("how old is Femi going to be?", "6"),
            line("what should I do for Femi's party?", not_=POINT),
            line("forget that my car is blue", not_=LET_GO, any=NOTHING_KEPT),
        ),
    ),
)

AFTER_MONDAY = datetime(2027, 3, 1, 18, 45, tzinfo=UTC)  # Monday 1 March 2027, evening

PET_13_AFTER: tuple[Home, ...] = (
    Home(
        "after: hana, a new town and a new ward",
        AFTER_MONDAY,
        (
            line("hello, I'm Hana", "Hana"),
            line(
                "moved to Exeter last month for a job at the vets, I'm a veterinary nurse",
                keep=True,
            ),
            line("what do you know about me?", "Exeter", "veterinary nurse"),
            line("my girlfriend is called Noor, she's really into pottery", keep=True),
            line("it's Noor's birthday this friday, she'll be 27", any=("27",), keep=True),
            line("when's Noor's birthday?", any=("5 March",)),
            line("got any ideas what to get her?", not_=POINT),
            line("honestly feeling a bit frazzled this week", warm=True, nokeep=True, not_=BLAND),
            line("forget that my flat is damp", not_=LET_GO, any=NOTHING_KEPT),
        ),
    ),
    Home(
        "after: reg, retired and restless",
        AFTER_MONDAY,
        (
            line("evening. Reg.", any=("Reg",)),
            line("I live in Margate and I'm a retired welder", keep=True),
            line("feeling restless since I stopped work", warm=True, nokeep=True, not_=BLAND),
            line("my grandson Alfie turns 10 next saturday", any=("10",), keep=True),
            line("how old will Alfie be?", "10"),
            line("what should I get Alfie?", not_=POINT),
            line("a bit left out of the family group chat if I'm honest", warm=True, nokeep=True),
        ),
    ),
)
