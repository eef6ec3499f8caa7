"""Wallet seed phrases found by their words (gate.seed_words), labelled or not, and prose kept."""

from __future__ import annotations

import pytest

from shelldon.core import gate
from shelldon.core.gate.seed_words import MIN_WORDS, seed_phrases, seed_words

# The BIP-39 test vector's words (public, no wallet's), in the shapes a hostile brain wrote them.
WORDS = [
    "legal",
    "winner",
    "thank",
    "year",
    "wave",
    "sausage",
    "worth",
    "useful",
    "legal",
    "winner",
    "thank",
    "yellow",
]


def test_the_list_is_bip39_s_2048_words() -> None:
    words = seed_words()
    assert len(words) == 2048 and {"abandon", "zoo", "sausage"} <= words
    assert not {"the", "a", "is", "and", "to", "of"} & words


@pytest.mark.parametrize(
    "text",
    [
        " ".join(WORDS),
        "keep these words safe: " + " ".join(WORDS),
        " ".join(f"{i}. {w}" for i, w in enumerate(WORDS, 1)),
        ", ".join(WORDS[:6]) + ",\n" + ", ".join(WORDS[6:]),
        " ".join(WORDS).upper(),
        " ".join(WORDS * 2),
    ],
)
def test_an_unlabelled_phrase_is_blanked_whole(text: str) -> None:
    blanked = gate.blank_secrets(text)
    assert "[secret:seed-phrase]" in blanked
    assert not any(w in blanked.lower().split() for w in ("sausage", "wave", "worth"))
    refusal = gate.screen_text(text)
    assert refusal is not None and "seed-phrase" in refusal.rule_ids


def test_a_homoglyph_phrase_is_read_through_its_look_alikes() -> None:
    text = " ".join(WORDS).replace("a", "а")  # Cyrillic a
    assert "[secret:seed-phrase]" in gate.blank_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        " ".join(WORDS[: MIN_WORDS - 1]),  # eleven words: too few
        "We walked along the river and talked about the old house, the garden and the dog.",
        "legal winner thank year wave sausage the worth useful legal winner thank yellow",
        "word " * 40,  # listed, but one word over and over is no wallet
    ],
)
def test_prose_and_short_runs_are_kept(text: str) -> None:
    assert seed_phrases(text) == []
    assert gate.screen_text(text) is None
