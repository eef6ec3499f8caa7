"""History recall brings the evidence back on long real conversations (LoCoMo, third-party data).

The floor below is what the two-stage search measured when it was tuned (docs/recall.md); a change
that makes recall worse fails here. The data is read from ../shared/data and never copied.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "recall_report.py"
FLOOR_TOP_6 = 0.45
FLOOR_TOP_20 = 0.58


def _report() -> ModuleType:
    spec = importlib.util.spec_from_file_location("recall_report", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["recall_report"] = module
    spec.loader.exec_module(module)
    return module


def test_evidence_comes_back_on_locomo(shared_data: Path) -> None:
    report = _report()
    results = report.run(shared_data / "memory")
    questions = sum(r.questions for r in results)
    assert questions > 200  # both conversations, answerable categories only
    top6 = sum(r.hits[6] for r in results) / questions
    top20 = sum(r.hits[20] for r in results) / questions
    assert top6 >= FLOOR_TOP_6, f"evidence in top 6: {top6:.3f}"
    assert top20 >= FLOOR_TOP_20, f"evidence in top 20: {top20:.3f}"
