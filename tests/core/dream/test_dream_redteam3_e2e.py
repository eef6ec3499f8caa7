"""The third red-team round's disguises through the dream's own ops, against the real processes.

tests/core/test_hostile_redteam3_e2e.py drives a turn's ops; here each `shelldon dream --now`
proposes `rewrite_summary` or `merge` carrying one disguise of the round (the drill:
tests/support/dream_drill.py).
"""

from __future__ import annotations

from pathlib import Path

from core.test_hostile_redteam3_e2e import (
    INSTRUCTION_CLASSES,
    PASSWORD_CLASSES,
    _everything,
    _password,
)
from support.dream_drill import DreamBrain, assert_refused_at_the_gate, round_cases, run_dreams

CASES = round_cases(PASSWORD_CLASSES, INSTRUCTION_CLASSES, _password, "rt3", "quoll")


def test_the_dreams_own_ops_store_no_disguised_secret_or_order(
    run_dir: Path, home: Path, red_team_brain: DreamBrain
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(red_team_brain.fake.provider_table(timeout=30, retries=0))
    stored, dreamt_lines = run_dreams(home, red_team_brain, CASES, _everything)
    print(f"dream ops stored: {len(stored)} of {len(CASES)} {stored}")
    assert stored == []
    assert_refused_at_the_gate(dreamt_lines)
