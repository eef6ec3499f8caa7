"""What the pet's reflection derived from a turn goes with the owner's entry: /forget of the entry
and /undo of the turn take the reflection's facts too (core.memory.derived, core.commands), on real
stores; another turn's facts and the owner's entries stay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.contracts.ops import Remember
from shelldon.core.commands import CommandContext, command_forget, command_memory, command_undo
from shelldon.core.memory.derived import derived_targets
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot

WORK = Remember("facts", "work", "The owner works as a nurse at the city hospital.")
DERIVED = Remember(
    "facts", "nurse shifts", 'For "I work as a nurse at the city hospital", nights were hard.'
)
OTHER = Remember("facts", "kettle", "The kitchen kettle takes four minutes to boil water.")


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    root = DataRoot.resolve(tmp_path / "home")
    root.home.mkdir()
    opened = Stores.open(root)
    yield opened
    opened.history.close()


def _turn_and_its_reflection(stores: Stores) -> None:
    memory = stores.memory
    memory.apply_memory_op(WORK, provenance="inferred", turn_id="t1")
    memory.apply_memory_op(DERIVED, provenance="observed", unit="reflect-t1")
    memory.apply_memory_op(OTHER, provenance="observed", unit="reflect-t2")  # another turn's


def _kept(stores: Stores) -> set[str]:
    return {f"{e.collection}/{e.stem}" for e in stores.memory.entries()}


def test_forget_takes_what_was_derived_and_undo_brings_both_back(stores: Stores) -> None:
    _turn_and_its_reflection(stores)
    ctx = CommandContext(stores)
    records = list(stores.memory.audit.records())
    assert derived_targets(records, "facts/work.md") == ["facts/nurse-shifts.md"]
    listed = command_memory(ctx, "").splitlines()
    number = next(i for i, line in enumerate(listed) if line.endswith("work (facts)"))
    said = command_forget(ctx, str(number))
    assert said == "Forgotten: work (and 1 thing I had learnt from it). /undo brings it back."
    assert _kept(stores) == {"facts/kettle"}
    back = command_undo(ctx, "")
    assert "brought back" in back and "facts/work.md" in back and "nurse-shifts" in back, back
    assert _kept(stores) == {"facts/work", "facts/nurse-shifts", "facts/kettle"}


def test_undo_of_a_turn_takes_its_reflection_too(stores: Stores) -> None:
    memory = stores.memory
    memory.apply_memory_op(OTHER, provenance="observed", unit="reflect-t0")
    memory.apply_memory_op(WORK, provenance="inferred", turn_id="t1")
    memory.apply_memory_op(DERIVED, provenance="observed", unit="reflect-t1")
    said = command_undo(CommandContext(stores), "")
    assert said.startswith("Undone (reflect-t1): removed "), said
    assert "facts/nurse-shifts.md" in said and "facts/work.md" in said
    assert _kept(stores) == {"facts/kettle"}


def test_an_entry_with_nothing_derived_is_forgotten_alone(stores: Stores) -> None:
    stores.memory.apply_memory_op(WORK, provenance="inferred", turn_id="t1")
    said = command_forget(CommandContext(stores), "1")
    assert said == "Forgotten: work. /undo brings it back."
    assert command_undo(CommandContext(stores), "").endswith("brought back facts/work.md.")
