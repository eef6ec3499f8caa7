"""Pure-Python reference of rust/src/lexical.rs: the same features, hashes and score, written
plainly, for the differential test and the benchmark's ratio."""

from __future__ import annotations

import math
import struct

_WORD, _BIGRAM, _CHARS = 1, 2, 3


def _fnv1a(kind: int, data: bytes) -> int:
    value = 0x811C9DC5
    for byte in bytes([kind]) + data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def _joined(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Words (alphanumeric runs, lower-cased as Rust's char::to_lowercase) joined by spaces,
    with each word's character span."""
    out = [" "]
    spans: list[tuple[int, int]] = []
    start: int | None = None
    length = 1
    for ch in text:
        if ch.isalnum():
            if start is None:
                start = length
            lower = ch.lower()
            out.append(lower)
            length += len(lower)
        elif start is not None:
            spans.append((start, length))
            start = None
            out.append(" ")
            length += 1
    if start is not None:
        spans.append((start, length))
        out.append(" ")
    return "".join(out), spans


def _occurrences(text: str, mask: int) -> list[tuple[int, str]]:
    joined, spans = _joined(text)
    found: list[tuple[int, str]] = []
    for index, (start, end) in enumerate(spans):
        word = joined[start:end]
        found.append((_fnv1a(_WORD, word.encode()) & mask, word))
        if index + 1 < len(spans):
            pair = joined[start : spans[index + 1][1]]
            found.append((_fnv1a(_BIGRAM, pair.encode()) & mask, pair))
    for n in (3, 4, 5):
        for i in range(len(joined) - n + 1):
            gram = joined[i : i + n]
            if gram.strip(" "):
                found.append((_fnv1a(_CHARS, gram.encode()) & mask, gram))
    return found


def features(text: str, bits: int) -> list[int]:
    return sorted({bucket for bucket, _ in _occurrences(text, (1 << bits) - 1)})


class ReferenceLexicalModel:
    def __init__(self, data: bytes) -> None:
        assert data[:8] == b"SHLXLIN2"
        self.bits, self.floor, self.bias, scale = struct.unpack("<IIff", data[8:24])
        count = 1 << self.bits
        self.weights = [q * scale for q in struct.unpack(f"<{count}h", data[24:])]

    def score(self, text: str, top: int = 3) -> tuple[float, list[tuple[str, float]]]:
        first: dict[int, str] = {}
        for bucket, gram in _occurrences(text, (1 << self.bits) - 1):
            first.setdefault(bucket, gram)
        if not first:
            return 1 / (1 + math.exp(-self.bias)), []
        total = sum(self.weights[b] for b in first)
        margin = self.bias + total / math.sqrt(max(len(first), self.floor))
        ranked = sorted(first, key=lambda b: -self.weights[b])
        strongest = [(first[b], self.weights[b]) for b in ranked[:top] if self.weights[b] > 0]
        return 1 / (1 + math.exp(-margin)), strongest
