"""Wallet seed phrases found by their words (gate.seed_words), labelled or not, and prose kept."""

from __future__ import annotations

import random

import pytest

from reference import seed_words_reference as reference
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
    assert words == reference.seed_words()  # the list Rust compiled in is the file's
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


def test_the_scan_reads_words_and_gaps_as_python_s_re_does() -> None:
    words = sorted(seed_words())
    rng = random.Random(23)
    # Gaps the rule takes and gaps it refuses, with Python's \s and \d beyond ASCII
    # (U+001C is space to Python and not to Unicode; Arabic-Indic three is a digit).
    gaps = [" ", ", ", ",", "\n", ";", "  ", " 1. ", "\t", "\x1c", "\xa0", " 12) ", "\u2003"]
    gaps += [" 123 ", " - ", "\u0663.", ".", "", " a ", "\u00b2 ", " | 3 | ", '", "', "/", "-" * 17]
    others = ["the", "Ключ", "WORD", "x1", "é", "\ud800", "abandonment", "saus", "sausagee", "yel"]
    others += ["waves", "waved", "abandons"]
    found = 0
    for _ in range(3000):
        parts: list[str] = []
        for _ in range(rng.randint(1, 40)):
            word = rng.choice(words) if rng.random() < 0.9 else rng.choice(others)
            parts += [word.upper() if rng.random() < 0.1 else word]
            parts += [rng.choice(gaps) if rng.random() < 0.3 else " "]
        text = "".join(parts)
        expected = reference.seed_phrases(text)
        assert seed_phrases(text) == expected, repr(text)
        found += bool(expected)
    assert found > 300  # the texts hold phrases, not only prose
