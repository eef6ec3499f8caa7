"""The offline brain's audit, nineteenth pass (docs/brain.md, "Nineteenth pass: a pet that keeps
the day"): a fourteenth held-apart set (`PET_19_HELD_APART`), written before this pass changed
any code, from what a real run of the pet showed, in two other owners' words:

- a question about a day ("what have I got on Friday?") finds what the owner said of that day;
- a relation's skill or the thing they make well ("my dad makes amazing curry") is met warmly
  and kept about that person;
- a suggestion for a meal uses the owner's known diet and likings;
- a baby born to a relation, and its name said on the next line, is kept as the owner's niece,
  nephew or grandchild, and found by that word;
- an achievement with a figure ("I swam 40 lengths today") is praised with the figure and kept,
  and a question about it finds it;
- a shopping need ("I need to pick up rice and onions") is acknowledged and kept as the owner's
  list.

`PET_19_HELD_APART` was run once before any fix: its first run is the figure in docs/brain.md; it
was then tuned on.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, Home, line

MONDAY = datetime(2027, 5, 10, 18, 30, tzinfo=UTC)  # Monday 10 May 2027, evening
SUNDAY = datetime(2027, 10, 3, 10, 15, tzinfo=UTC)  # Sunday 3 October 2027, morning

# The gaps a question about something said must never answer with.
GAP = ("haven't told me", "don't know")

PET_19_HELD_APART: tuple[Home, ...] = (
    Home(
        "tomasz: a warehouse worker learning to code",
        MONDAY,
        (
            line("hey, I'm Tomasz", "Tomasz"),
            line("I've got a dentist appointment on Friday", "Friday", keep=True),
            line("what have I got on Friday?", "dentist", not_=GAP),
            line("my dad makes amazing pierogi", "pierogi", keep=True, not_=BLAND),
            line("I don't eat meat", keep=True),
            line("any ideas for dinner tonight?", not_=GAP, any=("meat", "veg", "pierogi")),
            line("my brother Marek and his wife just had a little girl!", warm=True, not_=BLAND),
            line("she's called Zofia", "Zofia", keep=True),
            line("what's my niece's name?", "Zofia", not_=GAP),
            line("I swam 40 lengths today", "40", warm=True, keep=True),
            line("how many lengths did I swim?", "40", not_=GAP),
            line("I need to pick up rice and onions", "rice", keep=True, not_=BLAND),
            line("what's on my shopping list?", "rice", "onions", not_=GAP),
        ),
    ),
    Home(
        "grace: a retired nurse with a big family",
        SUNDAY,
        (
            line("good morning, Grace here", "Grace"),
            line(
                "my granddaughter Lily is really good at drawing", "drawing", keep=True, not_=BLAND
            ),
            line("my son Daniel had twins last night!", warm=True, not_=BLAND),
            line("we're going to the garden centre on Wednesday", "Wednesday", keep=True),
            line("what am I doing on Wednesday?", "garden centre", not_=GAP),
            line("I finished the half marathon in 2 hours 10", "2 hours", warm=True, keep=True),
            line("what was my half marathon time?", "2 hours", not_=GAP),
            line("I'm gluten free", keep=True),
            line("what should I bake this afternoon?", not_=GAP, any=("gluten",)),
            line("we're out of butter and sugar", "butter", keep=True, not_=BLAND),
            line("what's Lily good at?", "drawing", not_=GAP),
        ),
    ),
)
