"""The offline brain's word tables have one home (shelldon.broker.offline_words): the relations,
animals, weekdays, months, hellos and occupations the offline modules share are imported from
it, never spelled out again in another module (before the phone pass the weekdays were written
out in four modules and the relations in six, each list a little different)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shelldon.broker import offline_words
from shelldon.broker.offline_words import alternation, plurals, without_emoji

BROKER = Path(offline_words.__file__).parent
TABLES = {
    "KIN": offline_words.KIN,
    "OTHERS": offline_words.OTHERS,
    "ANIMALS": offline_words.ANIMALS,
    "WEEKDAYS": offline_words.WEEKDAYS,
    "MONTHS": offline_words.MONTHS,
    "HELLOS": offline_words.HELLOS,
    "OCCUPATIONS": offline_words.OCCUPATIONS,
}
# A string holding this many of a table's words is a copy of the table.
COPY = 4


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize(
    "module", sorted(p.name for p in BROKER.glob("offline*.py") if p.name != "offline_words.py")
)
def test_no_offline_module_spells_out_a_shared_word_table(module: str) -> None:
    for text in _strings(BROKER / module):
        words = set(text.casefold().replace("|", " ").replace("(", " ").replace(")", " ").split())
        for table, listed in TABLES.items():
            held = words & {w for w in listed if " " not in w}
            assert len(held) < COPY, f"{module} spells out {table}: {sorted(held)}"


def test_an_alternation_tries_the_longest_word_first() -> None:
    assert alternation("friend", "best friend", "gran", "grandma").split("|") == [
        "best friend",
        "grandma",
        "friend",
        "gran",
    ]


def test_plurals_as_owners_type_them() -> None:
    assert plurals("sister", "puppy", "day") == (
        "sister",
        "sisters",
        "puppy",
        "puppies",
        "day",
        "days",
    )


@pytest.mark.parametrize(
    ("typed", "bare"),
    [("night 🌙", "night"), ("hola 👋", "hola"), ("im lucia :)", "im lucia"), ("😂", "😂")],
)
def test_emoji_beside_words_are_read_past(typed: str, bare: str) -> None:
    assert without_emoji(typed) == bare


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I don't eat pork", "The owner doesn't eat pork."),
        ("I really don't drive", "The owner really doesn't drive."),
        ("I haven't got a garden", "The owner hasn't got a garden."),
        ("I can't whistle", "The owner can't whistle."),
        ("I won't fly", "The owner won't fly."),
    ],
)
def test_a_negated_verb_is_kept_whole_in_the_third_person(said: str, kept: str) -> None:
    """Eighth pass (found by its after-set: "The owner dons't smoke anymore."): "don't" is one
    verb, never "don" + "'t"; so "do I smoke?" is answered no."""
    assert offline_words.to_third_person(said) == kept


def test_cannot_is_a_modal_kept_as_said() -> None:
    """The eleventh pass kept "The owner cannots swim." from "I cannot swim"."""
    assert offline_words.to_third_person("I cannot swim") == "The owner cannot swim."
