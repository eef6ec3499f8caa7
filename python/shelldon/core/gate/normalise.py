"""Text as the gate's checks see it: invisible characters dropped, look-alike letters from other
scripts mapped, disguises (leetspeak, %-escapes, \\u escapes) decoded into an extra view, and the
form exact-duplicate comparison uses."""

from __future__ import annotations

import re
import unicodedata

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
_HOMOGLYPHS = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
        "ԛ": "q", "ԝ": "w", "ɡ": "g", "ɑ": "a", "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k",
        "ν": "v", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ӏ": "l", "һ": "h", "ɩ": "i",
    }
)  # fmt: skip
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
_MIXED_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def _map_mixed_word(match: re.Match[str]) -> str:
    word = match.group(0)
    # Only a word that also has Latin letters is disguised; Cyrillic or Greek prose stays itself.
    if any("a" <= ch <= "z" for ch in word):
        return word.translate(_HOMOGLYPHS)
    return word


# Disguises undone in an extra view of the text (the rules see the original and the decoded):
# leetspeak inside words that mix letters and digits, %-escapes, literal \\uXXXX escapes.
_LEET_WORD = re.compile(r"\b(?=[a-z0-9@$]*[a-z])(?=[a-z0-9@$]*[0-9@$])[a-z0-9@$]{3,}\b")
_LEET = str.maketrans("0134578@$", "oieastbas")
# A digit-like character touching a letter. Written to start with a character class so `re`
# scans for it quickly (the plain alternation cost 0.16 ms per 2 KB).
_LETTER_DIGIT = re.compile(r"[0-9@$](?:(?<=[a-z][0-9@$])|(?=[a-z]))")
_PERCENT = re.compile(r"%[0-9a-f]{2}")
_U_ESCAPE = re.compile(r"\\u([0-9a-f]{4})")


def _decoded_views(folded: str) -> list[str]:
    views = []
    # Cheap checks first: these scans run on every text, the decoding almost never.
    if _LETTER_DIGIT.search(folded) and _LEET_WORD.search(folded):
        views.append(_LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), folded))
    if "%" in folded and _PERCENT.search(folded):
        # Byte by byte (ASCII is what an instruction hides in); core imports no URL library.
        views.append(_PERCENT.sub(lambda m: chr(int(m.group(0)[1:], 16)), folded))
    if "\\u" in folded:
        views.append(_U_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), folded).casefold())
    return views


def normalise_for_rules(text: str) -> str:
    """The text the instruction rules see: NFKC, case folded, invisible characters removed,
    look-alike letters inside Latin words mapped ("ignоre" with a Cyrillic о), Unicode tag
    characters read as the ASCII they hide, quotes and dashes unified, runs of spaces and tabs
    collapsed (newlines kept: delimiters are lines). When the text hides words in leetspeak,
    %-escapes or \\u escapes, the decoded text follows the original after a blank line."""
    if text.isascii():  # the common case: nothing to fold but case
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
        if _HOMOGLYPH_CHARS.search(folded):
            folded = _MIXED_WORD.sub(_map_mixed_word, folded)
        folded = folded.translate(_PUNCTUATION).casefold()
    views = _decoded_views(folded)
    if views:
        folded = "\n\n".join([folded, *views])
    if "  " in folded or not folded.isascii() or any(ch in folded for ch in "\t\r\x0b\x0c"):
        folded = _HSPACE.sub(" ", folded)  # substring checks first: the regex scan is slow
    return folded


_WORD = re.compile(r"\w+")
_NOT_WORD = re.compile(r"[^\w\s]")


def normalise_for_compare(text: str) -> str:
    """What exact-duplicate comparison sees: NFKC, case folded, no punctuation, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
    return " ".join(_NOT_WORD.sub("", folded.translate(_HOMOGLYPHS)).split())


def word_count(text: str) -> int:
    return len(_WORD.findall(text))
