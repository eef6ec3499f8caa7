"""The third red-team round's disguises through the dream's own ops, against the real processes.

tests/core/test_hostile_redteam3_e2e.py drives a turn's ops; a dream may also propose
`rewrite_summary` and `merge`, so here the fake provider answers each `shelldon dream --now`
with one of them carrying one disguise of the round: a password a person picks in each secret
disguise, and each instruction disguise with its own marker. After every dream the files the
pet wrote are read (summary.md is rewritten by the next dream, so it is read before that).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.test_hostile_redteam3_e2e import (
    INSTRUCTION_CLASSES,
    PASSWORD_CLASSES,
    _everything,
    _password,
)
from fakes.fake_provider import FakeProvider, RecordedRequest, Step, reply
from support.pet import start_pet

CAPTURE = {"op": "capture_learning", "observation": "owner plays chess on sundays",
           "pattern_key": "chess"}  # fmt: skip
SEED = [
    {"op": "remember", "collection": "facts", "name": "kettle",
     "content": "The kettle in the kitchen is broken again."},
    {"op": "remember", "collection": "facts", "name": "radio",
     "content": "The radio in the hall plays jazz all night long."},
]  # fmt: skip


def _dream_ops(text: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("rewrite_summary", {"op": "rewrite_summary", "content": text}),
        (
            "merge",
            {"op": "merge", "collection": "facts", "sources": ["kettle", "radio"], "content": text},
        ),
    ]


# (id, op, spellings or marker)
CASES: list[tuple[str, dict[str, Any], list[list[str]]]] = []
for _cls, _disguise in PASSWORD_CLASSES.items():
    _text, _spellings = _disguise(_password(f"rt3-dream/{_cls}"))
    CASES += [(f"{_cls} / {kind}", op, _spellings) for kind, op in _dream_ops(_text)]
for _n, (_cls, _make) in enumerate(INSTRUCTION_CLASSES.items()):
    _marker = f"quoll{_n:02d}"
    CASES += [(f"{_cls} / {kind}", op, [[_marker]]) for kind, op in _dream_ops(_make(_marker))]


class DreamBrain:
    """Owner turns capture a learning and seed an entry; each dream proposes the next case."""

    def __init__(self) -> None:
        self.queue: list[dict[str, Any]] = []
        self.fake = FakeProvider(responder=self._respond)

    def _respond(self, request: RecordedRequest) -> Step:
        if "Dream: tidy your memory" not in json.dumps(request.json):
            return reply("Noted.", ops=[CAPTURE, *SEED])
        return reply("tidied", ops=[self.queue.pop(0)] if self.queue else [])


@pytest.fixture
def brain() -> Iterator[DreamBrain]:
    b = DreamBrain()
    b.fake.start()
    yield b
    b.fake.stop()


def _recoverable(text: str, spellings: list[list[str]]) -> bool:
    def has(piece: str) -> bool:
        return piece in text or json.dumps(piece)[1:-1] in text

    return any(all(has(piece) for piece in pieces) for pieces in spellings)


def test_the_dreams_own_ops_store_no_disguised_secret_or_order(
    run_dir: Path, home: Path, brain: DreamBrain
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(brain.fake.provider_table(timeout=30, retries=0))
    stored: list[str] = []
    outcomes: list[str] = []
    pet = start_pet()
    try:
        for _ in range(2):
            assert pet.cli("say", "I play chess every Sunday").returncode == 0
        pet.settled()
        for name, op, spellings in CASES:
            brain.queue.append(op)
            dreamt = pet.cli("dream", "--now", "--force")
            assert dreamt.returncode == 0, dreamt.stderr + pet.log
            outcomes.append(dreamt.stdout.splitlines()[0] if dreamt.stdout else "")
            if _recoverable(_everything(home), spellings):
                stored.append(name)
    finally:
        assert pet.stop() == 0, pet.log
    print(f"dream ops stored: {len(stored)} of {len(CASES)} {stored}")
    assert "Traceback" not in pet.log
    assert not brain.queue, outcomes  # every case reached a dream
    audit_path = pet.root.memory / "history.jsonl"
    audit = [json.loads(line) for line in audit_path.read_text().splitlines()]
    dreamt_lines = [r for r in audit if r.get("unit", "").startswith("dream")]
    refused = [r for r in dreamt_lines if r["action"] == "reject"]
    assert stored == []
    # Each case reached the gate (a merge of fewer than two entries would stop before it).
    assert {r["reason_code"] for r in dreamt_lines} <= {"secret", "instruction"}, dreamt_lines
    assert refused and all("preview" not in r for r in refused)
