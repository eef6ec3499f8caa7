"""Views of a text with a disguise undone, each mapping its characters back to the original.

The credential rules are written for credentials as they are usually typed. A model (or a pasted
document) can spell the same value so that no rule sees it: fullwidth letters, look-alike letters
from other scripts, spaced out ("h u n t e r 2", "h-u-n-t-e-r-2"), split into chunks
("sk-proj-u8jz Pde0IgxL ..."), or encoded as hex or base64. Each function here returns the text
with one disguise undone, or None when the text shows no sign of it (the common case costs one
search). A `View` keeps, for every character it holds, the span of the original it came from,
so a credential found in a view blanks exactly the characters that spelled it.

The instruction rules (normalise.py) use the same undoing on case-folded text, keeping only the
string.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from shelldon._native import Scanner


@dataclass(frozen=True, slots=True)
class View:
    """`text`, where character i came from original[starts[i]:ends[i]]. No maps: the original
    itself (built for every text scanned, so it costs nothing)."""

    text: str
    starts: Sequence[int] | None = None
    ends: Sequence[int] | None = None

    @classmethod
    def of(cls, text: str) -> View:
        return cls(text)

    def origin(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind view[start:end] (end > start)."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


class _Builder:
    """Builds a view of `src` piece by piece; every piece says which of src's characters it
    stands for, so maps compose through any number of views."""

    def __init__(self, src: View) -> None:
        self.src = src
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def copy(self, a: int, b: int) -> None:
        if a >= b:
            return
        self.parts.append(self.src.text[a:b])
        if self.src.starts is None or self.src.ends is None:
            self.starts.extend(range(a, b))
            self.ends.extend(range(a + 1, b + 1))
        else:
            self.starts.extend(self.src.starts[a:b])
            self.ends.extend(self.src.ends[a:b])

    def put(self, text: str, a: int, b: int) -> None:
        """`text` stands for src[a:b] (b > a) as a whole."""
        if text:
            start, end = self.src.origin(a, b)
            self.parts.append(text)
            self.starts.extend([start] * len(text))
            self.ends.extend([end] * len(text))

    def view(self) -> View:
        return View("".join(self.parts), self.starts, self.ends)


# --------------------------------------------------------------------- look-alike characters

# Latin letters that look like plain ones: IPA letters and small capitals (NFKC leaves them alone).
# Never another language's prose, so always mapped.
LATIN_LOOKALIKES = {
    "ɡ": "g", "ɑ": "a", "ɩ": "i", "ı": "i", "ȷ": "j", "ɵ": "o", "ɾ": "r", "ᴀ": "a", "ʙ": "b",
    "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k",
    "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u",
    "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
}  # fmt: skip
# Letters from other scripts (Cyrillic, Greek, Armenian) that look like Latin ones, after NFKC
# and case folding. Mapped only where they disguise a Latin word (see normalise).
OTHER_SCRIPT_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ӏ": "l", "һ": "h", "ѵ": "v", "ү": "y", "ԍ": "g", "օ": "o",
    "ս": "u", "ց": "g", "հ": "h", "ո": "n",
}  # fmt: skip
HOMOGLYPHS = LATIN_LOOKALIKES | OTHER_SCRIPT_LOOKALIKES
# Dashes and quotes that stand in for ASCII ones inside a token.
_PUNCT = {
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"',
}  # fmt: skip


def _case_aware(table: dict[str, str]) -> dict[str, str]:
    """The table plus its capitals (Cyrillic "Р" reads as "P"): credentials keep their case."""
    out = dict(table)
    for key, value in table.items():
        upper = key.upper()
        if len(upper) == 1 and upper != key:
            out.setdefault(upper, value.upper())
    return out


_LOOKALIKE = _case_aware(HOMOGLYPHS) | _PUNCT


def unicode_view(src: View) -> View | None:
    """NFKC per character (fullwidth and mathematical letters, circled digits), look-alike
    letters and dashes mapped to ASCII. None when that changes nothing."""
    text = src.text
    if text.isascii():
        return None
    if unicodedata.is_normalized("NFKC", text) and not any(ch in _LOOKALIKE for ch in text):
        return None
    out = _Builder(src)
    for i, ch in enumerate(text):
        if ch.isascii():
            out.copy(i, i + 1)
            continue
        mapped = _LOOKALIKE.get(ch)
        if mapped is None:
            mapped = unicodedata.normalize("NFKC", ch)
            mapped = "".join(_LOOKALIKE.get(c, c) for c in mapped)
        out.put(mapped, i, i + 1)
    return out.view()


def strip_marks(text: str) -> str | None:
    """Latin letters with their accents dropped ("ïgnörë" -> "ignore"), or None if none had one.
    Other scripts keep theirs (Russian "й" is a letter of its own, not a disguised "и")."""
    decomposed = unicodedata.normalize("NFD", text)
    out: list[str] = []
    base = ""
    for ch in decomposed:
        if unicodedata.combining(ch):
            if base.isascii() and base.isalpha():
                continue
        else:
            base = ch
        out.append(ch)
    if len(out) == len(decomposed):
        return None
    return unicodedata.normalize("NFC", "".join(out))


# --------------------------------------------------------------------- finding disguises

_TOKEN = r"\-A-Za-z0-9_+/=~"
_SEPARATORS = r"""[-._*|/\\~·•:,+=^'"`]"""
# Where a disguise may be, found by the Rust scanner in one pass (a few microseconds for 2 KB,
# where Python `re` took half a millisecond for the same searches). Each span is then checked
# and undone in Python, which only ever sees these few spans.
_FINDERS = {
    # Single characters with one to three spaces between them ("h u n t e r 2"), three or more.
    "spaced": r"(?:^|\s)(?P<secret>\S(?:[^\S\n]{1,3}\S){2,})(?:\s|$)",
    # Single letters or digits with a punctuation mark between them ("i-g-n-o-r-e", "p.a.s.s").
    "separated": (
        rf"(?:^|[\W_])(?P<secret>[^\W_](?:[^\S\n]?{_SEPARATORS}[^\S\n]?[^\W_]){{2,}})(?:[\W_]|$)"
    ),
    # A token that may be part of a key: letters with digits, a capital after a small letter,
    # four capitals, or a prefix ending in - or _ ("sk-proj-", "ghp_"); checked in Python.
    "chunk": (
        rf"[{_TOKEN}]*(?:[0-9][A-Za-z]|[A-Za-z][0-9]|[a-z][A-Z]|[A-Z]{{4}}|[A-Za-z0-9][-_])"
        rf"[{_TOKEN}]*"
    ),
    "hex": (
        r"(?:^|[^0-9A-Za-z])(?P<secret>(?:0x)?(?:[0-9a-fA-F]{2}){8,})(?:[^0-9A-Za-z]|$)"
        r"|(?P<secret2>(?:\\x[0-9a-fA-F]{2}){8,})"
        r"|(?:^|[^0-9A-Za-z])(?P<secret3>(?:[0-9a-fA-F]{2}[ :,-]){7,}[0-9a-fA-F]{2})"
        r"(?:[^0-9A-Za-z]|$)"
    ),
    "base64": (
        r"(?:^|[^A-Za-z0-9+/_=-])(?P<secret>[A-Za-z0-9+/_-]{16,}={0,2})(?:[^A-Za-z0-9+/=_-]|$)"
    ),
}

Spans = dict[str, list[tuple[int, int]]]


@cache
def _finder() -> Scanner:
    return Scanner([(kind, pattern, [], 0.0, False) for kind, pattern in _FINDERS.items()], [])


def find_disguises(text: str) -> Spans:
    """Spans where each kind of disguise may be (kinds absent from the dict: none found)."""
    spans: Spans = {}
    for kind, start, end in _finder().scan(text):
        spans.setdefault(kind, []).append((start, end))
    return spans


# --------------------------------------------------------------------- spaced-out characters

_UNIT = re.compile(r"[^\s]")
_UNIT_ALNUM = re.compile(r"[^\W_]")
Segmenter = Callable[[str], list[str]] | None


def _collapse_run(
    out: _Builder, src: View, start: int, end: int, unit: re.Pattern[str], segment: Segmenter
) -> None:
    """Write the run src[start:end] with its single characters joined into words. The gap that
    occurs most often is the one inside a word; any other gap is a word break ("i g n o r e  a l l"
    -> "ignore all"). A run whose gaps are all alike may still hold several words: `segment`
    splits it ("ignoreallprevious" -> "ignore all previous") when given."""
    units = [m.start() for m in unit.finditer(src.text, start, end)]
    gaps = [src.text[a + 1 : b] for a, b in itertools.pairwise(units)]
    counts = Counter(gaps)
    inner = min(counts, key=lambda g: (-counts[g], len(g))) if counts else ""
    word: list[int] = []
    for index, position in enumerate(units):
        word.append(position)
        last = index == len(units) - 1
        if last or gaps[index] != inner:
            _write_word(out, src, word, segment)
            word = []
            if not last:
                gap_start = position + 1
                out.put(" ", gap_start, gap_start + len(gaps[index]))


def _write_word(out: _Builder, src: View, positions: list[int], segment: Segmenter) -> None:
    letters = "".join(src.text[p] for p in positions)
    pieces = segment(letters) if segment is not None and len(letters) > 6 else [letters]
    offset = 0
    for n, piece in enumerate(pieces):
        if n:
            here = positions[offset]
            out.put(" ", here, here + 1)  # a word break found by segmenting: no gap of its own
        for k in range(len(piece)):
            p = positions[offset + k]
            out.copy(p, p + 1)
        offset += len(piece)


def collapse_spaced(src: View, spans: Spans, segment: Segmenter = None) -> View | None:
    """Spaced-out and separated single characters joined back into words, or None if there are
    none. Ordinary hyphenated words ("e-mail", "co-operate") have no run of single letters."""
    runs = [(s, e, _UNIT) for s, e in spans.get("spaced", ())]
    runs += [(s, e, _UNIT_ALNUM) for s, e in spans.get("separated", ())]
    if not runs:
        return None
    runs.sort(key=lambda r: (r[0], -r[1]))
    out = _Builder(src)
    cursor = 0
    for start, end, unit in runs:
        if start < cursor:
            continue  # inside a run already written
        out.copy(cursor, start)
        _collapse_run(out, src, start, end, unit, segment)
        cursor = end
    out.copy(cursor, len(src.text))
    return out.view()


# --------------------------------------------------------------------- tokens split into chunks

_KEY_LIKE = re.compile(r"[0-9][A-Za-z]|[A-Za-z][0-9]|[a-z][A-Z]|[A-Z]{4}|[A-Za-z0-9][-_]$")
# What may sit between two chunks of one split key: a few spaces or one line break, or a short
# run of letters (a random chunk that happens to hold no digit and no capital after a small one).
_CHUNK_GAP = re.compile(r"[^\S\n]{1,3}|[^\S\n]*\n[^\S\n]*|[^\S\n]{1,3}[A-Za-z]{4,12}[^\S\n]{1,3}")
_MIN_JOINED = 12


def join_split_tokens(src: View, spans: Spans) -> View | None:
    """Runs of key-like chunks separated by spaces or a line break joined into one token
    ("sk-proj-u8jz Pde0IgxL d6Gn" -> "sk-proj-u8jzPde0IgxLd6Gn"), or None if there are none."""
    text = src.text
    chunks = [
        (s, e)
        for s, e in spans.get("chunk", ())
        if e - s >= 3 and _KEY_LIKE.search(text, s, e) and (s == 0 or text[s - 1] != ".")
    ]
    groups: list[list[tuple[int, int]]] = []
    for start, end in chunks:
        if groups and _CHUNK_GAP.fullmatch(text, groups[-1][-1][1], start):
            groups[-1].append((start, end))
        else:
            groups.append([(start, end)])
    joined = [g for g in groups if len(g) > 1 and g[-1][1] - g[0][0] >= _MIN_JOINED]
    if not joined:
        return None
    out = _Builder(src)
    cursor = 0
    for group in joined:
        out.copy(cursor, group[0][0])
        position = group[0][0]
        for start, end in group:
            # Between chunks: drop the spaces, keep a bridging chunk's letters.
            between = text[position:start]
            letters = between.strip()
            if letters:
                at = position + between.index(letters)
                out.copy(at, at + len(letters))
            out.copy(start, end)
            position = end
        cursor = position
    out.copy(cursor, len(text))
    return out.view()


# --------------------------------------------------------------------- hex and base64

_HEX_DIGITS = re.compile(r"[0-9a-fA-F]{2}")
_MIN_DECODED = 6


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < _MIN_DECODED or not all(c.isprintable() or c in "\t\n\r" for c in text):
        return None
    return text


def _decode_hex(run: str) -> str | None:
    digits = "".join(_HEX_DIGITS.findall(run.removeprefix("0x").replace("\\x", "")))
    return _printable(bytes.fromhex(digits))


def _decode_b64(run: str) -> str | None:
    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            data = base64.urlsafe_b64decode(padded)
        else:
            data = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable(data)


def _decoded_runs(text: str, spans: Spans) -> list[tuple[int, int, str]]:
    runs = []
    for start, end in spans.get("hex", ()):
        decoded = _decode_hex(text[start:end])
        if decoded is not None:
            runs.append((start, end, decoded))
    for start, end in spans.get("base64", ()):
        if any(s < end and start < e for s, e, _ in runs):
            continue  # hex digits are base64 letters too: hex decoded it already
        decoded = _decode_b64(text[start:end])
        if decoded is not None:
            runs.append((start, end, decoded))
    return sorted(runs)


def decode_encoded(src: View, spans: Spans) -> View | None:
    """Hex and base64 runs that decode to printable text replaced by that text (each decoded
    character stands for the whole run), or None if there are none."""
    runs = _decoded_runs(src.text, spans)
    if not runs:
        return None
    out = _Builder(src)
    cursor = 0
    for start, end, decoded in runs:
        out.copy(cursor, start)
        out.put(decoded, start, end)
        cursor = end
    out.copy(cursor, len(src.text))
    return out.view()


# --------------------------------------------------------------------- the views the scan uses


def secret_views(clean: str) -> list[tuple[str, View]]:
    """Every view of `clean` with a disguise undone, named, for the credential scan. Empty for
    text that shows no disguise (most text)."""
    views: list[tuple[str, View]] = []
    base = View.of(clean)
    folded = unicode_view(base)
    if folded is not None:
        views.append(("unicode", folded))
        base = folded
    spans = find_disguises(base.text)
    if not spans:
        return views
    spaced = collapse_spaced(base, spans)
    if spaced is not None:
        views.append(("spaced", spaced))
    joined = join_split_tokens(base, spans)
    if spaced is not None:  # chunks spelled out one character at a time, or spaced and split
        joined = join_split_tokens(spaced, find_disguises(spaced.text)) or joined
    if joined is not None:
        views.append(("joined", joined))
    decoded = decode_encoded(base, spans)
    if decoded is not None:
        views.append(("decoded", decoded))
        twice = decode_encoded(decoded, find_disguises(decoded.text))  # base64 of hex, ...
        if twice is not None:
            views.append(("decoded", twice))
    return views
