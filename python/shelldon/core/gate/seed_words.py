"""A wallet's seed phrase found by its words, with or without a label (issue 23).

A BIP-39 seed phrase is 12 to 24 words of one public list of 2048 (`gate_rules/bip39_english.txt`,
MIT). Ordinary prose almost never runs twelve of them in a row: the list has no "the", "a",
"is", "and", "to" or "of". So a run of at least 12 listed words, parted only by spaces, commas,
line breaks or a numbering ("1. legal 2. winner ..."), at least half of them different ("word
word word ..." is no wallet), is a seed phrase (rule `seed-phrase`, the
same class as the labelled one in secrets.toml); fewer, or one unlisted word among them, is prose.
"""

from __future__ import annotations

import re
from functools import cache

from shelldon.core.gate.rules import RULES_DIR

SEED_RULE_ID = "seed-phrase"
MIN_WORDS = 12

_WORD = re.compile(r"[A-Za-z]+")
# What may stand between two words of a phrase: spaces, commas, line breaks, a numbering.
_GAP = re.compile(r"[\s,;]*(?:\d{1,2}[.):]?[\s,;]*)?")


@cache
def seed_words() -> frozenset[str]:
    text = RULES_DIR.joinpath("bip39_english.txt").read_text(encoding="utf-8")
    words = [w for line in text.splitlines() if not line.startswith("#") for w in line.split()]
    return frozenset(words)


def seed_phrases(text: str) -> list[tuple[int, int]]:
    """Spans (characters) of runs of MIN_WORDS or more listed words in `text`."""
    listed = seed_words()
    spans: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []
    for match in _WORD.finditer(text):
        ok = match.group().lower() in listed
        if ok and (not run or _GAP.fullmatch(text, run[-1].end(), match.start()) is not None):
            run.append(match)
            continue
        _close(run, spans)
        run = [match] if ok else []
    _close(run, spans)
    return spans


def _close(run: list[re.Match[str]], spans: list[tuple[int, int]]) -> None:
    distinct = {m.group().lower() for m in run}
    if len(run) >= MIN_WORDS and len(distinct) * 2 >= MIN_WORDS:
        spans.append((run[0].start(), run[-1].end()))
