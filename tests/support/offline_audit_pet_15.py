"""The offline brain's audit, fifteenth pass (docs/brain.md, "Fifteenth pass: what the lead found
talking to the real pet"): an eleventh held-apart set (`PET_15_HELD_APART`), written before this
pass changed any code, across the classes the lead met talking to the running pet as two owners
(a chemistry teacher with a naughty dog, a retired bus driver with a granddaughter), in other
owners' words:

- a correction of a value kept under another entry ("my cat Miso is 3 …", then "actually Miso
  is 2, not 3"): the entry that holds the old value is revised, and asked back it says the new;
- a question whose answer is in a kept line ("my grandson Kofi turns 10 on june 14th", then
  "when is Kofi's birthday?") answered, never "I don't know" before the answer;
- "what do you know about my family?" answered from family relations only, never with pupils,
  patients or customers of a complaint, nor a passing mood read back as a fact;
- a dislike said with an order to the pet ("I can't stand olives, don't ever suggest them"):
  the dislike kept and said as the owner's, the order said as the pet's promise, never echoed;
- a relation's pronoun in grief ("since my husband passed": him, never "them"), a plan said as
  thinking ("I'm thinking of taking up bowls") met as a plan, and a greeting with a job never
  doubling its small words ("Nice to meet you, Marek! Nice! …").

`PET_15_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on. `PET_15_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, Home, line

THURSDAY = datetime(2027, 2, 11, 19, 20, tzinfo=UTC)  # Thursday 11 February 2027, evening
DOUBLED = ("! Nice! ", "! Nice!", "! Lovely! ", "! Great! ")
THEM = ("about them", "miss them", "they were")
ECHOED_ORDER = ("don't ever suggest", "never recommend", "don't you dare", "do not suggest")

PET_15_HELD_APART: tuple[Home, ...] = (
    Home(
        "ines: a nurse on a children's ward",
        THURSDAY,
        (
            line("hi, I'm Ines, I'm a nurse on a children's ward", "Ines", not_=DOUBLED),
            line("my cat Miso is 3 and loves boxes", keep=True),
            line("actually Miso is 2, not 3", "2", keep=True, not_=BLAND),
            line("how old is Miso?", "2", not_=("is 3", "3 and")),
            line("the patients were hard work today, ugh", nokeep=True),
            line("my brother Tomas lives in Vigo", keep=True),
            line("what do you know about my family?", "Tomas", not_=("patients", "hard work")),
            line("I can't stand olives, don't ever suggest them", keep=True, not_=ECHOED_ORDER),
            line("what do I dislike?", "olives", not_=ECHOED_ORDER),
            line("I'm thinking of taking a pottery class", not_=BLAND),
        ),
    ),
    Home(
        "marek: a retired postman, widowed",
        THURSDAY,
        (
            line("hello, I'm Marek, I fix bikes in a little shop", "Marek", not_=DOUBLED),
            line("my grandson Kofi turns 10 on june 14th", keep=True),
            line(
                "when is Kofi's birthday?",
                any=("14 June", "June 14", "june 14th", "14th"),
                not_=("don't know",),
            ),
            line("I feel a bit empty since my husband passed", warm=True, not_=THEM),
            line("my old dog Rex is 12 and going grey", keep=True),
            line("Rex is actually 13, not 12", "13", keep=True, not_=BLAND),
            line("how old is Rex?", "13", not_=("is 12", "12 and")),
            line(
                "I loathe pineapple on pizza, never recommend it to me",
                keep=True,
                not_=ECHOED_ORDER,
            ),
            line("do you remember what I hate?", "pineapple", not_=ECHOED_ORDER),
            line("thinking about getting a puppy", not_=BLAND),
        ),
    ),
    Home(
        "priya: a primary teacher with a husband and a son",
        THURSDAY,
        (
            line("I'm Priya and I teach year 4", "Priya", not_=DOUBLED),
            line("my husband Sam works in IT", keep=True),
            line("the children were a nightmare this afternoon", nokeep=True),
            line("my sister Anya lives in Leeds", keep=True),
            line(
                "what do you know about my family?",
                any=("Sam", "Anya"),
                not_=("nightmare", "children were"),
            ),
            line("my son Arjun turns 5 on the 9th of may", keep=True),
            line(
                "when's Arjun's birthday?",
                any=("9 May", "May 9", "9th of may", "9th of May"),
                not_=("don't know",),
            ),
            line("my mum passed away in the winter and I miss her", warm=True, not_=THEM),
            line("I'm thinking of going back to uni", not_=BLAND),
        ),
    ),
    Home(
        "leon: a chef at a tapas bar",
        THURSDAY,
        (
            line("evening, I'm Leon, I cook at a tapas bar", "Leon", not_=DOUBLED),
            line("my partner Jules is 34 and a runner", keep=True),
            line("ugh the customers were so rude tonight", nokeep=True),
            line("actually Jules is 35, not 34", "35", keep=True, not_=BLAND),
            line("how old is Jules?", "35", not_=("is 34", "34 and")),
            line("what do you know about my family?", "Jules", not_=("customers", "rude")),
        ),
    ),
)
SUNDAY = datetime(2027, 5, 2, 10, 5, tzinfo=UTC)  # Sunday 2 May 2027, morning

# Written after the fixes, in other owners' words, and run once: a vet nurse with a tortoise and
# a retired plumber with a grandson.
PET_15_AFTER: tuple[Home, ...] = (
    Home(
        "carys: a vet nurse with a tortoise",
        SUNDAY,
        (
            line("morning! I'm Carys, I work as a vet nurse", "Carys", not_=DOUBLED),
            line("my tortoise Shelly is 40 and loves dandelions", keep=True),
            line("sorry, Shelly is 42, not 40", "42", keep=True, not_=BLAND),
            line("how old is Shelly?", "42", not_=("is 40", "40 and")),
            line("the dogs at work were so noisy today, ugh", nokeep=True, not_=BLAND),
            line("my dad lives in Tenby", keep=True),
            line("who's in my family?", "Tenby", not_=("dogs", "noisy")),
        ),
    ),
    Home(
        "gareth: a retired plumber",
        SUNDAY,
        (
            line("my grandson Osian will be 8 on the 20th of june", keep=True),
            line(
                "when's Osian's birthday?",
                any=("20th of june", "20 June", "June 20"),
                not_=("don't know",),
            ),
            line(
                "I detest beetroot, please don't ever serve it to me", keep=True, not_=ECHOED_ORDER
            ),
            line("it's been quiet since my wife died", warm=True, not_=THEM),
            line("thinking of joining the choir", not_=BLAND),
        ),
    ),
)
