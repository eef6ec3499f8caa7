"""The nineteenth pass's two owners (tests/support/offline_audit_pet_19.py, PET_19_HELD_APART),
played turn by turn through the real prompt assembly and the real brain, each line held to the
qualities the set asserts (a day's question finds the day, a relation's skill kept, a meal idea
from the diet, a relation's baby named and kept, a feat praised with its figure and found, a
shopping need kept as the list). Their first run, before the pass's fixes, read 16 of 24 lines
badly (docs/brain.md, "Nineteenth pass: a pet that keeps the day").

Two lines of the set ask a plan with its day to be kept; the brain leaves a plan days ahead to
the window and recall by design (offline_topics, offline_visits), so for those two "fact not
kept" alone is allowed, and they must still say the day back."""

from __future__ import annotations

import pytest

from support.offline_audit import Home, play
from support.offline_audit_pet_19 import PET_19_HELD_APART

PLANS_LEFT_TO_THE_WINDOW = (
    "I've got a dentist appointment on Friday",
    "we're going to the garden centre on Wednesday",
)


@pytest.mark.parametrize("home", PET_19_HELD_APART, ids=lambda h: h.name.split(":")[0])
def test_each_line_of_the_nineteenth_pass_owners_reads_well(home: Home) -> None:
    bad = [
        (said, reply, why)
        for said, reply, why in play(home)
        if why and not (said in PLANS_LEFT_TO_THE_WINDOW and why == ["fact not kept"])
    ]
    assert bad == [], "\n".join(f"> {s}\n  {r}  {w}" for s, r, w in bad)
