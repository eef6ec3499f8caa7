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
_GAP = re.compile(r"[\s,;]*(?:\d{1,2}[.):]?[\s,;]*)?")


def seed_words() -> frozenset[str]:
    text = LIST.read_text(encoding="utf-8")
    return frozenset(
        w for line in text.splitlines() if not line.startswith("#") for w in line.split()
    )


def seed_phrases(text: str) -> list[tuple[int, int]]:
    listed = seed_words()
    spans: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        distinct = {m.group().lower() for m in run}
        if len(run) >= MIN_WORDS and len(distinct) * 2 >= MIN_WORDS:
            spans.append((run[0].start(), run[-1].end()))

    for match in _WORD.finditer(text):
        ok = match.group().lower() in listed
        if ok and (not run or _GAP.fullmatch(text, run[-1].end(), match.start()) is not None):
            run.append(match)
            continue
        close()
        run = [match] if ok else []
    close()
    return spans
