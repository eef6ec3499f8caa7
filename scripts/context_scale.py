"""The worker's whole read (`gather_context`) against history size and curated entry count.

A temporary data root per history size: generated chat (scripts/recall_scale.py's Zipf
generator, common words as common as in real chat), then curated entries written through the real
write path (`apply_memory_op`), some of them replaced so superseded files stay in the tree. Each
configuration is timed two ways in one run:

- "terms": what a worker does now, reading core's `entry_terms` (core.retrieval.terms, kept by
  `TermsSync` the way core keeps it before a turn);
- "tree": what it did before, parsing and tokenising every entry file itself (the fallback).

Queries alternate between a common-word and a rare-word question. Prints one line per
configuration (median and p95 of RUNS calls, ms) and, with --json, the figures for
scripts/plot_performance.py.

    python scripts/context_scale.py [--rows 0 10000 100000 1000000] [--entries 0 50 200]
        [--superseded 0.5] [--runs 60] [--json out.json]

Figures of this machine, not tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recall_scale import RARE_WORD, fill

from shelldon.contracts.ops import Remember
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.retrieval.terms import TermsSync
from shelldon.paths import DataRoot
from shelldon.worker.prompt import PromptLimits, gather_context, read_context

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TOPICS = ("garden", "train", "kettle", "bicycle", "library", "market", "umbrella", "piano")
PEOPLE = ("Ana", "Noor", "Tomas", "Ines", "Kofi", "Mei")
QUERIES = (
    "What did you do today?",
    f"Hey, what did I tell you about the {RARE_WORD} and Ana's garden?",
)


def seed_entries(root: DataRoot, entries: int, superseded: float) -> int:
    """`entries` active entries; `superseded` of them first written once more and replaced (the
    replaced file stays, superseded). Returns the entry files in the tree."""
    memory = CuratedMemory(root.memory)
    replaced = int(entries * superseded)
    for i in range(entries):
        person, topic = PEOPLE[i % len(PEOPLE)], TOPICS[(i // 3) % len(TOPICS)]
        collection = "people" if i % 3 == 0 else "facts"
        name = f"{person} {topic} {i}"
        if i < replaced:
            memory.apply_memory_op(
                Remember(collection, name, f"{person} once mentioned the {topic} (draft {i})."),
                provenance="owner",
            )
        content = (
            f"{person} told the owner about the {topic} on a rainy afternoon; it matters to "
            f"them because of the weekend plans (note {i})."
        )
        op = Remember(collection, name, content)
        memory.apply_memory_op(op, provenance="owner")
    return sum(1 for _ in root.memory.glob("*/*.md"))


def timed(fn: Callable[[int], object], runs: int) -> tuple[float, float]:
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def measure(root: DataRoot, runs: int) -> dict[str, tuple[float, float]]:
    limits = PromptLimits()
    store = HistoryStore.open(root.history_db)
    try:
        TermsSync(CuratedMemory(root.memory)).sync(store)
    finally:
        store.close()
    ctx = read_context(root, QUERIES[1], limits=limits, now=NOW)
    assert not ctx.notes, ctx.notes

    def terms(i: int) -> object:
        return gather_context(root, QUERIES[i % 2], limits=limits, now=NOW)

    def tree(i: int) -> object:  # the worker's read before core kept the terms
        from shelldon.worker.prompt import _select_memory

        return gather_context(
            root, QUERIES[i % 2], limits=limits, now=NOW, select_memory=_select_memory
        )

    terms(0), tree(0)  # warm the page cache and the imports
    return {"terms": timed(terms, runs), "tree": timed(tree, runs)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[0, 10_000, 100_000])
    parser.add_argument("--entries", type=int, nargs="*", default=[0, 50, 200])
    parser.add_argument("--superseded", type=float, default=0.5)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--cache", type=Path, default=None, help="keep generated histories here between runs"
    )
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="shelldon-context-") as tmp:
        for rows in args.rows:
            history = (args.cache or Path(tmp)) / f"history-{rows}.db"
            if not history.exists():
                history.parent.mkdir(parents=True, exist_ok=True)
                began = time.perf_counter()
                fill(history, rows).close()
                built = time.perf_counter() - began
                print(f"{rows:,} messages generated in {built:.1f} s")
            for entries in args.entries:
                root = DataRoot(Path(tmp) / f"home-{rows}-{entries}")
                root.home.mkdir(parents=True)
                files = seed_entries(root, entries, args.superseded)
                root.history_db.write_bytes(history.read_bytes())
                figures = measure(root, args.runs)
                line = {"rows": rows, "entries": entries, "files": files, **figures}
                results.append(line)
                print(
                    f"  {entries:4} entries ({files:4} files): "
                    + ", ".join(
                        f"{k} median {v[0]:6.2f} ms p95 {v[1]:6.2f} ms" for k, v in figures.items()
                    )
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
