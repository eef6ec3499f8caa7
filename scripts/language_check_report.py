"""How the reply check's language signal (shelldon.contracts.languages) does on third-party text.

Owners are LoCoMo speakers (../shared/data/memory, English conversations): the profile is built
from one speaker's first messages, as history.db would hold them, at several history sizes.
Replies that must pass: the other speaker's messages (English, other words, other names) and
SmolLM2's real replies (tests/fixtures/live_model) that the rest of the reply check lets through.
Replies that must be refused: the non-English rows of ../shared/data/gate/injection.jsonl
(German, Spanish, French, Italian, Chinese, Russian, picked out by their script or by a handful
of function words: the check never picks its own test set).

Tuned on conversation 26 and the first half of the foreign rows; `--heldout` measures on
conversation 30 and the second half. Prints, per history size, how many English replies were
refused (false alarms) and how many foreign ones were caught.

    .venv/bin/python scripts/language_check_report.py [--heldout]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from shelldon.broker.reply_check import unusable_reason
from shelldon.contracts.languages import (
    coverage,
    foreign_reason,
    owner_profile,
)

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
FIXTURE = REPO / "tests" / "fixtures" / "live_model" / "smollm2-135m.json"
_FOREIGN_WORDS = {
    "de": r"\b(und|der|die|das|nicht|ist|ich|sie)\b",
    "es": r"\b(que|los|las|una|por|como|para)\b",
    "fr": r"\b(les|des|est|une|pas|vous|pour)\b",
    "it": r"\b(che|non|sono|della|il|per)\b",
    "pt": r"\b(não|você|uma|que|os|para)\b",
}
_ENGLISH = r"\b(the|and|you|is|to|of|in|it)\b"


def conversation(number: int) -> list[tuple[str, str]]:
    data = json.loads((DATA / "memory" / f"locomo_{number}.json").read_text())
    turns: list[tuple[str, str]] = []
    index = 1
    while f"session_{index}" in data:
        turns += [(t["speaker"], t["text"]) for t in data[f"session_{index}"]]
        index += 1
    return turns


def foreign_rows() -> list[str]:
    rows: list[str] = []
    for line in (DATA / "gate" / "injection.jsonl").read_text().splitlines():
        text = json.loads(line)["text"]
        if re.search(r"[\u0400-\u04ff\u4e00-\u9fff]", text):
            rows.append(text)
            continue
        english = len(re.findall(_ENGLISH, text, re.IGNORECASE))
        for pattern in _FOREIGN_WORDS.values():
            hits = len(re.findall(pattern, text, re.IGNORECASE))
            if hits >= 3 and hits > english:
                rows.append(text)
                break
    return rows


def model_replies() -> list[str]:
    if not FIXTURE.exists():
        return []
    replies = []
    for record in json.loads(FIXTURE.read_text()):
        message = (record.get("answer") or {}).get("choices", [{}])[0].get("message", {})
        if isinstance(message.get("content"), str) and message["content"].strip():
            replies.append(message["content"])
    return replies


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--coverages", action="store_true", help="print each reply's coverage")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"no {DATA}: nothing to measure", file=sys.stderr)
        return 1
    turns = conversation(30 if args.heldout else 26)
    owner_name = turns[0][0]
    owner = [text for speaker, text in turns if speaker == owner_name]
    other = [text for speaker, text in turns if speaker != owner_name]
    foreign = foreign_rows()
    half = len(foreign) // 2
    foreign = foreign[half:] if args.heldout else foreign[:half]
    # SmolLM2's replies that the rest of the reply check refuses anyway (transcripts, echoes)
    # are left out: a false alarm counts only where the owner would otherwise have read it.
    english = other + [t for t in model_replies() if unusable_reason(t) is None]
    print(
        f"owner {owner_name}: {len(owner)} messages; {len(english)} English replies "
        f"({len(other)} the other speaker's, {len(english) - len(other)} SmolLM2's); "
        f"{len(foreign)} foreign rows"
    )
    for size in (5, 15, 30, 60, 150, 400):
        profile = owner_profile(owner[:size])
        letters = sum(profile.scripts.values())
        false_alarms = [t for t in english if foreign_reason(t, profile)]
        caught = [t for t in foreign if foreign_reason(t, profile)]
        print(
            f"history {size:>3} messages ({letters:>6} letters): English refused "
            f"{len(false_alarms)}/{len(english)}, foreign caught {len(caught)}/{len(foreign)}"
        )
        for text in false_alarms[:3]:
            print(f"    false alarm: {text[:90]!r}")
        if args.coverages:
            grams = frozenset(profile.trigrams)
            for label, texts in (("en", english[:40]), ("xx", foreign)):
                for text in texts:
                    words = re.findall(r"\w+", text)
                    share = coverage(words, grams)
                    shown = "-" if share is None else f"{share:.2f}"
                    print(f"    {label} {shown} {text[:60]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
