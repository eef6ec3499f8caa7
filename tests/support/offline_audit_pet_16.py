"""The offline brain's audit, sixteenth pass (docs/brain.md, "Sixteenth pass: memory it loses or
bends"): a twelfth held-apart set (`PET_16_HELD_APART`), written before this pass changed any
code, across the leftovers of the fourteenth and fifteenth passes, in other owners' words:

- two relations of one kind ("my brother Olu …", then "my brother Tunde …") are two entries, and
  "what do you know about my brothers?" names both;
- a pronoun inside a correction ("actually he lives in Bath, not Bristol") revises the entry of
  the relation it stands for;
- a referent further back than three lines ("what could I get him?" many lines after "my
  husband Dev") is read from memory, and "he's into …" there is kept as his;
- a former job asked past the recent window ("where did I used to work?") is answered from the
  entry, never the owner's line said back; a test not passed is kept as an event, said warmly;
- an addition said as a correction ("correction: I do weddings too") is kept beside the old.

`PET_16_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on. `PET_16_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, Home, line

TUESDAY = datetime(2027, 3, 9, 18, 40, tzinfo=UTC)  # Tuesday 9 March 2027, evening
ECHO_FORMER = ("You used to work at the post office for twenty years",)

PET_16_HELD_APART: tuple[Home, ...] = (
    Home(
        "ade: a bus mechanic with two brothers and two dogs",
        TUESDAY,
        (
            line("my brother Olu lives in Lagos", keep=True),
            line("my brother Tunde lives in Abuja", keep=True),
            line("what do you know about my brothers?", "Olu", "Tunde"),
            line("where does Olu live?", "Lagos", not_=("Abuja",)),
            line("my dog Bramble is 3", keep=True),
            line("my dog Pip is 11", keep=True),
            line("how old is Bramble?", "3", not_=("11",)),
            line("my friend Hana works at the library", keep=True),
            line("my friend Gus works at the docks", keep=True),
            line("where does Hana work?", "library", not_=("docks",)),
        ),
    ),
    Home(
        "rosie: a florist with a dad in Bristol",
        TUESDAY,
        (
            line("my dad lives in Bristol", keep=True),
            line("actually he lives in Bath, not Bristol", "Bath", keep=True, not_=BLAND),
            line("where does my dad live?", "Bath", not_=("Bristol",)),
            line("my mum Carol lives in Hull", keep=True),
            line("sorry, she lives in Leeds now, not Hull", "Leeds", keep=True, not_=BLAND),
            line("I do wedding flowers mostly", keep=True),
            line("correction: I do funerals too", keep=True, not_=BLAND),
            line("what do I do for work?", "wedding", "funerals"),
        ),
    ),
    Home(
        "joy: a retired postwoman with a husband",
        TUESDAY,
        (
            line("I used to work at the post office for twenty years", keep=True),
            line("my husband Dev is 61", keep=True),
            line("it rained all day here", not_=("Dev",)),
            line("I made a big pot of soup", not_=("Dev",)),
            line("the garden needs weeding", not_=("Dev",)),
            line("watched a film tonight", not_=("Dev",)),
            line("he's really into fly fishing", keep=True, not_=BLAND),
            line("what is Dev into?", "fly fishing"),
            line("any idea what I could get him for his birthday?", any=("fishing", "Dev")),
            line("where did I used to work?", "post office", not_=ECHO_FORMER),
        ),
    ),
    Home(
        "kit: a learner driver",
        TUESDAY,
        (
            line("I didn't pass my driving test", keep=True, warm=True),
            line("failed my theory test again today", keep=True, warm=True),
            line("I didn't get the job at the garden centre", warm=True),
            line("what happened with my driving test?", any=("didn't pass", "failed")),
        ),
    ),
)

# Written after the fixes, in other owners' words, and run once.
FRIDAY = datetime(2027, 6, 18, 21, 5, tzinfo=UTC)  # Friday 18 June 2027, night

PET_16_AFTER: tuple[Home, ...] = (
    Home(
        "tomasz: a night porter with two daughters",
        FRIDAY,
        (
            line("my daughter Zofia lives in Krakow", keep=True),
            line("my daughter Ola lives in Leeds", keep=True),
            line("tell me about my daughters", "Zofia", "Ola"),
            line("my granddad lives in Gdansk", keep=True),
            line("no, he lives in Sopot, not Gdansk", "Sopot", keep=True, not_=BLAND),
            line("I worked at the bakery on Mill Road for 15 years", keep=True),
            line("correction: I do weekend shifts too", keep=True, not_=BLAND),
        ),
    ),
    Home(
        "bea: a trainee paramedic",
        FRIDAY,
        (
            line("I didn't pass my paramedic exam", keep=True, warm=True),
            line("my partner Lou is a baker", keep=True),
            line("the kettle broke", not_=("Lou",)),
            line("it was so hot today", not_=("Lou",)),
            line("made pasta for tea", not_=("Lou",)),
            line("she loves gardening", keep=True, not_=BLAND),
        ),
    ),
)
