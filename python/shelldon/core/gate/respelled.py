"""A credential respelled so its characters are all there and no run of them is (issue 23's
seventh hostile round).

The views in gate.views and gate.spelled undo a disguise that keeps a key's characters in order
with something between them (spaces, separators, words said for letters, codes). These undo the
ones where the order is the reader's to rebuild:
- an acrostic: a run of words whose first letters spell the key ("sparrow, kettle, -, pebble",
  one word a line, capitals kept, digits and symbols standing alone);
- two texts interleaved a character each ("QxuqazrjtxzqB...": every other character is filler);
- position and character pairs counted from 1 ("1=M, 2=a, 3=l, ...");
- a markdown table one character a cell, along a row or down a column;
- a string added up from quoted pieces in code ('"sk-p" + "roj-" + ...');
- Morse code with its digits and symbols (case is lost: the key reads in lower case);
- ROT47 (every printable character turned 47 places: letters come out as digits and symbols).
Each is a `View` of the text for the credential scan (gate.screen), the run replaced by what it
spells, so a credential found there blanks the whole run. Ordinary text shows none of these
shapes (the common case costs a few searches), and a shape found spells a credential only when
the rules say so: a word list's initials or a table of single letters is no key.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Sequence

from shelldon.core.gate.regrouped import regrouped_pieces
from shelldon.core.gate.spelled import Piece, pieces_view
from shelldon.core.gate.views import View

MIN_RUN = 8  # characters a respelling must give before it is read (shorter: initials, a word)

# --- an acrostic -------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
# Eight or more units (a word, capitalised or not, or a lone character), whitespace apart.
_UNIT = r"(?:[A-Za-z][a-z]+|[!-~])[,;]?(?=\s|$)"
_UNIT_RUN = re.compile(rf"(?<!\S){_UNIT}(?:\s+{_UNIT}){{7,}}")
_LONE = re.compile(r"[^A-Za-z]")
_STARTS = 3
# Seven items of one printable and lower-case letters, each followed by a comma and blanks. Read
# from its first comma (a literal, which the regex engine finds fast; the item before it is any
# printable character there): tried from every position it was a fifth of a 2 KB entry's screen.
_COMMA_LIST = re.compile(r",(?<=[!-~],)[ \t]++(?:[!-~][a-z]*+,[ \t]++){6}")
_LONE_TOKEN = re.compile(r"(?<!\S)[^\sA-Za-z][,;]?(?!\S)")


# A digit said as its English word in an acrostic stands for the digit ("seven" -> "7"): the
# eighth hostile round's "Thistle, honey, ..., two, zero, zero, seven, #".
_DIGIT_WORDS = {
    w: str(i)
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    )
}


def _initial(token: str) -> str:
    return _DIGIT_WORDS.get(token.rstrip(",;").lower(), token[0])


def _acrostics(text: str) -> list[list[Piece]]:
    """Runs of eight or more words and lone characters, read as their first characters, when
    the run is a list (each unit on its own line, or after a comma) or holds two or more lone
    digits or symbols (a password's tail, a key's dashes), and three in five units or more are
    words (a run of lone characters is text spaced out: the spaced view's); prose is neither.
    The acrostic may begin inside a run ("Leo's game went Orchard sparrow ..."): a view each
    for the run read from its start and from each of its first three capitalised words."""
    if not (
        text.count("\n") >= MIN_RUN - 1
        or _COMMA_LIST.search(text)
        or len(_LONE_TOKEN.findall(text, 0, 4096)) >= 2
    ):
        return []  # no list and fewer than two lone digits or symbols: the common case
    variants: list[list[Piece]] = [[] for _ in range(_STARTS + 1)]
    for span in _UNIT_RUN.finditer(text):
        if (
            span[0].count("\n") < MIN_RUN - 1
            and not _COMMA_LIST.search(span[0])
            and len(_LONE_TOKEN.findall(span[0])) < 2
        ):
            continue  # prose: no list, fewer than two lone digits or symbols
        run = list(_TOKEN.finditer(text, span.start(), span.end()))
        if len(run) >= MIN_RUN:
            lone = sum(len(t[0].rstrip(",;")) == 1 and bool(_LONE.match(t[0])) for t in run)
            gaps = [text[a.end() : b.start()] for a, b in itertools.pairwise(run)]
            listed = all("\n" in g for g in gaps) or all(a[0].endswith(",") for a in run[:-1])
            words = sum(len(t[0].rstrip(",;")) > 1 for t in run)
            if (lone >= 2 or listed) and words * 5 >= len(run) * 3:
                capitals = [i for i, t in enumerate(run) if i and t[0][:2].istitle()]
                for variant, first in zip(variants, [0, *capitals[:_STARTS]], strict=False):
                    if len(run) - first >= MIN_RUN:
                        chars = "".join(_initial(t[0]) for t in run[first:])
                        variant.append((run[first].start(), run[-1].end(), chars))
    return [v for v in variants if v]


# --- two texts interleaved ---------------------------------------------------------------------
_LONG_TOKEN = re.compile(r"\S{24,}")


def _interleaved(text: str) -> list[Piece]:
    """Every other character of a token of 24 or more, where the characters between are
    letters only (filler: "Qxuqazrjtxzq..." reads "Quartz...") and those taken hold a letter
    and a digit (an identifier's every other character, "process.env.APP_PASSWORD", has
    none). Interleaved with a text that has spaces, the pieces between the spaces are the
    other views' to find: the line's every other character runs into the prose around it,
    and three-letter words put their spaces on one side."""
    pieces: list[Piece] = []
    for token in _LONG_TOKEN.finditer(text):
        for parity in (0, 1):
            got, between = token[0][parity::2], token[0][1 - parity :: 2]
            if between.isalpha() and re.search(r"[A-Za-z]", got) and re.search(r"[0-9]", got):
                pieces.append((token.start(), token.end(), got))
    return pieces


# --- position and character pairs --------------------------------------------------------------
_PAIR = re.compile(r"(?<![0-9A-Za-z])([0-9]{1,3})[ \t]*(?:=|:|->|=>)[ \t]*[\"']?([!-~])[\"']?")
_PAIR_GAP = re.compile(r"[\s,;]{0,3}")


def _pairs(text: str) -> list[Piece]:
    """Eight or more "N=c" pairs in a row whose positions are 1 to n (in any order)."""
    pieces: list[Piece] = []
    run: list[re.Match[str]] = []
    for m in [*_PAIR.finditer(text), None]:
        if m is not None and (not run or _PAIR_GAP.fullmatch(text[run[-1].end() : m.start()])):
            run.append(m)
            continue
        found = {int(p[1]): p[2] for p in run}
        if (
            len(run) >= MIN_RUN
            and len(found) == len(run)
            and set(found) == set(range(1, len(run) + 1))
        ):
            pieces.append((run[0].start(), run[-1].end(), "".join(found[i] for i in sorted(found))))
        run = [m] if m is not None else []
    return pieces


# --- a table one character a cell --------------------------------------------------------------
_ROW = re.compile(r"(?m)^[ \t]*\|([^\n]*)\|[ \t]*$")


def _table_runs(text: str) -> list[list[Piece]]:
    """Each row, and each column, of eight or more single-character cells in a row, joined;
    a column is a view of its own (two columns cover the same rows). A header (the row above
    a |---| line) is read as a row, not as a column's first cell: it names the columns."""
    every = list(_ROW.finditer(text))
    rule = [set(m[1]) <= set("|-: \t") for m in every]
    rows = [m for i, m in enumerate(every) if not rule[i]]
    if not rows:
        return []
    headers = {i for i, m in enumerate(every) if not rule[i] and i + 1 < len(every) and rule[i + 1]}
    cells = [[c.strip() for c in m[1].split("|")] for m in rows]
    views: list[list[Piece]] = []
    row_pieces = [
        (m.start(), m.end(), "".join(row))
        for m, row in zip(rows, cells, strict=True)
        if len(row) >= MIN_RUN and all(len(c) == 1 for c in row)
    ]
    if row_pieces:
        views.append(row_pieces)
    body = [m for i, m in enumerate(every) if not rule[i] and i not in headers]
    body_cells = [[c.strip() for c in m[1].split("|")] for m in body]
    for column in range(max((len(r) for r in body_cells), default=0)):
        run: list[int] = []
        for i, row in enumerate([*body_cells, []]):
            if column < len(row) and len(row[column]) == 1:
                run.append(i)
                continue
            chars = "".join(body_cells[j][column] for j in run)
            if len(run) >= MIN_RUN and not chars.isdigit():
                views.append([(body[run[0]].start(), body[run[-1]].end(), chars)])
            run = []
    return views[:4]


# --- a string added up from pieces -------------------------------------------------------------
_QUOTED = r"(?:\"[^\"\n]{1,40}\"|'[^'\n]{1,40}')"
_JOIN = r"[ \t]*(?:\+|\.\.?|\|\||&)?[ \t]*"
_ADDED = re.compile(rf"{_QUOTED}(?:{_JOIN}{_QUOTED}){{2,}}")
_PIECE = re.compile(_QUOTED)


def _added(text: str) -> list[Piece]:
    """Three or more quoted strings added or set side by side, as the one string they make."""
    pieces: list[Piece] = []
    for m in _ADDED.finditer(text):
        joined = "".join(p[0][1:-1] for p in _PIECE.finditer(m[0]))
        if len(joined) >= MIN_RUN:
            pieces.append((m.start(), m.end(), joined))
    return pieces


# --- Morse, ROT47 ------------------------------------------------------------------------------
_MORSE_CODES = (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- "
    "...- .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----. "
    "-.-.-- ...-..- .-... -....- ..--.- .-.-.- -.--. -.--.- ---... .-.-. -...- .--.-."
)
_MORSE = dict(
    zip(
        _MORSE_CODES.split(" "),
        "abcdefghijklmnopqrstuvwxyz0123456789!$&-_.():+=@",
        strict=True,
    )
)
_MORSE_RUN = re.compile(r"(?<![.\-\w])[.-]{1,7}(?:[ \t]+(?:/[ \t]+)?[.-]{1,7}){7,}(?![.\-\w])")
MORSE_RULE_ID = "morse-spelled-code"
_CODE_WORD = re.compile(r"(?=[a-z0-9!$&_.():+=@-]*[a-z])(?=[a-z0-9!$&_.():+=@-]*[0-9])\S{8,}")
# A password with no digit: letters with a symbol between two of them ("bramble!otter"); a word
# with a hyphen, a dot, a colon or brackets, and an address's "@", are prose's.
_SYMBOL_WORD = re.compile(r"(?=\S*[a-z][!$&+=][a-z])\S{8,}")


def morse_codes(clean: str) -> list[tuple[str, int, int]]:
    """Morse runs that spell a code: a word of eight or more characters holding letters and
    digits ("saffronheron2004"). Morse loses case, so a password read from it has no
    password's shape for the rules; ordinary Morse ("sos", a word, a call sign) is no hit."""
    hits: list[tuple[str, int, int]] = []
    if ".-" not in clean and "-." not in clean:
        return hits
    for m in _MORSE_RUN.finditer(clean):
        words = re.split(r"[ \t]+/[ \t]+|[ \t]{2,}", m[0])
        spelled = ["".join(_MORSE.get(code, "") for code in w.split()) for w in words]
        if any(_CODE_WORD.fullmatch(w) or _SYMBOL_WORD.fullmatch(w) for w in spelled):
            hits.append((MORSE_RULE_ID, m.start(), m.end()))
    return hits


def _morse(text: str) -> list[Piece]:
    """Eight or more Morse codes one space apart, read (a code no table has is left out)."""
    pieces: list[Piece] = []
    if ".-" not in text and "-." not in text:
        return pieces
    for m in _MORSE_RUN.finditer(text):
        chars = "".join(_MORSE.get(code, "") for code in m[0].split())
        if len(chars) >= MIN_RUN:
            pieces.append((m.start(), m.end(), chars))
    return pieces


_ROT47_TOKEN = re.compile(r"[!-~]{8,64}")
_DROP_ALNUM = str.maketrans("", "", string.ascii_letters + string.digits)


def _rot47(text: str) -> list[Piece]:
    """Tokens of eight or more characters, a quarter of them or more symbols, that turn 47
    places into letters and digits with at most a symbol in eight, a letter and a digit among
    them (ROT47 writes most lower-case letters as digits and symbols; a key has few symbols)."""
    pieces: list[Piece] = []
    for m in _ROT47_TOKEN.finditer(text):
        token = m[0]
        if len(token.translate(_DROP_ALNUM)) * 4 < len(token):
            continue  # a word, a number, a key as it is (few symbols): not turned
        turned = "".join(chr(33 + (ord(c) - 33 + 47) % 94) for c in token)
        symbols = sum(not c.isalnum() for c in turned)
        if (
            symbols * 8 <= len(turned)
            and re.search(r"[A-Za-z]", turned)
            and re.search(r"[0-9]", turned)
        ):
            pieces.append((m.start(), m.end(), turned))
    return pieces


def respelled_views(clean: str, views: Sequence[tuple[str, View]]) -> list[tuple[str, View]]:
    """The respelled views of `clean` (on its look-alike view when `views` has one); empty for
    text that shows none of the shapes (most text)."""
    base = next((view for name, view in views if name == "unicode"), View.of(clean))
    text = base.text
    found: list[list[Piece]] = [
        *_acrostics(text),
        _interleaved(text),
        _pairs(text),
        _added(text),
        _morse(text),
        _rot47(text),
        *_table_runs(text),
        *regrouped_pieces(text),
    ]
    out = []
    for pieces in found:
        view = pieces_view(base, pieces)
        if view is not None:
            out.append(("respelled", view))
    return out
