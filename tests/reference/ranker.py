"""Pure-Python reference for rust/src/ranker.rs: the same arithmetic in the same order.

Used by the differential property test and as the benchmark's baseline; the product never
imports it. It reads the same `RankEntry` records the Rust ranker takes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shelldon._native import RankEntry

K1 = 1.2
B = 0.75
TITLE_WEIGHT = 2.0
TAG_WEIGHT = 1.5
PATH_BONUS = 2.0
PRIOR = 0.05
TRUST = (1.0, 0.7, 0.5)
RECENCY_FLOOR = 0.85
RECENCY_HALF_LIFE_DAYS = 30.0
CONFIDENCE_FLOOR = 0.9
STALE_FACTOR = 0.5
SECONDS_PER_DAY = 86_400.0


class ReferenceRanker:
    def __init__(self, entries: Sequence[RankEntry]) -> None:
        self._ids: list[str] = []
        self._tf: list[dict[str, float]] = []
        self._length: list[float] = []
        self._paths: list[set[str]] = []
        self._weight_parts: list[tuple[float, float, float, bool]] = []
        self._df: dict[str, int] = {}
        total = 0.0
        for e in entries:
            if e.trust not in (0, 1, 2):
                raise ValueError(f"entry {e.id!r}: trust must be 0, 1 or 2")
            if not (math.isfinite(e.confidence) and math.isfinite(e.updated)):
                raise ValueError(f"entry {e.id!r}: confidence and updated must be finite")
            tf: dict[str, float] = {}
            for tokens, weight in ((e.title, TITLE_WEIGHT), (e.tags, TAG_WEIGHT), (e.body, 1.0)):
                for token in tokens:
                    tf[token] = tf.get(token, 0.0) + weight
            length = TITLE_WEIGHT * len(e.title) + TAG_WEIGHT * len(e.tags) + float(len(e.body))
            total += length
            for term in tf:
                self._df[term] = self._df.get(term, 0) + 1
            self._ids.append(e.id)
            self._tf.append(tf)
            self._length.append(length)
            self._paths.append(set(e.paths))
            self._weight_parts.append(
                (TRUST[e.trust], min(max(e.confidence, 0.0), 1.0), e.updated, e.stale)
            )
        self._avg = total / len(self._ids) if self._ids else 0.0

    def __len__(self) -> int:
        return len(self._ids)

    def _idf(self, term: str) -> float:
        n = float(len(self._ids))
        df = float(self._df.get(term, 0))
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def rank(
        self, query: list[str], paths: list[str], now: float, limit: int
    ) -> list[tuple[int, float, float]]:
        if not math.isfinite(now):
            raise ValueError("now must be finite")
        terms = [(t, self._idf(t)) for t in dict.fromkeys(query)]
        query_paths = set(paths)
        out: list[tuple[int, float, float]] = []
        for index, tf in enumerate(self._tf):
            length = max(self._length[index], self._avg)  # shorter than average: as average
            norm = 1.0 - B + B * length / self._avg if self._avg > 0.0 else 1.0
            relevance = 0.0
            for term, idf in terms:
                freq = tf.get(term)
                if freq is not None:
                    relevance += idf * (freq * (K1 + 1.0)) / (freq + K1 * norm)
            relevance = relevance + PATH_BONUS * float(len(query_paths & self._paths[index]))
            trust, confidence, updated, stale = self._weight_parts[index]
            age_days = max((now - updated) / SECONDS_PER_DAY, 0.0)
            recency = RECENCY_FLOOR + (1.0 - RECENCY_FLOOR) * 0.5 ** (
                age_days / RECENCY_HALF_LIFE_DAYS
            )
            conf = CONFIDENCE_FLOOR + (1.0 - CONFIDENCE_FLOOR) * confidence
            weight = trust * recency * conf * (STALE_FACTOR if stale else 1.0)
            out.append((index, (relevance + PRIOR) * weight, relevance))
        out.sort(key=lambda r: (-r[1], self._ids[r[0]], r[0]))
        return out[:limit]
