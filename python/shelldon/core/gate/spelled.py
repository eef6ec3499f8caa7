"""A credential spelled out unit by unit, or written as character codes (issue 23, tenth pass).

Disguises the other views (gate.views) leave alone, each a value written a character (or a
symbol) at a time:

- spelled: one character a token across lines or lists ("g\\nh\\np\\n_", "- g\\n- h",
  "'g', 'h', 'p'"), or a character a word, as said aloud: the NATO alphabet, digits as words,
  "capital" before a letter, "underscore", "dash" ("golf hotel papa underscore capital romeo
  seven ..."). A run of 8 or more such units (4 when every unit is a digit word: a PIN said
  "seven two nine one") is joined into the characters it spells. Also: characters strung on one
  separator that is no punctuation ("g🔑h🔑p"), symbols said between a value's parts ("sk
  underscore live underscore 4eC3..."), and characters given by position ("char 1 is g, ...").
- codes: HTML character references (`&#103;`, `&#x67;`), `\\uXXXX` / `\\u{..}` / `\\xXX`
  escapes, and lists of byte values (`0x67, 0x68`, `103 104 112`, `01100111 01101000`), each
  read back as its character.

Where either may be is found by one Rust scan (`_finder`: a few microseconds for 2 KB, like
views.find_disguises); Python reads only the spans found. Each character of a view stands for
the run or code that wrote it, so a credential found blanks its spelling. The views are the
credential scan's only: an order spelled aloud is the instruction screen's (gate.ciphers).

Over 400 lines: each spelling is a reader of its own, and they share the span mapping and the
one native scan that finds where to read, so they live together.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from shelldon._native import Scanner
from shelldon.core.gate.views import Spans, View, finder_scanner

_NATO = {
    "alpha": "a", "alfa": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e",
    "foxtrot": "f", "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j",
    "kilo": "k", "lima": "l", "mike": "m", "november": "n", "oscar": "o", "papa": "p",
    "quebec": "q", "romeo": "r", "sierra": "s", "tango": "t", "uniform": "u", "victor": "v",
    "whiskey": "w", "whisky": "w", "xray": "x", "x-ray": "x", "yankee": "y", "zulu": "z",
}  # fmt: skip
_DIGITS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9",
    # Other languages' digit words (issue 23, second red team: "Tresor-PIN: neun vier sieben"):
    # German, French, Spanish, Italian; the words any of them shares with English mean the same.
    "null": "0", "eins": "1", "zwei": "2", "zwo": "2", "drei": "3", "vier": "4", "fünf": "5",
    "sechs": "6", "sieben": "7", "acht": "8", "neun": "9",
    "zéro": "0", "un": "1", "deux": "2", "trois": "3", "quatre": "4", "cinq": "5", "sept": "7",
    "huit": "8", "neuf": "9",
    "cero": "0", "uno": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6",
    "siete": "7", "ocho": "8", "nueve": "9",
    "due": "2", "tre": "3", "quattro": "4", "cinque": "5", "sei": "6", "sette": "7", "otto": "8",
    "nove": "9",
}  # fmt: skip
_SYMBOLS = {
    "underscore": "_", "dash": "-", "hyphen": "-", "minus": "-", "dot": ".", "period": ".",
    "slash": "/", "plus": "+", "equals": "=", "colon": ":",
    # The symbols a password ends in, said aloud (issue 23, sixth hostile round: "... one nine
    # eight eight bang"); "at", "and", "star" and "question" are left out (prose says them).
    "bang": "!", "exclamation": "!", "hash": "#", "hashtag": "#", "dollar": "$",
    "percent": "%", "ampersand": "&", "asterisk": "*", "caret": "^", "tilde": "~",
}  # fmt: skip
_UPPER = frozenset({"capital", "uppercase", "upper", "cap", "caps"})
_LOWER = frozenset({"lowercase", "lower", "small"})
_SPOKEN = frozenset({*_NATO, *_DIGITS, *_SYMBOLS, *_UPPER, *_LOWER})
# The words the "spelled" finder looks for, longest first.
SPELLED_WORDS = sorted({*_NATO, *_DIGITS, *_SYMBOLS, *_UPPER, *_LOWER}, key=lambda w: (-len(w), w))
_WORD_ALTS = "|".join(re.escape(w) for w in SPELLED_WORDS)
# A unit is one printable ASCII character: a key is ASCII once look-alikes are mapped (the
# finder reads the look-alike view), and a run of accented letters or CJK is prose.
_UNIT = r"[\"'`(\[]?[!-~][\"'`)\],;.]{0,2}"
_BYTE_ALT = r"(?:0[xX][0-9a-fA-F]{1,2}|[01]{8}|[0-9]{2,3})"
_FINDERS = {
    # Eight or more single characters (wrapped in quotes or brackets, or after a list marker),
    # one a token, across spaces and line breaks.
    "units": (
        rf"(?:^|\s)(?P<secret>{_UNIT}(?:\s+(?:[-*•]\s+|[0-9]{{1,2}}[.)]\s+)?{_UNIT}){{7,}})"
        r"(?:\s|$)"
    ),
    # Four or more spelling words in a row ("golf hotel papa", "seven two nine one").
    "spelled": (
        rf"(?i)(?:^|[^a-z])(?P<secret>(?:{_WORD_ALTS})(?:[\s,;.-]+(?:{_WORD_ALTS})){{3,}})"
        r"(?:[^a-z]|$)"
    ),
    # Six or more character codes, at most two spaces or commas apart.
    # (A backslash between two: escapes written into JSON or a string literal are doubled.)
    "codes": (
        r"(?P<secret>(?:(?:&#[0-9]{2,7};|&#[xX][0-9a-fA-F]{1,6};|\\u\{[0-9a-fA-F]{1,6}\}"
        r"|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}|\\[0-3][0-7]{2}"
        r"|&[A-Za-z]{2,8};)[\s,\\]{0,2}){6,})"
    ),
    # Twelve or more characters strung on one separator that is no letter, digit or space
    # ("g🔑h🔑p🔑_..."; the views' separated finder knows only punctuation).
    "strung": r"(?P<secret>[!-~](?:[^\sA-Za-z0-9][!-~]){11,})",
    # Symbols said as words between the parts of a value ("sk underscore live underscore 4eC3").
    "said": (
        r"(?i)(?P<secret>[!-~]+(?:[ \t]+(?:underscore|dash|hyphen|dot|slash|colon)[ \t]+[!-~]+)+)"
    ),
    # Eight or more characters given by position ("char 1 is g, char 2 is h, ...").
    "positions": (
        r"(?i)(?P<secret>(?:(?:char(?:acter)?|letter|symbol|digit|position|pos|#)[ \t]*"
        r"[0-9]{1,3}[ \t]*(?:is|=|:|->)[ \t]*[\"']?[!-~][\"']?[^A-Za-z0-9]{0,6}){8,})"
    ),
    # Eight or more byte values, one to three spaces, commas or semicolons apart, or one dot,
    # dash, bar, slash or colon (issue 23, sixth hostile round: "84.104.105.115..."; an IP
    # address or a version has four parts at most).
    "bytes": (
        rf"(?:^|[^0-9A-Za-z.])(?P<secret>{_BYTE_ALT}(?:(?:[\s,;]{{1,3}}|[.|/:-]){_BYTE_ALT}){{7,}})"
        r"(?:[^0-9A-Za-z.]|$)"
    ),
}


_MERGE_GAP = 8  # characters between two matches of one kind that are one run


@cache
def _finder() -> Scanner:
    return finder_scanner(_FINDERS)


def find_spelled(text: str) -> Spans:
    """Where a value may be spelled out or written in codes, by kind (absent: none)."""
    spans: Spans = {}
    for kind, start, end in _finder().scan(text):
        found = spans.setdefault(kind, [])
        # The scan reports a long run as several matches: a run is read whole, so they are one.
        if found and start - found[-1][1] <= _MERGE_GAP:
            found[-1] = (found[-1][0], max(end, found[-1][1]))
        else:
            found.append((start, end))
    return spans


MIN_UNITS = 8  # a shorter run of single characters is initials, a list, an equation
MIN_DIGIT_WORDS = 4  # a PIN said aloud
_WRAP = "\"'`()[]{},;:"
_MARKER = re.compile(r"[-*•]|\d{1,2}[.)]")
_TOKEN = re.compile(r"\S+")


def _unit(token: str) -> tuple[str, str] | None:
    """What a token spells: ("char", c), ("digit", c) for a digit said as a word, ("upper", "")
    or ("skip", "") for a case word, or None when it is no unit."""
    if len(token) == 1:
        return ("char", token)
    core = token.strip(_WRAP)
    if len(core) > 1:
        core = core.rstrip(".")
    if len(core) == 1:
        return ("char", core)
    word = core.lower()
    if word in _NATO:
        return ("char", _NATO[word])
    if word in _DIGITS:
        return ("digit", _DIGITS[word])
    if word in _SYMBOLS:
        return ("char", _SYMBOLS[word])
    if word in _UPPER:
        return ("upper", "")
    if word in _LOWER:
        return ("skip", "")
    return None


Piece = tuple[int, int, str]  # a span of the view's source and what it stands for


def _runs(text: str, start: int, end: int) -> list[list[Piece]]:
    """The runs of units in text[start:end] long enough to be a spelled value."""
    # Whole tokens: a span may end inside one ("... 5 a" of "... 5 and"). Spelling words joined
    # by dashes ("golf-hotel-papa") are a token each.
    tokens = []
    for m in _TOKEN.finditer(text, start):
        if m.start() >= end and _unit(m.group()) is None:
            break  # past the span and the run it ends (the scan may cut a run's tail)
        words = m.group().split("-")
        if len(words) > 2 and all(w.lower().strip(_WRAP) in _SPOKEN for w in words if w):
            at = m.start()
            for word in words:
                if word:
                    tokens.append((at, at + len(word), word))
                at += len(word) + 1
        else:
            tokens.append((m.start(), m.end(), m.group()))
    runs: list[list[Piece]] = []
    run: list[Piece] = []
    digits_only = True
    upper = False

    def close() -> None:
        if len(run) >= MIN_UNITS or (digits_only and len(run) >= MIN_DIGIT_WORDS):
            runs.append(list(run))

    for index, (a, b, token) in enumerate(tokens):
        # A list marker ("- g", "3. g") at a line's start, before a unit on the same line.
        line_start = not text[text.rfind("\n", 0, a) + 1 : a].strip()
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if (
            _MARKER.fullmatch(token)
            and line_start
            and following is not None
            and "\n" not in text[b : following[0]]
        ):
            continue
        unit = _unit(token)
        if unit is None:
            close()
            run, digits_only, upper = [], True, False
            continue
        kind, char = unit
        if kind == "upper":
            upper = True
            continue
        if kind == "skip":
            continue
        run.append((a, b, char.upper() if upper else char))
        digits_only = digits_only and kind == "digit"
        upper = False
    close()
    return runs


_CODE = re.compile(
    r"&#(?P<dec>\d{2,7});|&#[xX](?P<hex>[0-9a-fA-F]{1,6});|\\{1,2}u\{(?P<brace>[0-9a-fA-F]{1,6})\}"
    r"|\\{1,2}u(?P<u>[0-9a-fA-F]{4})|\\{1,2}U(?P<big>[0-9a-fA-F]{8})"
    r"|\\{1,2}x(?P<x>[0-9a-fA-F]{2})|\\{1,2}(?P<oct>[0-3][0-7]{2})|&(?P<name>[A-Za-z]{2,8});"
)
_CODE_BASES = (
    ("dec", 10),
    ("hex", 16),
    ("brace", 16),
    ("u", 16),
    ("big", 16),
    ("x", 16),
    ("oct", 8),
)
_CODE_GAP = re.compile(r"[\s,\\]{0,2}")
_BYTE_GAP = re.compile(r"[\s,;]{1,3}|[.|/:-]")
_BYTE = re.compile(r"0[xX](?P<hex>[0-9a-fA-F]{1,2})|(?P<bin>[01]{8})|(?P<dec>\d{2,3})")


def _code_char(match: re.Match[str]) -> str | None:
    if match.group("name"):
        # Imported here: its entity table is ~0.3 MB that core would hold for good, and a named
        # reference in a run of six or more codes is rare (docs/performance.md, "Memory at rest").
        import html

        char = html.unescape(match.group(0))
        return char if len(char) == 1 else None
    for group, base in _CODE_BASES:
        value = match.group(group)
        if value is not None:
            number = int(value, base)
            return chr(number) if 32 <= number < 0x110000 and number != 0x7F else None
    return None


def _codes(text: str, start: int, end: int) -> list[Piece]:
    """The codes in text[start:end], those at most two spaces or commas apart joined into one
    piece (the separators dropped: "&#103; &#104;" is "gh")."""
    out: list[Piece] = []
    for m in _CODE.finditer(text, start):
        adjacent = bool(out) and _CODE_GAP.fullmatch(text, out[-1][1], m.start()) is not None
        if m.start() >= end and not adjacent:
            break  # past the span, and no longer the run it ends (the finder may cut a run)
        char = _code_char(m)
        if char is None:
            continue
        if adjacent:
            a, _, chars = out[-1]
            out[-1] = (a, m.end(), chars + char)
        else:
            out.append((m.start(), m.end(), char))
    return out


def _bytes(text: str, start: int, end: int) -> list[Piece]:
    """A list of byte values, all written alike (hex, binary or decimal), each printable ASCII."""
    found: list[re.Match[str]] = []
    for m in _BYTE.finditer(text, start):
        if found and not _BYTE_GAP.fullmatch(text, found[-1].end(), m.start()):
            break
        found.append(m)
    kinds = {m.lastgroup for m in found}
    if len(found) < MIN_UNITS or len(kinds) != 1:
        return []
    base = {"hex": 16, "bin": 2, "dec": 10}[kinds.pop() or "dec"]
    values = [int(m.group(m.lastgroup or 0), base) for m in found]
    if not all(32 <= v < 127 for v in values):
        return []
    return [(found[0].start(), found[-1].end(), "".join(map(chr, values)))]


def pieces_view(src: View, pieces: Sequence[Piece]) -> View | None:
    """`src` with each piece's span replaced by its characters (each standing for the span)."""
    if not pieces:
        return None
    text = src.text
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    cursor = 0
    for a, b, chars in sorted(pieces):
        if a < cursor:
            continue
        for i in range(cursor, a):
            s, e = src.origin(i, i + 1)
            starts.append(s)
            ends.append(e)
        parts.append(text[cursor:a])
        s, e = src.origin(a, b)
        parts.append(chars)
        starts += [s] * len(chars)
        ends += [e] * len(chars)
        cursor = b
    for i in range(cursor, len(text)):
        s, e = src.origin(i, i + 1)
        starts.append(s)
        ends.append(e)
    parts.append(text[cursor:])
    return View("".join(parts), starts, ends)


_SAID = re.compile(r"(?i)[ \t]+(underscore|dash|hyphen|dot|slash|colon)[ \t]+")
_POSITION = re.compile(
    r"(?i)(?:char(?:acter)?|letter|symbol|digit|position|pos|#)[ \t]*([0-9]{1,3})[ \t]*"
    r"(?:is|=|:|->)[ \t]*[\"']?([!-~])"
)


def _strung(text: str, start: int, end: int) -> list[Piece]:
    """Characters strung on one separator: kept when every separator is the same one."""
    span = text[start:end]
    separators = set(span[1::2])
    if len(separators) != 1 or not any(c.isalnum() for c in span[::2]):
        return []
    return [(start, end, span[::2])]


def _said(text: str, start: int, end: int) -> list[Piece]:
    joined = _SAID.sub(lambda m: _SYMBOLS[m.group(1).lower()], text[start:end])
    return [(start, end, joined)]


def _positions(text: str, start: int, end: int) -> list[Piece]:
    """Characters given by position, put in their order (a position given twice: no value)."""
    found: dict[int, str] = {}
    last = start
    for m in _POSITION.finditer(text, start):
        if m.start() - last > _MERGE_GAP:
            break  # the run ended (it may end past the span: the scan cuts a run's tail)
        found[int(m.group(1))] = m.group(2)
        last = end = m.end()
    if len(found) < MIN_UNITS:
        return []
    return [(start, max(end, last), "".join(found[i] for i in sorted(found)))]


def _spelled(text: str, run: list[Piece]) -> str:
    """What a run spells. Of single characters, the gap seen most often is inside a word; a
    longer one is a word break ("w e   e x p l o r e d": "we explored"), kept as a space. (Words
    said aloud have words between them: "capital", a list marker.)"""
    if any(b - a > 3 for a, b, _ in run):
        return "".join(c for _, _, c in run)
    gaps = [text[left[1] : right[0]] for left, right in itertools.pairwise(run)]
    inside = Counter(gaps).most_common(1)[0][0] if gaps else ""
    out = [run[0][2]]
    for gap, (_, _, char) in zip(gaps, run[1:], strict=True):
        if gap != inside and len(gap) > len(inside):
            out.append(" ")
        out.append(char)
    return "".join(out)


def spelled_view(src: View, spans: Spans) -> View | None:
    """`src` with each run of spelled units (one character a token, or a word a character)
    joined into the characters it spells; None when there is none. The run stands where its
    first unit was: words between (a list marker) are dropped with it."""
    pieces: list[Piece] = []
    for start, end in sorted(spans.get("units", []) + spans.get("spelled", [])):
        if pieces and start < pieces[-1][1]:
            start = pieces[-1][1]
        for run in _runs(src.text, start, end):
            pieces.append((run[0][0], run[-1][1], _spelled(src.text, run)))
    for kind, read in (("strung", _strung), ("said", _said), ("positions", _positions)):
        for start, end in spans.get(kind, []):
            pieces += read(src.text, start, end)
    if not pieces:
        return None
    # One piece per run, so a found credential blanks the whole run; the characters map to it.
    return pieces_view(src, pieces)


def codes_view(src: View, spans: Spans) -> View | None:
    """`src` with character codes and byte lists read back as their characters; None when
    there are none."""
    pieces: list[Piece] = []
    # The finder may report one long run of codes as several spans: read them as one.
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans.get("codes", [])):
        if merged and start - merged[-1][1] <= 8:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in merged:
        pieces += _codes(src.text, max(0, start - 1), end)
    for start, end in spans.get("bytes", []):
        pieces += _bytes(src.text, start, end)
    return pieces_view(src, pieces)


def spelled_views(clean: str, views: Sequence[tuple[str, View]]) -> list[tuple[str, View]]:
    """The spelled and coded views of `clean` (on its look-alike view when `views`, the other
    views of it, has one); empty for text with neither (most text)."""
    base = next((view for name, view in views if name == "unicode"), View.of(clean))
    spans = find_spelled(base.text)
    if not spans:
        return []
    out = []
    spelled = spelled_view(base, spans)
    if spelled is not None:
        out.append(("spelled", spelled))
    codes = codes_view(base, spans)
    if codes is not None:
        out.append(("codes", codes))
    return out
