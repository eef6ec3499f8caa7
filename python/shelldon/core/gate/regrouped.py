"""A credential regrouped so no run of it is whole (issue 23's eighth hostile round).

gate.respelled reads back a key whose characters are all there in order with something between
them. These read back the shapes the eighth round found it did not:
- two texts interleaved a character each where the filler has spaces ("Htahzee lkOisdpsr ...":
  every other character is a word's letter or a space, and the spaces all fall on the filler's
  side, which prose's spaces do not for long);
- a markdown table one character a cell whose rows are shorter than eight, read row after row
  (a 4 x 4 grid of a 16-character key);
- a key cut into chunks of one length, each chunk written backwards ("p-ks -jor R4dH nY8w");
- a wallet's seed phrase given word by word with each word's place ("the 7th word is river;
  the 2nd word is apple", "Word seven: orbit"), in any order: the words read in their places.
The first three are pieces for gate.respelled's views (the credential rules then decide: a
grid of noughts and crosses, or four-letter words backwards, is no key); the last is a hit of
the seed-phrase rule over the whole run of places.
"""

from __future__ import annotations

import re

from shelldon.core.gate.seed_words import SEED_RULE_ID, seed_phrases
from shelldon.core.gate.spelled import Piece

MIN_RUN = 8  # characters a regrouping must give before it is read

# --- interleaved with a text that has spaces ----------------------------------------------------
# Pairs of a printable character and a filler letter or space, from a token's start.
_PAIRED = re.compile(r"(?<!\S)(?:[!-~][A-Za-z ]){8,}[!-~]?")
_HAS_DIGIT = re.compile(r"[0-9]")
_HAS_LETTER = re.compile(r"[A-Za-z]")


def interleaved_spaced(text: str) -> list[Piece]:
    """Runs of eight or more pairs (a character, then a filler letter or space) whose filler
    holds a space and whose characters hold a letter and a digit, read as their characters;
    also from each token start in the run's first three tokens (the run may begin in the prose
    before it: "note: Htahzee ..." pairs "n", "t", ":" with "o", "e", " ")."""
    pieces: list[Piece] = []
    if not _HAS_DIGIT.search(text):
        return pieces
    for m in _PAIRED.finditer(text):
        run = m[0]
        starts = [0, *[i + 1 for i, c in enumerate(run[:-1]) if c == " " and i % 2 == 1][:3]]
        for first in starts:
            taken, filler = run[first::2], run[first + 1 :: 2]
            if (
                len(taken) >= MIN_RUN
                and " " in filler
                and _HAS_DIGIT.search(taken)
                and _HAS_LETTER.search(taken)
            ):
                pieces.append((m.start() + first, m.end(), taken))
                break
    return pieces


# --- a grid of single characters, rows shorter than eight ---------------------------------------
_ROW = re.compile(r"(?m)^[ \t]*\|([^\n]*)\|[ \t]*$")


def grid_rows(text: str) -> list[Piece]:
    """Two or more table rows in a row whose cells are single characters and fewer than eight
    a row, read row after row, when they give eight or more (a longer row is gate.respelled's,
    read alone). Rows above a |---| line are a header: they name the columns."""
    pieces: list[Piece] = []
    if "|" not in text:
        return pieces
    run: list[tuple[int, int, str]] = []
    for m in [*_ROW.finditer(text), None]:
        if m is not None:
            cells = [c.strip() for c in m[1].split("|")]
            if set(m[1]) <= set("|-: \t"):
                run = []  # a header's rule line: the rows above named the columns
                continue
            if (
                len(cells) < MIN_RUN
                and all(len(c) == 1 for c in cells)
                and (not run or not text[run[-1][1] : m.start()].strip("\n"))
            ):
                run.append((m.start(), m.end(), "".join(cells)))
                continue
        chars = "".join(r[2] for r in run)
        if len(run) >= 2 and len(chars) >= MIN_RUN:
            pieces.append((run[0][0], run[-1][1], chars))
        run = []
        if m is not None:
            cells = [c.strip() for c in m[1].split("|")]
            if len(cells) < MIN_RUN and all(len(c) == 1 for c in cells):
                run = [(m.start(), m.end(), "".join(cells))]
    return pieces


# --- chunks each written backwards --------------------------------------------------------------
_CHUNKS = re.compile(
    r"(?<!\S)(?:(?:[!-~]{4}[ \t]){3,}[!-~]{1,4}|(?:[!-~]{5}[ \t]){3,}[!-~]{1,5}"
    r"|(?:[!-~]{6}[ \t]){3,}[!-~]{1,6}|(?:[!-~]{8}[ \t]){2,}[!-~]{1,8})(?!\S)"
)


def reversed_chunks(text: str) -> list[Piece]:
    """Four or more space-parted chunks of one length (4, 5, 6 or 8; the last may be shorter),
    two or more holding a digit, read each backwards and joined."""
    pieces: list[Piece] = []
    if not _HAS_DIGIT.search(text):
        return pieces
    for m in _CHUNKS.finditer(text):
        chunks = m[0].split()
        if sum(bool(_HAS_DIGIT.search(c)) for c in chunks) >= 2:
            pieces.append((m.start(), m.end(), "".join(c[::-1] for c in chunks)))
    return pieces


# --- a seed phrase word by word with its places --------------------------------------------------
_PLACE_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
_ORDINAL_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zeroth",
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
        ]
    )
}
_PLACES = "|".join(sorted([*_PLACE_WORDS, *_ORDINAL_WORDS], key=lambda w: -len(w)))
# A place (a number with or without its ordinal's ending, or a number word), maybe "word" around
# it, then what joins it to the word ("is", ":", "=", "-", a bracket), then the word.
_PLACED = re.compile(
    rf"(?i)\b(?:(?P<n>[0-9]{{1,2}})(?:st|nd|rd|th)?|(?P<w>{_PLACES}))\b"
    r"(?:[ \t]+words?)?[ \t]*(?:[:=.)\-][ \t]*|(?:is|was)[ \t]+)(?P<word>[A-Za-z]{3,8})\b"
)
MIN_PLACED = 12


def placed_seed_words(text: str) -> list[tuple[str, int, int]]:
    """A seed-phrase hit over the run of twelve or more words each given with its place (1 to
    n, in any order, each place once) when the words in their places are a seed phrase."""
    placed = []
    for m in _PLACED.finditer(text):
        word = m["w"]
        place = int(m["n"]) if m["n"] else _PLACE_WORDS.get(word.lower(), 0)
        place = place or _ORDINAL_WORDS.get((word or "").lower(), 0)
        placed.append((place, m))
    if len(placed) < MIN_PLACED:
        return []
    by_place = {place: m for place, m in placed}
    if len(by_place) != len(placed) or set(by_place) != set(range(1, len(placed) + 1)):
        return []
    words = " ".join(by_place[i]["word"].lower() for i in range(1, len(placed) + 1))
    if not seed_phrases(words):
        return []
    return [(SEED_RULE_ID, min(m.start() for _, m in placed), max(m.end() for _, m in placed))]


def regrouped_pieces(text: str) -> list[list[Piece]]:
    """The regroupings above that are pieces of a view, each a view's worth; empty for most
    text."""
    return [p for p in (interleaved_spaced(text), grid_rows(text), reversed_chunks(text)) if p]
