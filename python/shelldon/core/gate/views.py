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

Over 400 lines because the five undoings are one job on one structure: each builds a `View` of
the same text through the same `_Builder`, from the spans one Rust pass found
(`find_disguises`), and `secret_views` chains them; apart, each would repeat that plumbing.
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
from functools import cache, lru_cache

from shelldon._native import RuleSpec, Scanner
from shelldon.core.gate.rules import kept_scanner


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

    def __init__(self, src: View, *, maps: bool = True) -> None:
        self.src = src
        self.maps = maps  # False: only the text is wanted (the instruction rules' views)
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def copy(self, a: int, b: int) -> None:
        if a >= b:
            return
        self.parts.append(self.src.text[a:b])
        if not self.maps:
            return
        if self.src.starts is None or self.src.ends is None:
            self.starts.extend(range(a, b))
            self.ends.extend(range(a + 1, b + 1))
        else:
            self.starts.extend(self.src.starts[a:b])
            self.ends.extend(self.src.ends[a:b])

    def put(self, text: str, a: int, b: int) -> None:
        """`text` stands for src[a:b] (b > a) as a whole."""
        if text and not self.maps:
            self.parts.append(text)
        elif text:
            start, end = self.src.origin(a, b)
            self.parts.append(text)
            self.starts.extend([start] * len(text))
            self.ends.extend([end] * len(text))

    def view(self) -> View:
        if not self.maps:
            return View("".join(self.parts))
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
# Capitals of other scripts that look like Latin capitals but fold to a small letter that does
# not ("Ν" folds to "ν", read as "v"; "Η" to "η", "Μ" to "μ"): mapped before case folding, where
# they disguise a Latin word (the third red team: "IGΝΟRΕ ΤΗΕ ΟWΝΕR").
CAPITAL_LOOKALIKES = {
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "А": "A", "В": "B", "Е": "E", "К": "K",
    "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I",
    "Ј": "J",
}  # fmt: skip
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


# A terminal's control sequences: colours and cursor moves (ESC [ ... a letter), titles and links
# (ESC ] ... BEL or ESC \), and two-character escapes.
_TERMINAL = re.compile(
    r"\x1b\[[0-9;:?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?"
)


def terminal_view(src: View) -> View | None:
    """`src` without a terminal's control sequences, or None when it has no escape character.
    Pasted terminal output keeps its colours, glued to what they colour: in
    "ESC[93msk-...ESC[0m" the key starts after the sequence's "m", where no rule's word boundary
    sees it start."""
    if "\x1b" not in src.text:
        return None
    out = _Builder(src)
    cursor = 0
    for m in _TERMINAL.finditer(src.text):
        out.copy(cursor, m.start())
        cursor = m.end()
    out.copy(cursor, len(src.text))
    return out.view()


def _other_digit_or_symbol(ch: str) -> str | None:
    """A digit of another script as its ASCII digit ("٥" -> "5", "५" -> "5"), or None. (A
    symbol or an emoji between a key's chunks is a chunk gap: `_CHUNK_GAP`.)"""
    if ch.isdecimal():
        return str(unicodedata.decimal(ch))
    return None


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def unicode_view(src: View) -> View | None:
    """NFKC per character (fullwidth and mathematical letters, circled digits), look-alike
    letters and dashes mapped to ASCII, other scripts' digits as ASCII digits. None when that
    changes nothing."""
    text = src.text
    if text.isascii():
        return None
    if (
        unicodedata.is_normalized("NFKC", text)
        and not any(ch in _LOOKALIKE for ch in text)
        and not any(_other_digit_or_symbol(ch) for ch in text if not ch.isascii())
    ):
        return None
    out = _Builder(src)
    cursor = 0
    for m in _NON_ASCII.finditer(text):  # ASCII runs copied whole: an emoji in prose is cheap
        i, ch = m.start(), m[0]
        out.copy(cursor, i)
        cursor = i + 1
        other = _other_digit_or_symbol(ch)
        if other is not None:
            out.put(other, i, i + 1)
            continue
        mapped = _LOOKALIKE.get(ch)
        if mapped is None:
            mapped = unicodedata.normalize("NFKC", ch)
            mapped = "".join(_LOOKALIKE.get(c, c) for c in mapped)
        out.put(mapped, i, i + 1)
    out.copy(cursor, len(text))
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

_TOKEN = r"\-A-Za-z0-9_+/=~$.%@:#*&"
_SEPARATORS = r"""[-._*|/\\~·•:,+=^'"`]"""
# Where a disguise may be, found by the Rust scanner in one pass (a few microseconds for 2 KB,
# where Python `re` took half a millisecond for the same searches). The finders are loose (no
# look-around in Rust `regex`, and a match may not consume the character the next one starts
# at); Python checks each span and undoes the disguise, and only ever sees these few spans.
_FINDERS = {
    # Three or more single characters with one to three spaces between them ("h u n t e r 2").
    "spaced": r"(?:^|\s)\S[^\S\n]{1,3}\S[^\S\n]{1,3}\S",
    # Single letters or digits with a punctuation mark between them ("i-g-n-o-r-e", "p.a.s.s").
    "separated": rf"(?:^|[\W_])(?P<secret>[^\W_](?:[^\S\n]?{_SEPARATORS}[^\S\n]?[^\W_])+)",
    # A token that may be part of a key: letters with digits, a capital after a small letter,
    # four capitals, or a prefix ending in - or _ ("sk-proj-", "ghp_"); checked in Python.
    "chunk": (
        rf"[{_TOKEN}]*(?:[0-9][A-Za-z]|[A-Za-z][0-9]|[a-z][A-Z]|[A-Z]{{4}}|[A-Z0-9][-_][A-Z0-9]"
        rf"|[A-Za-z0-9][-_])[{_TOKEN}]*"
    ),
    # A quoted value given to a credential name ("password = 'super$ ecret'"): spaces inside
    # are joined in Python if the value holds anything but words.
    "quoted": (
        r"(?i)(?:password|passwd|pwd|pass|passphrase|passcode|secret|token|api[_ -]?key|apikey"
        r"|key|credential|pin)[A-Za-z0-9_.-]{0,20}[\"']?[ \t]*(?::=|=>|=|:|[ \t]is[ \t])[ \t]*"
        r"(?P<secret>\"[^\"\n]{1,80}\"|'[^'\n]{1,80}'|`[^`\n]{1,80}`)"
    ),
    "hex": (
        r"(?:^|[^0-9A-Za-z])(?P<secret>(?:0x)?(?:[0-9a-fA-F]{2}){8,})(?:[^0-9A-Za-z]|$)"
        r"|(?P<secret2>(?:\\x[0-9a-fA-F]{2}){8,})"
        r"|(?:^|[^0-9A-Za-z])(?P<secret3>(?:[0-9a-fA-F]{2}[ :,-]){7,}[0-9a-fA-F]{2})"
        r"(?:[^0-9A-Za-z]|$)"
    ),
    # Up to six "=": base32's padding (its letters are base64's too: `_decode_b32`).
    "base64": (
        r"(?:^|[^A-Za-z0-9+/_=-])(?P<secret>[A-Za-z0-9+/_-]{16,}={0,6})(?:[^A-Za-z0-9+/=_-]|$)"
    ),
    # The same for the credential scan, where a run may also end at a slash after its padding:
    # a segment of a URL's path ("/api/v1/<base64>=/data").
    "base64_path": (
        r"(?:^|[^A-Za-z0-9+/_=-])(?P<secret>[A-Za-z0-9+/_-]{16,}={0,6})(?:[^A-Za-z0-9+=_-]|$)"
    ),
}

Spans = dict[str, list[tuple[int, int]]]


def finder_scanner(patterns: dict[str, str]) -> Scanner:
    """One native scan for where each kind of disguise may be (its id is the kind): Python then
    reads only the spans found (here, and gate.spelled)."""
    rules = [
        RuleSpec(id=kind, pattern=pattern, prefilter=[], min_entropy=0.0, skip_placeholders=False)
        for kind, pattern in patterns.items()
    ]
    return kept_scanner(rules)


@cache
def _finder() -> Scanner:
    return finder_scanner(_FINDERS)


@lru_cache(maxsize=8)
def find_disguises(text: str) -> Spans:
    """Spans where each kind of disguise may be (kinds absent from the dict: none found).
    Cached for the last few texts: the credential scan and the instruction rules both ask
    about the same text. Callers must not change the dict."""
    spans: Spans = {}
    for kind, start, end in _finder().scan(text):
        spans.setdefault(kind, []).append((start, end))
    return spans


# --------------------------------------------------------------------- spaced-out characters

Segmenter = Callable[[str], list[str]] | None
Run = list[tuple[int, int]]  # the units of one run, as spans of the view's text

_SPACE_TOKEN = re.compile(r"[^\s]+")
# A spaced-out unit: one character, with punctuation that may cling to it ("e," "(i" "2.") and
# a possessive ("r's" in "o w n e r's").
_SINGLE = re.compile(r"[(\[{\"'`]?[^\s](?:'s)?[.,;:!?)\]}\"'`]*")
# A token glued to a run's first or last character: "pw=k X 9 2" or "5 5@db.internal".
_GLUED_LEFT = re.compile(r"[^\s]*[=:\"'`(\[{<][^\s]")
_GLUED_RIGHT = re.compile(r"[^\s][@:/.\"'`)\]}>,;!?][^\s]*")
# For a credential, also a value between markers (">>>s k - 6 1 5<<<", as a scanner's output
# frames what it found). Not for instruction text: markup ("<b>i g n o r e") reads otherwise.
_GLUED_VALUE_LEFT = re.compile(r"[^\s]*[=:\"'`(\[{<>][^\s]")
_GLUED_VALUE_RIGHT = re.compile(r"[^\s][@:/.\"'`)\]}<>,;!?][^\s]*")
_SEPARATED_UNIT = re.compile(r"[^\W_]")


def _spaced_runs(text: str, spans: list[tuple[int, int]], *, values: bool = False) -> list[Run]:
    """Runs of three or more single characters, one to three spaces apart, around each span the
    finder reported; the first and last unit may be glued to a token (`values`: a credential's
    markers too)."""
    if not spans:
        return []
    glued_left, glued_right = (
        (_GLUED_VALUE_LEFT, _GLUED_VALUE_RIGHT) if values else (_GLUED_LEFT, _GLUED_RIGHT)
    )
    runs: list[Run] = []
    tokens = [m.span() for m in _SPACE_TOKEN.finditer(text)]
    current: Run = []
    singles = 0

    def close() -> None:
        nonlocal current, singles
        last = current[-1] if current else None
        if last and not (glued_right.fullmatch(text, *last) or _SINGLE.fullmatch(text, *last)):
            current.pop()  # an ordinary word after the run
        if singles >= 3 and len(current) >= 3:
            runs.append(current)
        current, singles = [], 0

    for index, (start, end) in enumerate(tokens):
        single = _SINGLE.fullmatch(text, start, end) is not None
        if current:
            gap = text[current[-1][1] : start]
            joined = 0 < len(gap) <= 3 and "\n" not in gap
            if joined and single:
                current.append((start, end))
                singles += 1
                continue
            if joined and singles >= 3 and glued_right.fullmatch(text, start, end):
                current.append((start, end))
            close()
        if single:
            current, singles = [(start, end)], 1
            # A token glued on the left ("pw=k") counts only if single characters follow.
            if index and glued_left.fullmatch(text, *tokens[index - 1]):
                gap = text[tokens[index - 1][1] : start]
                if 0 < len(gap) <= 3 and "\n" not in gap:
                    current.insert(0, tokens[index - 1])
    close()
    return runs


def _separated_runs(text: str, spans: list[tuple[int, int]], *, values: bool = False) -> list[Run]:
    """Runs of single letters or digits with a punctuation mark between them; the finder cannot
    check that the last unit ends a word ("x-y-zebra"), so that is checked here. A run with one
    separator throughout goes on through units that are punctuation themselves: a credential's
    own "-", "/" or "=" ("s-k---p-r-o-j" is "sk-proj")."""
    runs: list[tuple[str, Run]] = []
    for start, end in spans:
        units = [m.span() for m in _SEPARATED_UNIT.finditer(text, start, end)]
        # The run's separator is its most common gap (the first seen on a tie): not whichever a
        # set yields first, which changed with the interpreter's hash seed, and with it whether a
        # two-letter run beside this one was read (tests/core/gate/test_gate_obfuscation.py).
        gaps = Counter(text[a[1] : b[0]] for a, b in itertools.pairwise(units))
        separator = gaps.most_common(1)[0][0] if gaps else ""
        if len(gaps) == 1 and len(separator) == 1:
            units = _alternating(text, units[0][0], separator)
        while units and units[-1][1] < len(text) and _SEPARATED_UNIT.match(text, units[-1][1]):
            units.pop()
        if values and separator == "." and len(units) <= 4 and _digits(text, units):
            continue  # a version ("shelldon-0.1.0-cp311") or a part of an address: not a disguise
        if len(units) >= 2:
            runs.append((separator.strip(), units))
    # Two letters ("i-n", "t.o") are a run only beside a longer run spelled the same way: a
    # sentence disguised word by word, not "A-B testing".
    spelled = {sep for sep, units in runs if len(units) >= 3}
    return [units for sep, units in runs if len(units) >= 3 or sep in spelled]


def _digits(text: str, units: Run) -> bool:
    return all(text[a:b].isdigit() for a, b in units)


def _alternating(text: str, start: int, separator: str) -> Run:
    """Single characters from `start`, every other one `separator`, up to the first space."""
    units = []
    i = start
    while i < len(text) and not text[i].isspace():
        units.append((i, i + 1))
        if text[i + 1 : i + 2] != separator or text[i + 2 : i + 3] in ("", " ", "\n", "\t"):
            break
        i += 2
    return units


def _write_run(out: _Builder, src: View, units: Run, segment: Segmenter) -> None:
    """The run's units joined into words. The gap that occurs most often is the one inside a
    word; any other gap is a word break ("i g n o r e  a l l" -> "ignore all"). A run whose
    gaps are all alike may still hold several words: `segment` splits it ("ignoreallprevious" ->
    "ignore all previous") when given."""
    gaps = [src.text[a[1] : b[0]] for a, b in itertools.pairwise(units)]
    counts = Counter(gaps)
    inner = min(counts, key=lambda g: (-counts[g], len(g))) if counts else ""
    if len(counts) > 1:
        segment = None  # the word breaks show: nothing to split
    word: Run = []
    for index, unit in enumerate(units):
        word.append(unit)
        last = index == len(units) - 1
        if last or gaps[index] != inner:
            _write_word(out, src, word, segment)
            word = []
            if not last:
                out.put(" ", unit[1], units[index + 1][0])


def _write_word(out: _Builder, src: View, units: Run, segment: Segmenter) -> None:
    letters = "".join(src.text[a:b] for a, b in units)
    pieces = segment(letters) if segment is not None and len(letters) > 6 else [letters]
    if len(pieces) == 1:
        for a, b in units:
            out.copy(a, b)
        return
    positions = [p for start, end in units for p in range(start, end)]
    offset = 0
    for n, piece in enumerate(pieces):
        if n:
            here = positions[offset]
            out.put(" ", here, here + 1)  # a word break found by segmenting: no gap of its own
        for k in range(len(piece)):
            p = positions[offset + k]
            out.copy(p, p + 1)
        offset += len(piece)


def collapse_spaced(
    src: View, spans: Spans, segment: Segmenter = None, *, maps: bool = True, values: bool = False
) -> View | None:
    """Spaced-out and separated single characters joined back into words, or None if there are
    none. Ordinary hyphenated words ("e-mail", "co-operate") have no run of single letters.
    `maps=False`: the text alone, without the map back to the original (cheaper); `values`:
    for the credential scan, where a run may also be glued to markers (">>>" and "<<<") and
    dotted digits are a version, not a disguise."""
    runs = _spaced_runs(src.text, spans.get("spaced", []), values=values)
    runs += _separated_runs(src.text, spans.get("separated", []), values=values)
    if not runs:
        return None
    runs.sort(key=lambda r: (r[0][0], -r[-1][1]))
    out = _Builder(src, maps=maps)
    cursor = 0
    for units in runs:
        if units[0][0] < cursor:
            continue  # inside a run already written
        out.copy(cursor, units[0][0])
        _write_run(out, src, units, segment)
        cursor = units[-1][1]
    out.copy(cursor, len(src.text))
    return out.view()


# --------------------------------------------------------------------- tokens split into chunks

_KEY_LIKE = re.compile(
    r"[0-9][A-Za-z]|[A-Za-z][0-9]|[a-z][A-Z]|[A-Z]{4}|[A-Z0-9][-_][A-Z0-9]|[A-Za-z0-9][-_]$"
)
_TOKEN_AT = re.compile(rf"[{_TOKEN}]+")
# A plain or capitalised word ("export", "Then"): never taken for a chunk by its length alone.
_WORD_LIKE = re.compile(r"[A-Za-z][a-z]*")
# Between two chunks of one split key: a few spaces, or a line break (a wrapped value; a blank
# line between chunks too, issue 23 tenth pass).
# A gap between chunks: spaces, or a line break, and then maybe a list marker ("- ", "* ", "• "):
# a key cut into a list, one piece a line; or quotes with a comma or a plus between them: a key
# cut into a list of strings, or strings added together; or an arrow, a box-drawing mark or an
# emoji ("ghp_Y🔑c1Pz6🔑...", "Lk2W → r9Tn").
_GAP_SYMBOL = "\u2190-\u21ff\u2500-\u27bf\u2900-\u2bff\U0001f000-\U0001faff"
_CHUNK_GAP = re.compile(
    rf"[^\S\n]{{0,2}}[{_GAP_SYMBOL}][\ufe0f\u200d]?[^\S\n]{{0,2}}"
    r"|[^\S\n]{1,3}|[^\S\n]*\n(?:[^\S\n]*\n)?[^\S\n]*(?:[-*•][^\S\n]+)?"
    r"|[\"'`][^\S\n]*[,+][^\S\n]*[\"'`]"
)
# Where a value ends: a quote or bracket, a separator, a comment, the end of the line.
_VALUE_END = re.compile(r"[^\S\n]*(?:$|\n|#|//|[\"'`)\]};,])")
_MAX_BRIDGE = 12  # a chunk with no digit or capital that may sit between two that have one
_MAX_TAIL = 6  # the short last chunk of a value ("... rfZ1uM PH")
_MIN_JOINED = 6
_WINDOW = 40  # chunks looked at on either side of a key-like one


def _key_like(text: str, span: tuple[int, int]) -> bool:
    return _KEY_LIKE.search(text, *span) is not None


# The end of a list of strings: a shorter last piece closes it ("...", "Ba"]).
_LIST_END = re.compile(r"[\"'`][^\S\n]*[\])]")


def _listed(text: str, gap: re.Match[str], before: tuple[int, int], after: tuple[int, int]) -> bool:
    """A gap that is not a comma between two strings, or one between pieces of one value cut
    into a list of strings: as long as each other, or a shorter last piece that ends the list.
    Two strings of other lengths are two values (`getenv("API_TOKEN", "...")`)."""
    if "," not in gap.group(0):
        return True
    size_before, size_after = before[1] - before[0], after[1] - after[0]
    if size_after == size_before:
        return True
    return size_after < size_before and _LIST_END.match(text, after[1]) is not None


def _chunks_after(text: str, first: tuple[int, int]) -> tuple[list[tuple[int, int]], set[int]]:
    """Chunks after the chunk `first`, and which of them start a new line."""
    out: list[tuple[int, int]] = []
    wrapped: set[int] = set()
    last = first
    while len(out) < _WINDOW:
        gap = _CHUNK_GAP.match(text, last[1])
        token = _TOKEN_AT.match(text, gap.end()) if gap else None
        if gap is None or token is None or not _listed(text, gap, last, token.span()):
            break
        if "\n" in gap.group(0):
            wrapped.add(len(out))
        out.append(token.span())
        last = token.span()
    return out, wrapped


def _chunks_before(text: str, first: tuple[int, int]) -> list[tuple[int, int]]:
    """Chunks before the chunk `first`, nearest first."""
    start = first[0]
    window = text[max(0, start - 24 * _WINDOW) : start]
    offset = start - len(window)
    spans = [(m.start() + offset, m.end() + offset) for m in _TOKEN_AT.finditer(window)]
    out: list[tuple[int, int]] = []
    later = first
    for span in reversed(spans):
        gap = _CHUNK_GAP.fullmatch(text, span[1], later[0])
        if gap is None or not _listed(text, gap, span, later):
            break
        out.append(span)
        later = span
    return out


def _group(text: str, first: tuple[int, int]) -> list[tuple[int, int]]:
    """The chunks of one split value around the key-like chunk `first`: further key-like chunks
    with at most two short chunks between them; chunks as long as the others (a value cut every
    N characters); a short last chunk before a quote or the end of the line; a prefix chunk
    ("sk-ant") before."""
    group = [first]
    after, wrapped = _chunks_after(text, first)
    bridges: list[tuple[int, int]] = []
    for index, span in enumerate(after):
        if index in wrapped and not _key_like(text, span):
            break  # a line that starts with a word is not the rest of a value
        if _key_like(text, span):
            # A bridge is a chunk of the same cut as its neighbours ("u8jzPde0 cfbaepfj
            # Bd0Kh8oO"), not a word between two values ("hunter2 and token ghp_...").
            # The key-like chunk may be the short rest of the value ("glpat-i k16ICSJ Mrisvgi
            # 2XX7i"): the cut then shows in the chunk before the bridge, the first one too
            # unless it carries "key=".
            sizes = {span[1] - span[0]}
            if len(group) > 1 or not any(c in "=:" for c in text[first[0] : first[1]]):
                sizes.add(group[-1][1] - group[-1][0])
            if any(b[1] - b[0] not in sizes for b in bridges):
                break
            group += [*bridges, span]
            bridges = []
        elif span[1] - span[0] <= _MAX_BRIDGE and len(bridges) < 2:
            bridges.append(span)
        else:
            break
    # The cut: the commonest chunk length, leaving out the first chunk (it may carry "key=")
    # and the last (it may be the short rest) when there are others to go by.
    if len(group) >= 3:
        sample = group[1:-1]
    elif len(group) == 2 and any(c in "=:" for c in text[group[0][0] : group[0][1]]):
        sample = group[1:]
    else:
        sample = group[:1]
    lengths = Counter(e - s for s, e in sample)
    size = max(lengths, key=lambda n: (lengths[n], n))
    taken = len(group) - 1
    rest = after[taken:]

    def ends_value(span: tuple[int, int]) -> bool:
        after = _VALUE_END.match(text, span[1])
        return after is not None

    # The pieces before the key-like chunk (decided first: they show the cut too).
    before = _chunks_before(text, first)
    head: list[tuple[int, int]] = []
    cut_before = size
    if len(group) == 1 and len(before) >= 2:
        # A lone key-like chunk may be the short rest of a value cut before it ("glpat-WFy
        # KEvkepelo KqW2n15p"): two chunks of one longer length before it show that cut.
        nearest = {e - s for s, e in before[:2]}
        if len(nearest) == 1 and min(nearest) > group[0][1] - group[0][0]:
            cut_before = min(nearest)
    while before and (
        _key_like(text, before[0])
        # Cut every `size` characters: a chunk of digits alone is a piece too; a word is one
        # only once two chunks show the cut, as after the key ("ghp_C skwmm SefVD axmt1").
        or (
            cut_before >= 4
            and before[0][1] - before[0][0] == cut_before
            and (len(group) + len(head) >= 2 or not _WORD_LIKE.fullmatch(text, *before[0]))
        )
    ):
        head.insert(0, before.pop(0))
    if size >= 4:  # cut every `size` characters (on one line or several): may hold no digit
        # A word as long as one lone chunk is just a word ("0001234A password"): a cut shows
        # as two chunks of that length, before or after it.
        while rest and rest[0][1] - rest[0][0] == size:
            pieces = len(group) + len(head)
            alone = pieces < 2 and (len(rest) < 2 or rest[1][1] - rest[1][0] != size)
            if alone and _WORD_LIKE.fullmatch(text, *rest[0]):
                break
            group.append(rest.pop(0))
    # The short last chunk: after a cut on the same line or line by line, or, after a lone
    # chunk, where the value ends ("Prl23D b#@" then a quote, a comment or the line's end).
    at = len(group) - 1
    # Cut line by line: the chunk before the tail began a line, or, when that chunk is the first
    # key-like one, it began a line after the head ("glpat-hfssmd / IJLNoyfpgsy0 / TW").
    first_wrapped = bool(head) and "\n" in text[head[-1][1] : first[0]]
    if rest and rest[0][1] - rest[0][0] < max(size, _MAX_TAIL + 1):
        by_line = at - 1 in wrapped or (at == 0 and first_wrapped)
        cut = len(group) + len(head) >= 2 and (at not in wrapped or by_line)
        if cut or (
            at not in wrapped and rest[0][1] - rest[0][0] <= _MAX_TAIL and ends_value(rest[0])
        ):
            group.append(rest.pop(0))
    group = head + group
    if (
        before
        and before[0][1] - before[0][0] <= _MAX_BRIDGE
        and (any(c in "-_" for c in text[before[0][0] : before[0][1]]) or text[group[0][0]] in "-_")
    ):
        group.insert(0, before.pop(0))  # a prefix: "sk-ant -api03-...", "glpat -x7Kd..."
    return group


_VALUE_PIECE = re.compile(r"[^\s]+")
_NOT_WORDS = re.compile(r"[^A-Za-z\s]")


def _quoted_groups(text: str, spans: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The pieces of each quoted credential value with spaces in it ("super$ ecret"), if the
    value holds a digit or a symbol: "the password is 'in the drawer'" stays words."""
    groups = []
    for start, end in spans:
        inner = (start + 1, end - 1)
        pieces = [m.span() for m in _VALUE_PIECE.finditer(text, *inner)]
        if len(pieces) > 1 and _NOT_WORDS.search(text, *inner):
            groups.append(pieces)
    return groups


def join_split_tokens(src: View, spans: Spans) -> View | None:
    """The chunks of a key split by spaces or a line break joined into one token
    ("sk-proj-u8jz Pde0IgxL d6Gn" -> "sk-proj-u8jzPde0IgxLd6Gn"), or None if there are none.
    Starts from the key-like chunks the finder reported; ordinary words never start a group."""
    text = src.text
    keys = sorted(
        span
        for span in spans.get("chunk", ())
        if span[1] - span[0] >= 2 and _key_like(text, span) and text[span[0] - 1 : span[0]] != "."
    )
    groups = _quoted_groups(text, spans.get("quoted", []))
    for span in keys:
        if groups and span[0] < groups[-1][-1][1]:
            continue  # inside the group before
        group = _group(text, span)
        if groups and group[0][0] < groups[-1][-1][1]:
            group = [g for g in group if g[0] >= groups[-1][-1][1]]
        if len(group) > 1 and group[-1][1] - group[0][0] >= _MIN_JOINED:
            groups.append(group)
    if not groups:
        return None
    out = _Builder(src)
    cursor = 0
    for group in sorted(groups):
        if group[0][0] < cursor:
            continue
        out.copy(cursor, group[0][0])
        for start, end in group:
            out.copy(start, end)  # the gaps between chunks are dropped
        cursor = group[-1][1]
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


_BASE32_RUN = re.compile(r"[A-Z2-7]{16,}=*")


def _decode_b32(run: str) -> str | None:
    """A run of base32's alphabet (capitals and 2-7) that base64 did not read (issue 23's eighth
    hostile round: a key in base32)."""
    if not _BASE32_RUN.fullmatch(run):
        return None
    body = run.rstrip("=")
    try:
        data = base64.b32decode(body + "=" * (-len(body) % 8))
    except (binascii.Error, ValueError):
        return None
    return _printable(data)


def _decoded_runs(text: str, spans: Spans, paths: bool) -> list[tuple[int, int, str]]:
    runs = []
    for start, end in spans.get("hex", ()):
        decoded = _decode_hex(text[start:end])
        if decoded is not None:
            runs.append((start, end, decoded))
    for start, end in spans.get("base64_path" if paths else "base64", ()):
        if any(s < end and start < e for s, e, _ in runs):
            continue  # hex digits are base64 letters too: hex decoded it already
        decoded = _decode_b64(text[start:end]) or _decode_b32(text[start:end])
        if decoded is not None:
            runs.append((start, end, decoded))
        elif paths and "/" in text[start:end]:
            runs += _path_segments(text, start, end)
    return sorted(runs)


def _path_segments(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """A run that does not decode as a whole but holds slashes is often a URL's path, with a
    value encoded in one of its segments ("/api/token/<base64>"): each segment of 16 or more
    characters, decoded on its own."""
    out = []
    at = start
    for segment in text[start:end].split("/"):
        if len(segment) >= 16:
            decoded = _decode_b64(segment)
            if decoded is not None:
                out.append((at, at + len(segment), decoded))
        at += len(segment) + 1
    return out


def decode_encoded(src: View, spans: Spans, *, paths: bool = False) -> View | None:
    """Hex and base64 runs that decode to printable text replaced by that text (each decoded
    character stands for the whole run), or None if there are none. `paths` (the credential
    scan): also a base64 segment of a URL's path."""
    runs = _decoded_runs(src.text, spans, paths)
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


_DUMP_LINE = re.compile(
    r"(?m)^[ \t]*(?:0x)?[0-9a-fA-F]{4,8}(?::[ \t]+|[ \t]{2,})"
    r"(?P<data>(?:[0-9a-fA-F]{2}){1,2}(?:[ \t]{1,2}(?:[0-9a-fA-F]{2}){1,2})+)[ \t]*(?:\|[^\n]*)?$"
)


# Three or more %-escapes in a row: a value URL-encoded (the third red team's "secret=%54%69...").
_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2}){3,}")


def percent_view(src: View) -> View | None:
    """Runs of three or more %-escapes read as the text they encode (each decoded character
    stands for its run); None when no run decodes to printable text. A URL-encoded value hides
    its shape and its entropy from the rules; decoded, they read it as typed."""
    text = src.text
    if "%" not in text:
        return None
    out = _Builder(src)
    cursor = 0
    for m in _PERCENT_RUN.finditer(text):
        decoded = _printable(bytes.fromhex(m.group(0).replace("%", "")))
        if decoded is None:
            continue
        out.copy(cursor, m.start())
        out.put(decoded, m.start(), m.end())
        cursor = m.end()
    if cursor == 0:
        return None
    out.copy(cursor, len(text))
    return out.view()


def hexdump_view(src: View) -> View | None:
    """A hex dump's lines ("00000000: 736b 2d70 ...", hexdump -C's "00000000  73 6b ...") read
    as the bytes they dump, offsets and line breaks dropped, the block as one run of text (each
    decoded character stands for the whole block); None when no block decodes. A key dumped this
    way is cut into lines no hex run spans, with an offset before each."""
    text = src.text
    if ":" not in text and "  " not in text:
        return None
    blocks: list[tuple[int, int, str]] = []
    for m in _DUMP_LINE.finditer(text):
        digits = re.sub(r"[ \t]", "", m["data"])
        if blocks and text[blocks[-1][1] : m.start()].strip() == "":
            start, _, held = blocks[-1]
            blocks[-1] = (start, m.end(), held + digits)
        else:
            blocks.append((m.start(), m.end(), digits))
    out = _Builder(src)
    cursor = 0
    for start, end, digits in blocks:
        decoded = _printable(bytes.fromhex(digits[: len(digits) // 2 * 2]))
        if decoded is None:
            continue
        out.copy(cursor, start)
        out.put(decoded, start, end)
        cursor = end
    if cursor == 0:
        return None
    out.copy(cursor, len(text))
    return out.view()


_TABLE_ROW = re.compile(r"(?m)^[ \t]*\|[^\n]*\|[ \t]*$")
_TABLE_CELL = re.compile(r"[^|]+")


def table_columns_view(src: View) -> View | None:
    """A markdown table read down its columns, each column's cells on one line with a space
    between them, so a value cut across rows ("| 1 | ghp_Xb7M... |", "| 2 | ...Wa2Ue |") is
    chunks the joiner reads. None without a table of two or more rows."""
    text = src.text
    if text.count("|") < 4:
        return None
    rows = [m for m in _TABLE_ROW.finditer(text) if not set(m[0]) <= set("|-: \t")]
    if len(rows) < 2:
        return None
    cells = [[c for c in _TABLE_CELL.finditer(text, m.start(), m.end()) if c[0].strip()]
             for m in rows]  # fmt: skip
    out = _Builder(src)
    for column in range(max(len(r) for r in cells)):
        for row in cells:
            if column < len(row):
                cell = row[column]
                lead = len(cell[0]) - len(cell[0].lstrip())
                out.copy(cell.start() + lead, cell.start() + len(cell[0].rstrip()))
                out.put(" ", cell.end() - 1, cell.end())
        out.put("\n", rows[-1].end() - 1, rows[-1].end())
    return out.view()


# --------------------------------------------------------------------- the views the scan uses


# A credential's name in leetspeak ("p4ssw0rd:", "t0k3n =", "4pi_k3y="): the digits and symbols
# leetspeak writes for letters, read back only in a token that then spells a key word (optionally
# with name parts: "db_p455", "acc3ss_t0k3n"), so the rules and the model see the name they know.
_LEET_KEY_TOKEN = re.compile(r"(?<![A-Za-z0-9_@$])[A-Za-z0-9_@$]+(?:[.-][A-Za-z0-9_@$]+)*")
_LEET_CHARS = frozenset("013457@$8")
_KEY_NAME = re.compile(  # no nested repeats: a long key read back must not backtrack
    r"[a-z_.-]{0,24}?(?:pass(?:word|wd|phrase|code)?|pwd|token|secret|key|apikey|auth|"
    r"credentials?|pin)[a-z_.-]{0,24}"
)
_MAX_NAME = 40  # a longer token is a value, not a name
# Where a value starts: an operator, then spaces or a quote ("=$VAR", ": '$VAR").
_BEFORE_VALUE = re.compile(r"(?:=|:|=>)[ \t\"'`]*\Z")
_UNLEET_I = str.maketrans("0134578@$", "oieastbas")
_UNLEET_L = str.maketrans("0134578@$", "oleastbas")


# `leet_key_view`'s pre-check, on the text's UTF-8 bytes (a token's characters are ASCII): each
# byte as a token's character ("a"), a leetspeak one among them ("1") or neither (" "); key
# names' words; and a run's bytes read back as `_UNLEET_I` and `_UNLEET_L` read a lowered token.
_LEET_CHAR = re.compile(r"[013457@$8]")
_RUN_MASK = bytes(
    ord("1") if chr(b) in _LEET_CHARS else ord("a") if re.fullmatch(r"[A-Za-z0-9_@$.-]", chr(b))
    else ord(" ")
    for b in range(256)
)  # fmt: skip
_KEY_WORD = re.compile(rb"pass|pwd|token|secret|key|auth|credential|pin")
_UPPER, _LOWER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz"
_READ_I = bytes.maketrans(_UPPER + b"0134578@$", _LOWER + b"oieastbas")
_READ_L = bytes.maketrans(_UPPER + b"0134578@$", _LOWER + b"oleastbas")


def _may_hold_leet_key(text: str) -> bool:
    """Whether a run of a token's characters in `text` holds a leetspeak character and, read
    back, one of `_KEY_NAME`'s words: every token `leet_key_view` reads back as a key name lies
    in such a run (a text that says "password" as typed and "2024" apart is read no further).
    C-speed string calls only: it runs on every text the credential screen reads."""
    if _LEET_CHAR.search(text) is None:
        return False
    raw = text.encode("utf-8", "surrogatepass")
    mask = raw.translate(_RUN_MASK)
    at = mask.find(b"1")
    while at >= 0:
        start = mask.rfind(b" ", 0, at) + 1
        end = mask.find(b" ", at)
        end = len(mask) if end < 0 else end
        run = raw[start:end]
        if _KEY_WORD.search(run.translate(_READ_I)) or _KEY_WORD.search(run.translate(_READ_L)):
            return True
        at = mask.find(b"1", end)
    return False


def leet_key_view(src: View) -> View | None:
    """`src` with each credential name written in leetspeak read back ("p4ssw0rd" ->
    "password"), character for character, so every span maps to itself; None when no name is."""
    text = src.text
    if not _may_hold_leet_key(text):
        return None  # no token can read back as a key name: nothing below would be kept
    parts: list[str] = []
    last = 0
    words = 0  # leetspeak words that are no key name: two make a text written in leetspeak
    for m in _LEET_KEY_TOKEN.finditer(text):
        token = m.group(0)
        if len(token) > _MAX_NAME or not _LEET_CHARS.intersection(token):
            continue
        if not any(c.isalpha() for c in token):
            continue
        if token[0] == "$" and _BEFORE_VALUE.search(text, 0, m.start()):
            continue  # `KEY=$OPENAI_API_KEY`: a variable read as the value, not a name
        lowered = token.lower()
        for table in (_UNLEET_I, _UNLEET_L):
            plain = lowered.translate(table)
            if _KEY_NAME.fullmatch(plain):
                parts += [text[last : m.start()], plain]
                last = m.end()
                break
        else:  # a leetspeak word is small letters and digits (a key's chunk has capitals)
            words += (
                token == lowered
                and len(token) >= 3
                and any(lowered.translate(t).isalpha() for t in (_UNLEET_I, _UNLEET_L))
            )
    if not parts or words >= 2:  # a text in leetspeak: its words are no key's name
        return None
    parts.append(text[last:])
    return View("".join(parts), src.starts, src.ends)


def secret_views(clean: str) -> list[tuple[str, View]]:
    """Every view of `clean` with a disguise undone, named, for the credential scan. Empty for
    text that shows no disguise (most text)."""
    views: list[tuple[str, View]] = []
    base = View.of(clean)
    plain = terminal_view(base)
    if plain is not None:
        views.append(("terminal", plain))
        base = plain
    folded = unicode_view(base)
    if folded is not None:
        views.append(("unicode", folded))
        base = folded
    leet = leet_key_view(base)
    if leet is not None:
        views.append(("leet", leet))
    dump = hexdump_view(base)
    if dump is not None:
        views.append(("decoded", dump))
    escaped = percent_view(base)
    if escaped is not None:
        views.append(("decoded", escaped))
    table = table_columns_view(base)
    if table is not None:
        columns = join_split_tokens(table, find_disguises(table.text))
        views.append(("joined", columns or table))
    spans = find_disguises(base.text)
    if not spans:
        return views
    spaced = collapse_spaced(base, spans, values=True)
    if spaced is not None:
        views.append(("spaced", spaced))
    joined = join_split_tokens(base, spans)
    if spaced is not None:  # chunks spelled out one character at a time, or spaced and split
        joined = join_split_tokens(spaced, find_disguises(spaced.text)) or joined
    if joined is not None:
        views.append(("joined", joined))
    decoded = decode_encoded(base, spans, paths=True)
    if decoded is not None:
        views.append(("decoded", decoded))
        twice = decode_encoded(decoded, find_disguises(decoded.text), paths=True)  # of hex, ...
        if twice is not None:
            views.append(("decoded", twice))
    if joined is not None:  # hex or base64 wrapped over lines, or cut into chunks
        rejoined = decode_encoded(joined, find_disguises(joined.text), paths=True)
        if rejoined is not None:
            views.append(("decoded", rejoined))
    return views
