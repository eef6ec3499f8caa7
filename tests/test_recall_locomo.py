"""History recall brings the evidence back on long real conversations (LoCoMo, third-party data).

The floor below is what the two-stage search measured when it was tuned (docs/recall.md); a change
that makes recall worse fails here. The data is read from ../shared/data and never copied.
"""

from __future__ import annotations

from pathlib import Path

from support.scripts import load_script

FLOOR_TOP_6 = 0.45
FLOOR_TOP_20 = 0.58


def test_evidence_comes_back_on_locomo(shared_data: Path) -> None:
    report = load_script("recall_report")
    results = report.run(shared_data / "memory")
    questions = sum(r.questions for r in results)
    assert questions > 200  # both conversations, answerable categories only
    top6 = sum(r.hits[6] for r in results) / questions
    top20 = sum(r.hits[20] for r in results) / questions
    assert top6 >= FLOOR_TOP_6, f"evidence in top 6: {top6:.3f}"
    assert top20 >= FLOOR_TOP_20, f"evidence in top 20: {top20:.3f}"
