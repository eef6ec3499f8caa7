"""Re-rank 200 candidates: the Rust Ranker against its pure-Python reference, in one run."""

from __future__ import annotations

import random

import pytest

from reference.ranker import ReferenceRanker
from shelldon._native import Ranker

NOW = 1_800_000_000.0


def tokenize(text: str) -> list[str]:
    return text.casefold().split()


VOCAB = [
    "owner",
    "cat",
    "oscar",
    "tea",
    "morning",
    "sister",
    "lisbon",
    "garden",
    "bike",
    "train",
    "coffee",
    "music",
    "piano",
    "birthday",
    "march",
    "april",
    "dentist",
    "office",
    "python",
    "build",
    "test",
    "deploy",
    "notes",
    "recipe",
    "bread",
    "walk",
    "park",
    "rain",
]


def _entries(
    n: int,
) -> list[tuple[str, list[str], list[str], list[str], list[str], int, float, float, bool]]:
    rng = random.Random(7)
    out = []
    for i in range(n):
        body = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(8, 60)))
        title = " ".join(rng.choice(VOCAB) for _ in range(4))
        out.append(
            (
                f"facts/e{i:03d}",
                tokenize(title),
                [rng.choice(VOCAB)],
                tokenize(body),
                [f"src/f{rng.randint(0, 9)}.py"],
                rng.randint(0, 2),
                rng.random(),
                NOW - rng.random() * 90 * 86_400,
                rng.random() < 0.1,
            )
        )
    return out


ENTRIES = _entries(200)
QUERY = tokenize("did the owner's sister like the bread recipe from the garden party in april")


@pytest.mark.benchmark(group="rerank-200")
def test_bench_rank_rust(benchmark) -> None:  # type: ignore[no-untyped-def]
    ranker = Ranker(ENTRIES)
    result = benchmark(ranker.rank, QUERY, ["src/f3.py"], NOW, 200)
    assert len(result) == 200


@pytest.mark.benchmark(group="rerank-200")
def test_bench_rank_reference(benchmark) -> None:  # type: ignore[no-untyped-def]
    ranker = ReferenceRanker(ENTRIES)
    result = benchmark(ranker.rank, QUERY, ["src/f3.py"], NOW, 200)
    assert len(result) == 200
