"""The worker's whole read (`gather_context`) and history recall against history size.

- `context-<rows>`: gather_context at 200 curated entries (half of them replaced once, so the
  superseded files stay in the tree) reading core's entry terms ("terms", what a worker does now)
  against parsing and tokenising the tree itself ("tree", the read before): the ratio is the point.
- `recall-<rows>-<kind>`: `HistoryReader.search` alone, a common-word and a rare-word question,
  its passages scored in Rust ("rust", rust/src/passages.rs, what recall does now) against the
  pure-Python scoring it replaced ("python", tests/reference/passages.py).

History sizes: 10k and 100k messages; add 1M with SHELLDON_BENCH_ROWS=10000,100000,1000000 (the
1M store takes minutes to generate: it is built once per run, in a temporary directory shared by
every benchmark of the run). Generator and figures: scripts/context_scale.py, docs/performance.md.
Skipped in `just test` (--benchmark-skip); `just bench -k context`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from reference import passages as recall_reference
from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore, open_readonly
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.retrieval.terms import TermsSync
from shelldon.paths import DataRoot
from shelldon.worker.prompt import PromptLimits, _select_memory, gather_context
from support.scripts import load_script

ROWS = [int(r) for r in os.environ.get("SHELLDON_BENCH_ROWS", "10000,100000").split(",")]
ENTRIES = 200

SCALE = load_script("context_scale")
RECALL = load_script("recall_scale")


@pytest.fixture(scope="session")
def histories(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Generated on first use, one per size, for the whole run."""
    return {}


def _history(histories: dict[int, Path], base: Path, rows: int) -> Path:
    if rows not in histories:
        db = base / f"history-{rows}.db"
        RECALL.fill(db, rows).close()
        histories[rows] = db
    return histories[rows]


@pytest.fixture(scope="session")
def roots(
    tmp_path_factory: pytest.TempPathFactory, histories: dict[int, Path]
) -> dict[int, DataRoot]:
    return {}


def _root(
    roots: dict[int, DataRoot], histories: dict[int, Path], base: Path, rows: int
) -> DataRoot:
    if rows not in roots:
        root = DataRoot(base / f"home-{rows}")
        root.home.mkdir(parents=True)
        SCALE.seed_entries(root, ENTRIES, 0.5)
        shutil.copyfile(_history(histories, base, rows), root.history_db)
        store = HistoryStore.open(root.history_db)
        try:
            TermsSync(CuratedMemory(root.memory)).sync(store)
        finally:
            store.close()
        roots[rows] = root
    return roots[rows]


@pytest.mark.parametrize("read", ["terms", "tree"])
@pytest.mark.parametrize("rows", ROWS)
def test_bench_gather_context(  # type: ignore[no-untyped-def]
    benchmark,
    tmp_path_factory: pytest.TempPathFactory,
    histories: dict[int, Path],
    roots: dict[int, DataRoot],
    rows: int,
    read: str,
) -> None:
    benchmark.group = f"context-{rows}"
    base = tmp_path_factory.getbasetemp() / "context-bench"
    base.mkdir(exist_ok=True)
    root = _root(roots, histories, base, rows)
    limits = PromptLimits()
    select = None if read == "terms" else _select_memory
    queries = iter(range(10**9))

    def turn() -> object:
        query = SCALE.QUERIES[next(queries) % 2]
        return gather_context(root, query, limits=limits, now=SCALE.NOW, select_memory=select)

    request = benchmark(turn)
    assert any(s.kind == "memory" for s in request.sections)


@pytest.mark.parametrize("scoring", ["rust", "python"])
@pytest.mark.parametrize("kind", ["common", "rare"])
@pytest.mark.parametrize("rows", ROWS)
def test_bench_recall(  # type: ignore[no-untyped-def]
    benchmark,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    histories: dict[int, Path],
    rows: int,
    kind: str,
    scoring: str,
) -> None:
    benchmark.group = f"recall-{rows}-{kind}"
    if scoring == "python":
        monkeypatch.setattr(recall, "_rank_passages", recall_reference.rank_passages)
    base = tmp_path_factory.getbasetemp() / "context-bench"
    base.mkdir(exist_ok=True)
    reader = open_readonly(_history(histories, base, rows))
    query = RECALL.QUERIES[
        "only common words" if kind == "common" else "rare word among common ones"
    ]
    try:
        hits = benchmark(reader.search, query, 10)
    finally:
        reader.close()
    assert hits, "the budget must never make recall empty below 1M messages"
