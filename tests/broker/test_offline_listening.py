"""The eighteenth pass's two owners (tests/support/offline_audit_pet_18.py, PET_18_HELD_APART),
played turn by turn through the real prompt assembly and the real brain, each line held to the
qualities the set asserts (a milestone said as one, a new habit kept and found, she or he for a
known relation, each low feeling in words of its own and never the same twice, a subject said
once). Their first run, before the pass's fixes, read 22 of 30 lines badly (docs/brain.md,
"Eighteenth pass: a pet that listens")."""

from __future__ import annotations

import pytest

from support.offline_audit import Home, play
from support.offline_audit_pet_18 import PET_18_HELD_APART


@pytest.mark.parametrize("home", PET_18_HELD_APART, ids=lambda h: h.name.split(":")[0])
def test_each_line_of_the_eighteenth_pass_owners_reads_well(home: Home) -> None:
    bad = [(said, reply, why) for said, reply, why in play(home) if why]
    assert bad == [], "\n".join(f"> {s}\n  {r}  {w}" for s, r, w in bad)
