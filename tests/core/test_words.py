"""The one home of words: tokens, the stemmer, the stop words, and the Rust copy of the lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference.gate_reference import _normalise_word
from shelldon.core.words import (
    FUNCTION_WORDS,
    HEDGES,
    NEGATIONS,
    NUMBER_WORDS,
    PET_WORDS,
    SIMILARITY_STOPWORDS,
    STOPWORDS,
    content_words,
    near,
    stem,
    tokens,
    words,
)

SIMILARITY_RS = Path(__file__).resolve().parents[2] / "rust" / "src" / "similarity.rs"


def test_tokens_fold_case_and_drop_stopwords() -> None:
    assert tokens("What is Mia's CAT called?") == ["mia", "cat", "call"]
    assert tokens("Straße") == ["strass"]  # folded to "strasse", then stemmed
    assert tokens("ｆｕｌｌ width") == ["full", "width"]  # NFKC first
    # The pet's nouns stay: a question about the owner reaches the memories about the owner.
    assert tokens("What does my owner enjoy?") == ["owner", "enjoy"]


def test_a_words_other_forms_meet() -> None:
    # Snowball English (rust/src/words.rs): the light -s/-ed/-ing/-ies strip it replaced never
    # took "passionate" to "passion".
    assert tokens("camped camping camps") == ["camp", "camp", "camp"]
    assert tokens("stories story") == ["stori", "stori"]
    assert tokens("passionate passion") == ["passion", "passion"]
    assert tokens("bus glass red x2s") == ["bus", "glass", "red", "x2s"]


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [("likes", "like"), ("liked", "like"), ("ties", "tie"), ("2010s", "2010s"), ("don't", "don't")],
)
def test_the_stemmer_is_snowball_english_for_words_of_letters(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_rust_tokens_agree_with_python_words() -> None:
    # tokens() splits in Rust; words() in Python's re: the same words for any text.
    text = "Ana's café — naïve 2010s snake_case ＦＵＬＬ x² ⅻ देवनागरी Ωmega, don't!"
    assert tokens(text) == [stem(w) for w in words(text) if w not in STOPWORDS]


def test_the_dream_ignores_hedges_and_short_words() -> None:
    assert content_words("The owner seems to usually cycle to work") == {"cycl", "work"}
    assert near("I cycle to work most days", "The owner usually cycles to work")
    assert not near("I drive to work", "The owner usually cycles to work")


def test_the_lists_are_named_subsets_of_one_another() -> None:
    assert FUNCTION_WORDS <= STOPWORDS
    assert not PET_WORDS & STOPWORDS
    assert SIMILARITY_STOPWORDS <= FUNCTION_WORDS
    assert not SIMILARITY_STOPWORDS & NEGATIONS
    assert not HEDGES & STOPWORDS  # "usually" names a habit for the offline brain


def _rust_list(name: str) -> list[str]:
    source = SIMILARITY_RS.read_text(encoding="utf-8")
    found = re.search(rf"const {name}: &\[&str\] = &\[(.*?)\];", source, re.DOTALL)
    assert found, f"{name} not found in {SIMILARITY_RS}"
    return re.findall(r'"([^"]*)"', found.group(1))


def _as_rust(words: frozenset[str]) -> list[str]:
    """The list as similarity.rs holds it: sorted (it binary-searches), each word in the token
    form the check compares ("this" -> "thi")."""
    return sorted({_normalise_word(w) for w in words})


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("STOP_WORDS", SIMILARITY_STOPWORDS),
        ("NEGATIONS", NEGATIONS),
        ("NUMBER_WORDS", NUMBER_WORDS),
    ],
)
def test_the_rust_similarity_lists_are_the_python_ones(name: str, words: frozenset[str]) -> None:
    want = _as_rust(words)
    assert _rust_list(name) == want, (
        f"rust/src/similarity.rs {name} differs from shelldon.core.words; it should read:\n"
        + ", ".join(f'"{w}"' for w in want)
    )


def test_the_rust_check_sees_a_changed_list() -> None:
    assert _as_rust(frozenset({"this", "does", "has"})) == ["doe", "has", "thi"]
    assert _rust_list("STOP_WORDS") != _as_rust(SIMILARITY_STOPWORDS | {"zebra"})
