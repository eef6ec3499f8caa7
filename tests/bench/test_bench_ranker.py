"""Re-rank 200 candidates: the Rust Ranker against its pure-Python reference, in one run.

`rerank-200` times `rank` on a built ranker; `turn-200` what a turn pays (`select_entries` builds
one per turn): the 200 `RankEntry` records, the ranker over them, one ranking.
"""

from __future__ import annotations

import random

import pytest

from reference.ranker import ReferenceRanker
from shelldon._native import RankEntry, Ranker

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


def _fields(n: int) -> list[dict[str, object]]:
    rng = random.Random(7)
    out = []
    for i in range(n):
        body = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(8, 60)))
        title = " ".join(rng.choice(VOCAB) for _ in range(4))
        out.append(
            {
                "id": f"facts/e{i:03d}",
                "title": tokenize(title),
                "tags": [rng.choice(VOCAB)],
                "body": tokenize(body),
                "paths": [f"src/f{rng.randint(0, 9)}.py"],
                "trust": rng.randint(0, 2),
                "confidence": rng.random(),
                "updated": NOW - rng.random() * 90 * 86_400,
                "stale": rng.random() < 0.1,
            }
        )
    return out


FIELDS = _fields(200)
ENTRIES = [RankEntry(**f) for f in FIELDS]  # type: ignore[arg-type]
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


def _turn(make_ranker: type[Ranker] | type[ReferenceRanker]) -> int:
    ranker = make_ranker([RankEntry(**f) for f in FIELDS])  # type: ignore[arg-type]
    return len(ranker.rank(QUERY, ["src/f3.py"], NOW, 200))


@pytest.mark.benchmark(group="turn-200")
def test_bench_turn_rust(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(_turn, Ranker) == 200


@pytest.mark.benchmark(group="turn-200")
def test_bench_turn_reference(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(_turn, ReferenceRanker) == 200
