"""A wallet's seed phrase found by its words, with or without a label (issue 23).

A BIP-39 seed phrase is 12 to 24 words of one public list of 2048 (`gate_rules/bip39_english.txt`,
MIT). Ordinary prose almost never runs twelve of them in a row: the list has no "the", "a",
"is", "and", "to" or "of". So a run of at least 12 listed words, three in four of them
different (a wallet's words rarely repeat; prose that runs listed words repeats its own: "they
exercise more, they travel more, they laugh more"), is a seed phrase (rule `seed-phrase`, the
same class as the labelled one in secrets.toml), judged on each 12 in a row (a phrase said twice
is a phrase); fewer, or one unlisted word among them, is prose.

What parts two words is up to 16 characters with no letter and no run of three digits: spaces,
commas, line breaks, a numbering ("1. legal 2. winner", "(2) winner"), a table's pipes, quotes
(a JSON list), dashes or slashes. A word is listed whole, or by its first four letters, which
BIP-39 makes unique and wallets read alone: "lega winn than" (the short form) is a phrase, and so
is a phrase with one word misspelt ("sausagee"; a second misspelt word parts the run). A listed
word with an ending English adds ("diets", "waved", "abandons") is prose, not a typo (issue 23,
tenth pass).

The words are read in Rust (`rust/src/seedphrase.rs`, the list compiled into the extension): as a
Python frozenset the list cost core about 0.25 MB for as long as it ran (docs/performance.md).
"""

from __future__ import annotations

import re

from shelldon import _native

SEED_RULE_ID = "seed-phrase"
MIN_WORDS = 12

# A lone surrogate cannot cross into Rust as UTF-8; one U+FFFD in its place keeps every index.
_SURROGATE = re.compile("[\ud800-\udfff]")


def seed_words() -> frozenset[str]:
    """The 2048 listed words (a fresh set: callers are tests and scripts, not the hot path)."""
    return frozenset(_native.seed_words())


def seed_word_runs(text: str, min_words: int) -> list[tuple[int, int]]:
    """Spans of runs of `min_words` or more listed words, read as a phrase's are but whatever
    their repeats: the parts of a phrase cut across fields or writes (gate.pieces)."""
    try:
        return _native.seed_word_runs(text, min_words)
    except UnicodeEncodeError:
        return _native.seed_word_runs(_SURROGATE.sub("\ufffd", text), min_words)


def seed_phrases(text: str) -> list[tuple[int, int]]:
    """Spans (characters) of runs of MIN_WORDS or more listed words in `text`: a word is a run of
    ASCII letters, and what may part two words of a phrase is up to 16 characters with no letter
    and no run of three digits (the module's docstring)."""
    try:
        return _native.seed_phrase_spans(text)
    except UnicodeEncodeError:
        return _native.seed_phrase_spans(_SURROGATE.sub("\ufffd", text))
