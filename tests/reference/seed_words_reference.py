"""Pure-Python reference of rust/src/seedphrase.rs: the seed-phrase rule as Python's `re` reads
it (the module's form before the words moved to Rust), for the differential test."""

from __future__ import annotations

import re
from pathlib import Path

MIN_WORDS = 12
LIST = (
    Path(__file__).resolve().parents[2] / "python/shelldon/core/gate/gate_rules/bip39_english.txt"
)
_WORD = re.compile(r"[A-Za-z]+")
MAX_GAP = 16
_THREE_DIGITS = re.compile(r"\d{3}")


def _is_gap(gap: str) -> bool:
    """Up to 16 characters, no letter of any script, no run of three digits."""
    return (
        len(gap) <= MAX_GAP
        and not any(c.isalpha() for c in gap)
        and _THREE_DIGITS.search(gap) is None
    )


def _listed(word: str, listed: frozenset[str]) -> str | None:
    """ "word" (listed, or four letters that begin a listed word), "misspelt" (5 to 10 letters
    whose first four begin one), or None."""
    word = word.lower()
    if word in listed:
        return "word"
    named = [w for w in listed if w.startswith(word[:4])] if 4 <= len(word) <= 10 else []
    if not named:
        return None
    if len(word) == 4:
        return "word"
    inflected = word.startswith(named[0]) and word[len(named[0]) :] in ENDINGS
    return None if inflected else "misspelt"


ENDINGS = ("s", "es", "d", "ed", "ing", "er", "ers", "ly", "y")


def seed_words() -> frozenset[str]:
    text = LIST.read_text(encoding="utf-8")
    return frozenset(
        w for line in text.splitlines() if not line.startswith("#") for w in line.split()
    )


def seed_phrases(text: str) -> list[tuple[int, int]]:
    listed = seed_words()
    spans: list[tuple[int, int]] = []
    run: list[tuple[re.Match[str], bool]] = []

    def close() -> None:
        words = [m.group().lower() for m, _ in run]
        windows = [
            i
            for i in range(len(words) - MIN_WORDS + 1)
            if len(set(words[i : i + MIN_WORDS])) * 4 >= MIN_WORDS * 3
        ]
        if windows:
            spans.append((run[windows[0]][0].start(), run[windows[-1] + MIN_WORDS - 1][0].end()))

    for match in _WORD.finditer(text):
        kind = _listed(match.group(), listed)
        misspelt = kind == "misspelt"
        if kind and (not run or _is_gap(text[run[-1][0].end() : match.start()])):
            if misspelt and any(m for _, m in run):
                close()
                first = next(i for i, (_, m) in enumerate(run) if m)
                run = run[first + 1 :]
            run.append((match, misspelt))
            continue
        close()
        run = [(match, misspelt)] if kind else []
    close()
    return spans
