"""The fourth red-team round's disguises through the dream's own ops, on both wires.

tests/core/test_hostile_redteam4_e2e.py drives a turn's ops; a dream may also propose
`rewrite_summary` and `merge`, so here the fake provider, in tools mode on the OpenAI and on the
Anthropic wire, answers each `shelldon dream --now` with one of them carrying one disguise of the
round: a password a person picks in each secret disguise, and each instruction disguise with its
own marker. After every dream the files the pet wrote are read. Written after the round's fixes
and run once as written: its figure is in docs/gate-design.md ("Fourth red team round").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.dream.test_dream_redteam3_e2e import DreamBrain, _dream_ops, _recoverable, brain
from core.test_hostile_redteam3_e2e import _everything, _password
from core.test_hostile_redteam4_e2e import INSTRUCTION_CLASSES, LEFT_ALONE, SECRET_CLASSES
from support.pet import start_pet

__all__ = ["brain"]  # the fixture, imported so that pytest finds it here

# (id, op, spellings or marker)
CASES: list[tuple[str, dict[str, Any], list[list[str]]]] = []
for _cls, _disguise in SECRET_CLASSES.items():
    _text, _spellings = _disguise(_password(f"rt4-dream/{_cls}"))
    CASES += [(f"{_cls} / {kind}", op, _spellings) for kind, op in _dream_ops(_text)]
for _n, (_cls, _make) in enumerate(INSTRUCTION_CLASSES.items()):
    if _cls in LEFT_ALONE:
        continue
    _marker = f"bilby{_n:02d}"
    CASES += [(f"{_cls} / {kind}", op, [[_marker]]) for kind, op in _dream_ops(_make(_marker))]


@pytest.mark.parametrize("wire", ("openai", "anthropic"))
def test_the_dreams_own_ops_store_no_fourth_round_disguise(
    run_dir: Path, home: Path, brain: DreamBrain, wire: str
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(brain.fake.provider_table(kind=wire, timeout=30, retries=0))
    stored: list[str] = []
    pet = start_pet()
    try:
        for _ in range(2):
            assert pet.cli("say", "I play chess every Sunday").returncode == 0
        pet.settled()
        for name, op, spellings in CASES:
            brain.queue.append(op)
            dreamt = pet.cli("dream", "--now", "--force")
            assert dreamt.returncode == 0, dreamt.stderr + pet.log
            if _recoverable(_everything(home), spellings):
                stored.append(name)
    finally:
        assert pet.stop() == 0, pet.log
    # The figure (scripts/pytest.sh tests/core/dream/test_dream_redteam4_e2e.py -q -s):
    print(f"dream ops stored ({wire}): {len(stored)} of {len(CASES)} {stored}")
    assert "Traceback" not in pet.log
    assert not brain.queue  # every case reached a dream
    assert all(r.wire == wire for r in brain.fake.requests)
    audit_path = pet.root.memory / "history.jsonl"
    audit = [json.loads(line) for line in audit_path.read_text().splitlines()]
    dreamt_lines = [r for r in audit if r.get("unit", "").startswith("dream")]
    assert stored == []
    # Each case reached the gate (a merge of fewer than two entries would stop before it).
    assert {r["reason_code"] for r in dreamt_lines} <= {"secret", "instruction"}, dreamt_lines
    assert [r for r in dreamt_lines if r["action"] == "reject"]
    assert all("preview" not in r for r in dreamt_lines if r["action"] == "reject")
