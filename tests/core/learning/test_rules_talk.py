"""Rule capture tells a standing instruction to the pet from a sentence about the owner's life
that starts with always/never; file names and versions stay whole; the false captures on
LoCoMo's long conversations (locomo_26 tuned on, locomo_30 held back) stay at zero."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shelldon.core.owner_rules import extract_rules, parse_rule

INSTRUCTIONS = [
    ("always answer briefly", "always"),
    ("Never call me before 9", "never"),
    ("never text me after 10pm", "never"),
    ("Always reply in Portuguese.", "always"),
    ("always remind me twice", "always"),
    ("never use exclamation marks", "never"),
    ("Never wake me on Sundays!", "never"),
    ("always give me the short version", "always"),
    ("never bring up my ex", "never"),
    ("Always greet me by name", "always"),
    ("always keep your answers under three lines", "always"),
    ("Never push to main directly.", "never"),
    ("always run the linter before committing", "always"),
]

TALK = [
    "Never tried it, but it's on my list for next summer",
    "Never give up!",
    "never say never",
    "Always wanted to go to Japan",
    "Never looked back since",
    "Always loved the sea",
    "never heard of it",
    "Always been a night owl",
    "Never in my life",
    "always so much to do",
    "Never eat before a run, it's my golden rule",
    "always nice to see the sun",
    "Never stop believing in yourself",
    "never too late to learn",
]


@pytest.mark.parametrize(("said", "kind"), INSTRUCTIONS)
def test_a_standing_instruction_to_the_pet_is_a_rule(said: str, kind: str) -> None:
    rule = parse_rule(said)
    assert rule is not None and rule.kind == kind


@pytest.mark.parametrize("said", TALK)
def test_a_sentence_about_the_owners_life_is_talk(said: str) -> None:
    assert parse_rule(said) is None
    assert extract_rules(f"Oh nice. {said}. See you") == []


def test_file_names_and_versions_are_kept_whole() -> None:
    [rule] = extract_rules("Always run check_tests.py before you commit. Thanks")
    assert rule.text == "Always run check_tests.py before you commit."
    rules = extract_rules("never suggest Python 3.11; always use 3.12.")
    assert [r.text for r in rules] == ["Never suggest Python 3.11.", "Always use 3.12."]
    assert [r.text for r in extract_rules("always use 3.12. never swear")] == [
        "Always use 3.12.",
        "Never swear.",
    ]


def _messages(path: Path) -> list[str]:
    data = json.loads(path.read_text())
    return [
        turn["text"]
        for key, session in data.items()
        if re.fullmatch(r"session_\d+", key)
        for turn in session
    ]


@pytest.mark.parametrize("conversation", ["locomo_26", "locomo_30"])
def test_long_real_conversations_state_no_rule(shared_data: Path, conversation: str) -> None:
    """Two friends talking for months never give the pet an instruction: every capture here is
    false. locomo_26 was tuned on; locomo_30 was held back (docs/memory.md)."""
    messages = _messages(shared_data / "memory" / f"{conversation}.json")
    captured = [(m, [r.text for r in extract_rules(m)]) for m in messages if extract_rules(m)]
    assert len(messages) > 300
    assert captured == []
