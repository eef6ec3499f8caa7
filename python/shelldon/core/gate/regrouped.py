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

import itertools
import re

from shelldon.core.gate.seed_words import SEED_RULE_ID, seed_phrases
from shelldon.core.gate.spelled import Piece

MIN_RUN = 8  # characters a regrouping must give before it is read

# --- interleaved with a text that has spaces ----------------------------------------------------
# Pairs of a printable character and a filler letter or space, from a token's start.
_PAIRED = re.compile(r"(?<!\S)(?:[!-~][A-Za-z ]){8,}[!-~]?")
# Where such a run may be: a digit with a filler character either side, and a character and a
# filler after it (a year in a password, interleaved: "1v9e8d3"). Prose's digits sit beside
# digits, spaces and punctuation ("room 214", "9:15"). Starts with the digit: the engine skips
# to digits.
_INTERLEAVED_DIGIT = re.compile(r"[0-9](?<=[A-Za-z ][0-9])[A-Za-z ][!-~][A-Za-z ]")
_HAS_DIGIT = re.compile(r"[0-9]")
_HAS_LETTER = re.compile(r"[A-Za-z]")
_WINDOW = 160  # characters either side of such a digit a run is looked for in


def _windows(text: str, at: list[int]) -> list[tuple[int, int]]:
    """`_WINDOW` either side of each position, overlapping windows merged."""
    merged: list[tuple[int, int]] = []
    for pos in at:
        start, end = max(0, pos - _WINDOW), min(len(text), pos + _WINDOW)
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def interleaved_spaced(text: str) -> list[Piece]:
    """Runs of eight or more pairs (a character, then a filler letter or space) whose filler
    holds a space and is half letters or more (text spaced out one letter at a time is the
    spaced view's, and its letters joined are no key) and whose characters hold a letter and a
    digit, read as their characters;
    also from each token start in the run's first three tokens (the run may begin in the prose
    before it: "note: Htahzee ..." pairs "n", "t", ":" with "o", "e", " "). Looked for only
    near a digit with filler either side."""
    pieces: list[Piece] = []
    at = [m.start() for m in _INTERLEAVED_DIGIT.finditer(text)]
    if not at:
        return pieces
    for lo, hi in _windows(text, at):
        for m in _PAIRED.finditer(text, lo, hi):
            run = m[0]
            starts = [0, *[i + 1 for i, c in enumerate(run[:-1]) if c == " " and i % 2][:3]]
            for first in starts:
                taken, filler = run[first::2], run[first + 1 :: 2]
                if (
                    len(taken) >= MIN_RUN
                    and " " in filler
                    and filler.count(" ") * 2 <= len(filler)
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


# A digit beside a letter (starts with the digit: the engine skips to digits).
_MIXED_DIGIT = re.compile(r"[0-9](?:(?<=[A-Za-z][0-9])|(?=[A-Za-z]))")
_CLOSE = 12


def reversed_chunks(text: str) -> list[Piece]:
    """Four or more space-parted chunks of one length (4, 5, 6 or 8; the last may be shorter),
    two or more holding a digit, read each backwards and joined."""
    pieces: list[Piece] = []
    mixed = [m.start() for m in _MIXED_DIGIT.finditer(text)]
    # A key's chunks hold digits beside letters, a few characters apart; prose's numbers stand
    # alone, and code's ("k1", "x2") are lines apart.
    at = [a for a, b in itertools.pairwise(mixed) if b - a <= _CLOSE]
    if not at:
        return pieces
    for lo, hi in _windows(text, at):
        for m in _CHUNKS.finditer(text, lo, hi):
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
# A place, maybe "word" after it, what joins it to its word ("is", ":", "=", "-", a bracket),
# then the word. Two searches: a place in digits (the engine skips to digits), and one as a
# word (its alternation is tried at every word, so only in a text that says "twelve" or
# "twelfth", or holds some places in digits: a phrase of twelve or more words has a twelfth
# place, and so has "12").
_JOIN = r"(?:[ \t]+words?)?[ \t]*(?:[:=.)\-][ \t]*|(?:is|was)[ \t]+)(?P<word>[A-Za-z]{3,8})\b"
_PLACED_DIGITS = re.compile(rf"[0-9](?<![0-9][0-9])[0-9]?(?![0-9])(?:st|nd|rd|th)?{_JOIN}")
_PLACED_WORDS = re.compile(rf"(?i)\b(?P<w>{_PLACES}){_JOIN}")
MIN_PLACED = 12


def _places(text: str) -> list[tuple[int, int, int, str]]:
    """(place, start, end, word) of each word given with its place."""
    placed = []
    if "12" in text:
        for m in _PLACED_DIGITS.finditer(text):
            digits = m[0][: 2 if m[0][1:2].isdigit() else 1]
            placed.append((int(digits), m.start(), m.end(), m["word"].lower()))
    folded = text.lower()
    if "twelve" in folded or "twelfth" in folded or 0 < len(placed) < MIN_PLACED:
        for m in _PLACED_WORDS.finditer(text):
            word = m["w"].lower()
            place = _PLACE_WORDS[word] if word in _PLACE_WORDS else _ORDINAL_WORDS[word]
            placed.append((place, m.start(), m.end(), m["word"].lower()))
    return placed


def placed_seed_words(text: str) -> list[tuple[str, int, int]]:
    """A seed-phrase hit over the run of twelve or more words each given with its place (1 to
    n, in any order, each place once) when the words in their places are a seed phrase."""
    placed = _places(text)
    if len(placed) < MIN_PLACED:
        return []  # the common case
    by_place = {place: word for place, _, _, word in placed}
    if len(by_place) != len(placed) or set(by_place) != set(range(1, len(placed) + 1)):
        return []
    if not seed_phrases(" ".join(by_place[i] for i in range(1, len(placed) + 1))):
        return []
    return [(SEED_RULE_ID, min(p[1] for p in placed), max(p[2] for p in placed))]


def regrouped_pieces(text: str) -> list[list[Piece]]:
    """The regroupings above that are pieces of a view, each a view's worth; empty for most
    text."""
    return [p for p in (interleaved_spaced(text), grid_rows(text), reversed_chunks(text)) if p]
