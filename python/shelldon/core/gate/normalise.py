"""Text as the gate's checks see it: invisible characters dropped, look-alike letters from other
scripts mapped, disguises (leetspeak, spaced-out or separated letters, accents, %-escapes, \\u
escapes, hex and base64) undone into extra views, and the form exact-duplicate comparison uses."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

from shelldon.core.gate.ciphers import decipher, reversed_stretches
from shelldon.core.gate.rules import common_words, segment_words
from shelldon.core.gate.views import (
    CAPITAL_LOOKALIKES,
    HOMOGLYPHS,
    LATIN_LOOKALIKES,
    View,
    collapse_spaced,
    decode_encoded,
    find_disguises,
    strip_marks,
)

# Invisible characters used to split trigger words ("ig\u200bnore").
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
        "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff",
    ),
    None,
)

# Letters from other scripts that look like Latin ones (after NFKC and case folding).
_HOMOGLYPHS = str.maketrans(HOMOGLYPHS)
_LATIN_LOOKALIKES = str.maketrans(LATIN_LOOKALIKES)
_PUNCTUATION = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    }
    # Unicode tag characters U+E0020..U+E007E spell ASCII invisibly ("ASCII smuggling").
    | {0xE0000 + c: chr(c) for c in range(0x20, 0x7F)}
)  # fmt: skip

# Runs of spaces or tabs become one space. Written to match only what changes (a lone space
# stays unmatched): substituting every single space cost 0.1 ms per 2 KB.
_HSPACE = re.compile(r"[^\S\n]{2,}|[^\S\n ]")


def strip_invisible(text: str) -> str:
    """Drop zero-width and direction-control characters."""
    return text if text.isascii() else text.translate(_INVISIBLE)


_HOMOGLYPH_CHARS = re.compile("[" + re.escape("".join(chr(c) for c in _HOMOGLYPHS)) + "]")
_CAPITALS = str.maketrans(CAPITAL_LOOKALIKES)
_CAPITAL_CHARS = re.compile("[" + "".join(CAPITAL_LOOKALIKES) + "]")
_CAPITAL_WORD = re.compile(r"[^\W\d_]+")
_LATIN_LETTER = re.compile(r"[A-Za-z]")


def _map_capitals(text: str) -> str:
    """Look-alike capitals of other scripts read as Latin ones, before case folding: in a word
    that has Latin letters, or one spelled wholly in look-alike capitals in text that has Latin
    letters ("ΤΗΕ" beside "IGΝΟRΕ"); Greek or Cyrillic prose with no Latin letter stays itself."""
    latin_text = _LATIN_LETTER.search(text) is not None

    def one(match: re.Match[str]) -> str:
        word = match.group(0)
        if any("A" <= ch <= "z" for ch in word) or (
            latin_text and all(ch in CAPITAL_LOOKALIKES for ch in word)
        ):
            return word.translate(_CAPITALS)
        return word

    return _CAPITAL_WORD.sub(one, text)


_MIXED_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def _map_mixed_word(match: re.Match[str]) -> str:
    word = match.group(0)
    # Only a word that also has Latin letters is disguised; Cyrillic or Greek prose stays itself.
    if any("a" <= ch <= "z" for ch in word):
        return word.translate(_HOMOGLYPHS)
    return word


_LATIN = re.compile(r"[a-z]")
_OTHER_LETTER = re.compile(r"[^\W\da-z_]")


def _map_look_alikes(folded: str) -> str:
    """Look-alike letters mapped inside Latin words; in text that is mostly Latin, in every word
    (a word spelled wholly in Cyrillic look-alikes among English words is a disguise too)."""
    folded = folded.translate(_LATIN_LOOKALIKES)
    if len(_LATIN.findall(folded)) > 2 * len(_OTHER_LETTER.findall(folded)):
        return folded.translate(_HOMOGLYPHS)
    return _MIXED_WORD.sub(_map_mixed_word, folded)


# Disguises undone in an extra view of the text (the rules see the original and the decoded):
# leetspeak inside words that mix letters and digits (or !, | and + between letters),
# %-escapes, literal \\uXXXX escapes.
_LEET_WORD = re.compile(
    r"(?<![a-z0-9@$!|+])(?=[a-z0-9@$!|+]*[a-z])(?=[a-z0-9@$!|+]*[0-9@$!|+])"
    r"[a-z0-9@$!|+]+[a-z0-9@$]"
)
_LEET = str.maketrans("0134578@$!|+", "oieastbasilt")
# "1" and "|" read as "l" as often as "i" ("a11", "4|| prev1ous"): a second view when present.
_LEET_L = str.maketrans("0134578@$!|+", "oleastbasitt")
# A digit-like character touching a letter. Written to start with a character class so `re`
# scans for it quickly (the plain alternation cost 0.16 ms per 2 KB).
_LETTER_DIGIT = re.compile(
    r"[0-9@$!|+](?:(?<=[a-z][0-9@$])|(?<=[0-9@$])(?=[a-z])|(?<=[a-z][!|+])(?=[a-z]))"
)
_PERCENT = re.compile(r"%[0-9a-f]{2}")
_U_ESCAPE = re.compile(r"\\u([0-9a-f]{4})")


# In text written in leetspeak, short words come out as digits alone ("17 15" for "it is").
_LEET_NUMBER = re.compile(r"(?<![a-z0-9@$!|+])[0134578]{1,3}(?![a-z0-9@$!|+])")


def _leet_views(folded: str) -> list[str]:
    if not (_LETTER_DIGIT.search(folded) and _LEET_WORD.search(folded)):
        return []
    tables = (_LEET, _LEET_L) if "1" in folded or "|" in folded else (_LEET,)
    return [_unleet(folded, table) for table in tables]


def _unleet(folded: str, table: dict[int, int]) -> str:
    def read(match: re.Match[str]) -> str:
        return match.group(0).translate(table)

    return _LEET_NUMBER.sub(read, _LEET_WORD.sub(read, folded))


def _decoded_views(folded: str) -> list[str]:
    views = []
    # Cheap checks first: these scans run on every text, the decoding almost never.
    views += _leet_views(folded)
    if "%" in folded and _PERCENT.search(folded):
        # Byte by byte (ASCII is what an instruction hides in); core imports no URL library.
        views.append(_PERCENT.sub(lambda m: chr(int(m.group(0)[1:], 16)), folded))
    if "\\u" in folded:
        views.append(_U_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), folded).casefold())
    return views


@cache
def _lexicon() -> tuple[dict[str, float], int]:
    """Each known word with what it costs a split: an everyday word a little less, so a tie
    goes to English ("keys in", not "key sin")."""
    common = common_words()
    words = {w: 0.9 if w in common else 1.0 for w in segment_words() | common}
    return words, max(map(len, words), default=1)


# Splitting costs time in proportion to the letters: a window at a time, and no more than this
# many letters of one word (a planted instruction is near the start; the rest stays glued).
_SEGMENT_WINDOW = 256
_SEGMENT_MAX = 2048


def segment(letters: str) -> list[str]:
    """`letters` split into the fewest words the instruction rules know ("ignoreallprevious" ->
    ["ignore", "all", "previous"]); letters no known word covers stay together."""
    if len(letters) <= _SEGMENT_WINDOW:
        return _segment_window(letters)
    pieces: list[str] = []
    for start in range(0, min(len(letters), _SEGMENT_MAX), _SEGMENT_WINDOW):
        pieces += _segment_window(letters[start : start + _SEGMENT_WINDOW])
    if len(letters) > _SEGMENT_MAX:
        pieces.append(letters[_SEGMENT_MAX:])
    return pieces


def _segment_window(letters: str) -> list[str]:
    words, longest = _lexicon()
    if letters in words:
        return [letters]
    n = len(letters)
    # cost[i]: fewest pieces for letters[:i], a known word costing 1 and a stray letter 2.
    cost = [0.0] + [float("inf")] * n
    back = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(max(0, i - longest), i):
            step = words.get(letters[j:i], 2.0 if i - j == 1 else 0.0)
            if step and cost[j] + step < cost[i]:
                cost[i], back[i] = cost[j] + step, j
    pieces: list[str] = []
    i = n
    while i > 0:
        pieces.append(letters[back[i] : i])
        i = back[i]
    merged: list[str] = []
    for piece in reversed(pieces):
        if merged and piece not in words and merged[-1] not in words:
            merged[-1] += piece  # stray letters stay together
        else:
            merged.append(piece)
    return merged


def _disguise_views(text: str, folded: str) -> list[str]:
    """Spaced-out or separated letters joined ("i-g-n-o-r-e" -> "ignore"), hex and base64
    decoded, accents dropped: each an extra view, only when the text has such a disguise."""
    views: list[str] = []
    # ASCII text folds to the same offsets, and every finder but "chunk" (not used here) ignores
    # case: the spans the credential scan found in the text itself serve (find_disguises caches).
    spans = find_disguises(text if text.isascii() else folded)
    collapsed = collapse_spaced(View.of(folded), spans, segment, maps=False)
    if collapsed is not None:
        views.append(collapsed.text)
        views += _leet_views(collapsed.text)  # "1-g-n-0-r-3"
    if "hex" in spans or "base64" in spans:
        clean = text
        if not text.isascii():  # offsets differ from the folded text's: find the runs again
            clean = strip_invisible(text)
            spans = find_disguises(clean)
        # (ASCII: `spans` are the original text's already, and base64 needs its case.)
        decoded = decode_encoded(View.of(clean), spans)
        if decoded is not None:
            views.append(decoded.text.casefold())
    if not folded.isascii():
        plain = strip_marks(folded)
        if plain is not None:
            views.append(plain)
    return views


def normalise_for_rules(text: str) -> str:
    """The text the instruction rules see: NFKC, case folded, invisible characters removed,
    look-alike letters inside Latin words mapped ("ignоre" with a Cyrillic о), Unicode tag
    characters read as the ASCII they hide, quotes and dashes unified, runs of spaces and tabs
    collapsed (newlines kept: delimiters are lines). When the text hides words in leetspeak,
    spaced-out or separated letters, accents, %-escapes, \\u escapes, hex or base64, the
    decoded text follows the original after a blank line."""
    return normalised_views(text)[0]


# One screening normalises the same text for several readers (the instruction screen, the role
# claim, the owner's own-task check, a screen of the owner's task): the last few texts of up to
# this many characters are kept normalised (a few KB at most; a longer text is normalised afresh).
_KEPT_CHARS = 4096


def normalised_views(text: str) -> tuple[str, tuple[str, ...]]:
    """`normalise_for_rules(text)`, and each decoded view in it on its own (empty when the text
    hides nothing): the learned model scores a disguised text by its best-reading view too."""
    if len(text) <= _KEPT_CHARS:
        return _kept_views(text)
    return _normalised_views(text)


def _normalised_views(text: str) -> tuple[str, tuple[str, ...]]:
    if text.isascii():  # the common case: nothing to fold but case
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKC", strip_invisible(text))
        if _CAPITAL_CHARS.search(folded):
            folded = _map_capitals(folded)
        folded = folded.casefold()
        if _HOMOGLYPH_CHARS.search(folded):
            folded = _map_look_alikes(folded)
        folded = folded.translate(_PUNCTUATION).casefold()
    # A message in a cipher (binary, Morse, base32, ROT13, reversed) is read as its plain text.
    plain = decipher(folded)
    if plain is not None:
        folded = plain
    views = _decoded_views(folded) + _disguise_views(text, folded) + reversed_stretches(folded)
    if views:
        folded = "\n\n".join([folded, *views])
    if "  " in folded or not folded.isascii() or any(ch in folded for ch in "\t\r\x0b\x0c"):
        folded = _HSPACE.sub(" ", folded)  # substring checks first: the regex scan is slow
        views = [_HSPACE.sub(" ", view) for view in views]
    return folded, tuple(views)


_kept_views = lru_cache(maxsize=4)(_normalised_views)


_WORD = re.compile(r"\w+")
_NOT_WORD = re.compile(r"[^\w\s]")


def normalise_for_compare(text: str) -> str:
    """What exact-duplicate comparison sees: NFKC, case folded, no punctuation, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
    return " ".join(_NOT_WORD.sub("", folded.translate(_HOMOGLYPHS)).split())


def fold_letters(text: str) -> str:
    """NFKC, case folded, invisible and format characters removed (tags, variation selectors),
    look-alike letters mapped, the accents of Latin letters dropped; punctuation kept (what
    gate.authority reads a rule's words from: "mаin" with a Cyrillic а, "maín" and "ma\u200bin"
    are "main")."""
    if text.isascii():
        return text.lower()
    visible = "".join(
        ch for ch in strip_invisible(text) if unicodedata.category(ch) != "Cf" and not _selector(ch)
    )
    folded = unicodedata.normalize("NFKC", visible).casefold().translate(_HOMOGLYPHS)
    return strip_marks(folded) or folded


def _selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


# Han characters and kana: Japanese and Chinese write words together, so a run of them is one
# `\w+` "word" whatever its length.
_WRITTEN_TOGETHER = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def written_words(text: str) -> int:
    """How many words a person wrote, for the gate's "too short" floor: `word_count`, with
    Japanese and Chinese counted at two characters a word (a Japanese sentence of twenty
    characters is a sentence, not two `\\w+` runs). The learned model keeps `word_count`, which
    it was trained on."""
    together = len(_WRITTEN_TOGETHER.findall(text))
    if not together:
        return word_count(text)
    return word_count(_WRITTEN_TOGETHER.sub(" ", text)) + (together + 1) // 2
