"""The pure-Python passage ranking `shelldon.core.history.recall` did before it moved to Rust
(rust/src/passages.rs): whole rows tokenized by sqlite, counted and scored in Python. Same
inputs and output as `recall._rank_passages`, for the test that the two agree
(tests/core/history/test_recall_scoring.py) and the benchmark of the two
(tests/bench/test_bench_context.py)."""

from __future__ import annotations

import sqlite3
from typing import Any

from shelldon.core.history import recall, recall_dates


def normalised_tf(
    tokenizer: Any,
    rows: dict[int, tuple[Any, ...]],
    weights: dict[str, float],
    avg_len: float,
    tuning: recall.Tuning,
) -> dict[int, dict[str, float]]:
    counts: dict[int, dict[str, float]] = {i: {} for i in rows}
    for doc, term in tokenizer.terms([(i, r[3]) for i, r in rows.items()], weights):
        per = counts[int(doc)]
        per[str(term)] = per.get(str(term), 0) + 1
    for i, per in counts.items():
        length = len(rows[i][3].split()) or 1
        norm = 1 - tuning.b + tuning.b * length / avg_len
        for t in per:
            per[t] /= norm
    return counts


def bm25(tf: dict[str, float], weights: dict[str, float], k1: float) -> float:
    return sum(weights[t] * x * (k1 + 1) / (k1 + x) for t, x in tf.items())


def rank_passages(
    conn: sqlite3.Connection,
    tokenizer: Any,
    rows: dict[int, tuple[Any, ...]],
    weights: dict[str, float],
    avg_len: float,
    top: int,
    window: recall_dates.DateWindow | None,
    n: int,
    tuning: recall.Tuning,
) -> list[tuple[Any, ...]]:
    tfs = normalised_tf(tokenizer, rows, weights, avg_len, tuning)
    own = {i: bm25(tf, weights, tuning.k1) for i, tf in tfs.items()}
    best = sorted(own, key=lambda i: (-own[i], -i))[: tuning.neighbours_of]
    extra = {j for i in best for j in (i - 1, i + 1) if j not in rows and 0 < j <= top}
    if extra and (tuning.previous_weight or tuning.next_weight):
        more = recall._fetch(conn, extra)
        tfs |= normalised_tf(tokenizer, more, weights, avg_len, tuning)
        rows = rows | more
    final = {}
    for i, tf in tfs.items():
        lent: dict[str, float] = {}
        for j, weight in ((i - 1, tuning.previous_weight), (i + 1, tuning.next_weight)):
            for t, x in tfs.get(j, {}).items():
                lent[t] = max(lent.get(t, 0.0), weight * min(x, 1.0))
        merged = {t: tf.get(t, 0.0) + lent.get(t, 0.0) for t in sorted(tf.keys() | lent.keys())}
        final[i] = bm25(merged, weights, tuning.k1)
    if window is not None:
        floor = min(weights.values())
        for i in final:
            if window.contains(rows[i][4]):
                final[i] = (final[i] + floor) * (1 + tuning.date_boost)
    ranked = sorted((i for i in final if final[i] > 0), key=lambda i: (-final[i], -i))
    return [rows[i] for i in ranked[:n]]
