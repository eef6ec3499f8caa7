"""The eval's prompt-reaching measurement (scripts/prompt_reach.py): a small synthetic conversation
in LoCoMo's shape, built through the real write path and asked through the worker's own prompt
assembly; then, when ../shared/data is present, making room against refusing on the held-out
conversation."""

from __future__ import annotations

import json
from pathlib import Path

from shelldon.core.gate import Limits
from support.scripts import load_script


def _conversation(path: Path) -> Path:
    lines = [
        ("Ana", "D1:1", "I adopted a greyhound called Biscuit last week."),
        ("Bo", "D1:2", "What a lovely name for a dog!"),
        ("Ana", "D1:3", "My sister Lena is moving to Porto in June."),
        ("Bo", "D1:4", "Porto is beautiful in summer."),
        ("Ana", "D1:5", "I also started learning the cello."),
        ("Bo", "D1:6", "Music is good for the soul."),
    ]
    data = {
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": s, "dia_id": d, "text": t} for s, d, t in lines],
        },
        "session_1_observation": {
            "Ana": [
                ["Ana adopted a greyhound named Biscuit.", "D1:1"],
                ["Ana's sister Lena is moving to Porto in June.", "D1:3"],
                ["Ana started learning to play the cello.", "D1:5"],
            ]
        },
        "qa": [
            {
                "question": "What is the name of Ana's greyhound?",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {"question": "Where is Lena moving?", "evidence": ["D1:3"], "category": 4},
            {"question": "Which instrument does Ana learn?", "evidence": ["D1:5"], "category": 1},
            {"question": "Something adversarial", "evidence": ["D1:2"], "category": 5},
        ],
    }
    path.write_text(json.dumps(data))
    return path


def test_the_evidence_is_found_in_the_assembled_prompt(tmp_path: Path) -> None:
    reach = load_script("prompt_reach")
    source = _conversation(tmp_path / "synthetic.json")
    setup = reach.Setup("making room", make_room=True)
    built = reach.build(source, tmp_path, setup)
    assert len(built.questions) == 3  # category 5 is not answerable
    assert built.written == {"created": 3}
    result = reach.measure(built, reach.PromptLimits())
    assert result.total == 3
    assert result.rate("curated in full") == 1.0
    assert result.rate("reaches") == 1.0
    assert result.rate("archive") == 0.0
    # No history recall at all: the evidence still reaches the prompt through memory.
    no_history = reach.measure(built, reach.PromptLimits(recall_k=0, recent_window=0))
    assert no_history.rate("history") == 0.0 and no_history.rate("memory") == 1.0


def test_a_full_kind_refused_facts_before_and_keeps_them_now(tmp_path: Path) -> None:
    reach = load_script("prompt_reach")
    source = _conversation(tmp_path / "synthetic.json")
    tiny = Limits(collection_cap=1)
    no_history = reach.PromptLimits(recall_k=0, recent_window=0)
    before = reach.build(source, tmp_path / "a", reach.Setup("before", False, tiny))
    # Lena's fact is routed to people/ only when making room; before, two of three are refused.
    assert before.written.get("collection_full") == 2
    refused = reach.measure(before, no_history)
    now = reach.build(source, tmp_path / "b", reach.Setup("now", True, tiny))
    assert "collection_full" not in now.written
    kept = reach.measure(now, no_history)
    assert refused.rate("memory") < kept.rate("memory") == 1.0
    assert kept.rate("archive") > 0.0


def test_making_room_brings_more_evidence_to_the_prompt_on_locomo(
    shared_data: Path, tmp_path: Path
) -> None:
    reach = load_script("prompt_reach")
    source = shared_data / "memory" / "locomo_30.json"  # held out
    before_setup, _, room_setup = reach.SETUPS
    before = reach.build(source, tmp_path, before_setup)
    assert before.written.get("collection_full", 0) > 100
    now = reach.build(source, tmp_path, room_setup)
    assert "collection_full" not in now.written
    limits = reach.PromptLimits()
    old, new = reach.measure(before, limits), reach.measure(now, limits)
    assert new.rate("memory") >= old.rate("memory") + 0.15
    assert new.rate("reaches") >= old.rate("reaches")
