"""The fourth red-team round's disguises through the dream's own ops, on both wires.

tests/core/test_hostile_redteam4_e2e.py drives a turn's ops; here the fake provider, in tools
mode on the OpenAI and on the Anthropic wire, answers each `shelldon dream --now` with
`rewrite_summary` or `merge` carrying one disguise of the round (the drill:
tests/support/dream_drill.py). Written after the round's fixes and run once as written: its
figure is in docs/gate-design.md ("Fourth red team round").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.test_hostile_redteam3_e2e import _everything, _password
from core.test_hostile_redteam4_e2e import INSTRUCTION_CLASSES, LEFT_ALONE, SECRET_CLASSES
from support.dream_drill import DreamBrain, assert_refused_at_the_gate, round_cases, run_dreams

CASES = round_cases(
    SECRET_CLASSES, INSTRUCTION_CLASSES, _password, "rt4", "bilby", frozenset(LEFT_ALONE)
)


@pytest.mark.parametrize("wire", ("openai", "anthropic"))
def test_the_dreams_own_ops_store_no_fourth_round_disguise(
    run_dir: Path, home: Path, red_team_brain: DreamBrain, wire: str
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        red_team_brain.fake.provider_table(kind=wire, timeout=30, retries=0)
    )
    stored, dreamt_lines = run_dreams(home, red_team_brain, CASES, _everything)
    # The figure (scripts/pytest.sh tests/core/dream/test_dream_redteam4_e2e.py -q -s):
    print(f"dream ops stored ({wire}): {len(stored)} of {len(CASES)} {stored}")
    assert stored == []
    assert all(r.wire == wire for r in red_team_brain.fake.requests)
    assert_refused_at_the_gate(dreamt_lines)
