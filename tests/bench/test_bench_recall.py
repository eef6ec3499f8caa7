"""History recall at 100k generated messages (Zipf-distributed words, so common words are common):
recall now against a plain ranked MATCH of every word and against the search before step 11, per
kind of query. Compare within a group (one run): the ratios matter. `just bench -k recall`.

The generator and the old search are the report scripts' (scripts/recall_scale.py,
scripts/recall_report.py), so the benchmark and the figures in docs/recall.md measure one thing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from shelldon.core.history.store import open_readonly
from support.scripts import load_script

ROWS = 100_000


SCALE = load_script("recall_scale")
REPORT = load_script("recall_report")
QUERIES = {
    "rare": SCALE.QUERIES["rare word among common ones"],
    "common": SCALE.QUERIES["only common words"],
    "mid": SCALE.mid_query(),
}


@pytest.fixture(scope="module")
def history_100k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("recall-bench") / "history.db"
    SCALE.fill(db, ROWS).close()
    REPORT.add_baseline_index(db)
    return db


def _methods(db: Path) -> dict[str, Callable[[str, int], list[int]]]:
    reader = open_readonly(db)
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    return {
        "recall": lambda q, n: [r["id"] for r in reader.search(q, n)],
        "plain": REPORT.BASELINES["fts5 porter OR, bm25"](conn),
        "before": REPORT.before_step_11(conn),
    }


@pytest.mark.parametrize("method", ["recall", "plain", "before"])
@pytest.mark.parametrize("kind", list(QUERIES))
def test_bench_recall_100k(benchmark, history_100k: Path, kind: str, method: str) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = f"recall-100k-{kind}"
    search = _methods(history_100k)[method]
    hits = benchmark(search, QUERIES[kind], 10)
    assert len(hits) == 10
