"""Pure-Python reference of rust/src/lexical.rs: the same features, hashes and score, written
plainly, for the differential test and the benchmark's ratio."""

from __future__ import annotations

import math
import struct

_WORD, _BIGRAM, _CHARS, _LEAD, _LEAD_PAIR, _ROLE, _SHAPE = 1, 2, 3, 4, 5, 6, 7
_FUNCTION_WORDS_TEXT = (
    "a above all always an and any are as be before below but can do don every following for "
    "from i in instead is it just me must my never new no not now of on only or our please "
    "previous prior should that the then these this those to us we what will with you your "
    "yourself"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split(" "))


def _fnv1a(kind: int, data: bytes) -> int:
    value = 0x811C9DC5
    for byte in bytes([kind]) + data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def _joined(text: str) -> tuple[str, list[tuple[int, int]], list[bool], list[tuple[int, int]]]:
    """Words (alphanumeric runs, lower-cased as Rust's char::to_lowercase) joined by spaces,
    with each word's character span, whether it opens a sentence, line or clause, and the
    spans of role markers (one to three words opening a line, then a colon)."""
    out = [" "]
    spans: list[tuple[int, int]] = []
    leads: list[bool] = []
    roles: list[tuple[int, int]] = []
    start: int | None = None
    length = 1
    lead_next = True
    line_words = 0
    colon_seen = False
    for ch in text:
        if ch.isalnum():
            if start is None:
                start = length
                leads.append(lead_next)
                lead_next = False
            lower = ch.lower()
            out.append(lower)
            length += len(lower)
            continue
        if start is not None:
            spans.append((start, length))
            start = None
            out.append(" ")
            length += 1
            line_words += 1
        if ch == "\n":
            lead_next, line_words, colon_seen = True, 0, False
        elif ch in '.!?;"':
            lead_next = True
        elif ch == ":":
            lead_next = True
            if not colon_seen and 1 <= line_words <= 3:
                roles.append((spans[-line_words][0], spans[-1][1]))
            colon_seen = True
    if start is not None:
        spans.append((start, length))
        out.append(" ")
    return "".join(out), spans, leads, roles


def _occurrences(text: str, mask: int) -> list[tuple[int, str]]:
    joined, spans, leads, roles = _joined(text)
    found: list[tuple[int, str]] = []

    def add(kind: int, gram: str) -> None:
        found.append((_fnv1a(kind, gram.encode()) & mask, gram))

    for index, (start, end) in enumerate(spans):
        word = joined[start:end]
        add(_WORD, word)
        pair = joined[start : spans[index + 1][1]] if index + 1 < len(spans) else None
        if pair is not None:
            add(_BIGRAM, pair)
        if leads[index]:
            add(_LEAD, word)
            if pair is not None:
                add(_LEAD_PAIR, pair)
    for start, end in roles:
        add(_ROLE, joined[start:end])
    shapes = [w if w in _FUNCTION_WORDS else "*" for w in (joined[a:b] for a, b in spans)]
    for index in range(len(shapes) - 2):
        window = shapes[index : index + 3]
        if any(w != "*" for w in window):
            add(_SHAPE, " ".join(window))
    for n in (3, 4, 5):
        for i in range(len(joined) - n + 1):
            gram = joined[i : i + n]
            if gram.strip(" "):
                add(_CHARS, gram)
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
