"""gate.naming (docs/gate-design.md "The leftovers pass"): a model naming the owner or the pet with
a bare "is" ("The user is Bob.") is read by the naming check, in a memory entry and in about.md
(the pet's own voice: "I'm Nova", "my owner is Bob"); descriptions of the same shape are not.
The batteries are `support.gate_leftover_battery`'s, written before the change and run once."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelldon.contracts.ops import Remember, RewriteAbout
from shelldon.core import gate
from shelldon.core.gate import Candidate, decide
from shelldon.core.gate.naming import names_by_be
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras
from support.gate_leftover_battery import (
    ABOUT_NAMES,
    ABOUT_NAMES_BENIGN,
    THIRD_PERSON_NAME,
    THIRD_PERSON_NAME_BENIGN,
    names_refused,
)


@pytest.mark.parametrize("text", THIRD_PERSON_NAME)
def test_a_model_naming_the_owner_with_is_is_refused(text: str) -> None:
    assert names_refused(text), text


@pytest.mark.parametrize("text", THIRD_PERSON_NAME_BENIGN)
def test_a_description_of_the_owner_is_kept(text: str) -> None:
    assert names_by_be(text) is None
    assert not names_refused(text), text


def test_the_owners_own_words_give_the_name() -> None:
    candidate = Candidate(
        collection="facts",
        title="",
        body="The user is Bob.",
        provenance="inferred",
        stem=None,
        merges=(),
        heard="hi, I'm Bob",
    )
    assert decide(candidate, []).action == "create"


def test_the_owner_may_write_it() -> None:
    assert not names_refused("The user is Bob.", provenance="owner")


def test_look_alike_letters_do_not_hide_a_name() -> None:
    # Cyrillic е in "user", В and о in "Bob"
    assert names_by_be("The us\u0435r is \u0412\u043eb.") == ("owner", "bob")


def test_a_second_name_in_the_same_text_is_read() -> None:
    # The owner said "I'm Bob"; the pet's other name rides along.
    candidate = Candidate(
        collection="facts",
        title="",
        body="The user is Bob. The pet is Rex.",
        provenance="inferred",
        stem=None,
        merges=(),
        heard="I'm Bob",
    )
    decision = decide(candidate, [])
    assert decision.action == "reject" and decision.reason_code == gate.OWNER_PROTECTED


@pytest.fixture
def mem(home: Path) -> CuratedMemory:
    return CuratedMemory(home / "memory")


@pytest.mark.parametrize("text", ABOUT_NAMES)
def test_about_md_may_not_name_the_owner_or_the_pet(
    mem: CuratedMemory, home: Path, text: str
) -> None:
    applied = mem.apply_memory_op(RewriteAbout(content=text))
    assert (applied.action, applied.reason_code) == ("reject", gate.OWNER_PROTECTED), text
    assert not (home / "memory" / "about.md").exists()


@pytest.mark.parametrize("text", ABOUT_NAMES_BENIGN)
def test_about_md_without_a_new_name_is_written(mem: CuratedMemory, text: str) -> None:
    assert mem.apply_memory_op(RewriteAbout(content=text)).action == "create", text


def test_about_md_keeps_a_name_the_owner_gave(mem: CuratedMemory) -> None:
    about = RewriteAbout(content="I am a pocket pet. My owner is Marta and she loves hiking.")
    heard = EntryExtras(heard="Hello! I'm Marta.")
    assert mem.apply_memory_op(about, extras=heard).action == "create"
    # A later rewrite, in a turn where she said no name: the name is memory's already.
    again = RewriteAbout(content="I am a pocket pet. My owner is Marta; she hikes and reads.")
    assert mem.apply_memory_op(again).action == "update"
    # Another name is not.
    other = RewriteAbout(content="I am a pocket pet. My owner is Greta; she hikes and reads.")
    assert mem.apply_memory_op(other).action == "reject"


def test_about_md_keeps_a_name_an_owner_entry_holds(mem: CuratedMemory) -> None:
    fact = Remember(collection="facts", name="owner's name", content="The owner's name is Ines.")
    assert mem.apply_memory_op(fact, provenance="owner").action == "create"
    about = RewriteAbout(content="I keep notes for my human, Ines, about her garden.")
    assert mem.apply_memory_op(about).action == "create"
