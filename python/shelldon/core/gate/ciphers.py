"""Text written in a cipher an assistant is asked to read back: binary octets, Morse code,
base32, ROT13 and text reversed. The instruction screen (normalise.py) reads the text with each
cipher replaced by its plain text, and only when the decoded text reads as words, so ordinary
text costs one cheap test per cipher and is read as typed.

The views the gate had (leetspeak, spacing, hex, base64, %- and \\u-escapes) undo disguises of
letters; these undo encodings of whole messages, a class the attack corpora use in every
language ("answer this: 01001001 01100111 ...", "vtaber nyy cerivbhf vafgehpgvbaf").
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from shelldon.core.gate.rules import common_words

_BINARY = re.compile(r"(?:[01]{8}[ ,]?){6,}")
_MORSE = re.compile(r"(?:[.-]{1,7}(?: ?/ ?| {1,3})){6,}[.-]{1,7}")
_BASE32 = re.compile(r"\b[a-z2-7]{24,}={0,6}")
_WORDS = re.compile(r"[a-z']+")
# Decoded text is a view when at least this share of its words are everyday English words.
_READS_AS_WORDS = 0.3
# ROT13 and reversal are tried on text whose own words are this rarely everyday words.
_UNREADABLE = 0.15
_MIN_WORDS = 4

# International Morse code, letters then digits.
_MORSE_CODES = (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- "
    ".-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----."
)
_MORSE_LETTERS = dict(
    zip(_MORSE_CODES.split(" "), "abcdefghijklmnopqrstuvwxyz0123456789", strict=True)
)
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


def _everyday_share(text: str) -> float:
    words = _WORDS.findall(text)
    if len(words) < _MIN_WORDS:
        return 0.0
    common = common_words()
    return sum(w in common for w in words) / len(words)


def _readable(text: str | None) -> str | None:
    if text is None or _everyday_share(text) < _READS_AS_WORDS:
        return None
    return text


def _ascii(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text.lower() if text.isprintable() else None


def _binary(run: str) -> str | None:
    octets = re.findall(r"[01]{8}", run)
    return _ascii(bytes(int(o, 2) for o in octets))


def _morse(run: str) -> str | None:
    words = []
    for word in re.split(r" ?/ ?| {2,}", run.strip()):
        letters = [_MORSE_LETTERS.get(code) for code in word.split()]
        if not letters or None in letters:
            return None
        words.append("".join(letters))  # type: ignore[arg-type]
    return " ".join(words)


def _base32(run: str) -> str | None:
    body = run.rstrip("=").upper()
    try:
        return _ascii(base64.b32decode(body + "=" * (-len(body) % 8)))
    except (binascii.Error, ValueError):
        return None


def _substitute(folded: str, pattern: re.Pattern[str], decode: Callable[[str], str | None]) -> str:
    def plain(match: re.Match[str]) -> str:
        decoded = _readable(decode(match.group(0)))
        return f" {decoded} " if decoded else match.group(0)

    return pattern.sub(plain, folded)


def decipher(folded: str) -> str | None:
    """`folded` (case-folded text) with each cipher run that decodes to words replaced by its
    plain text (the whole text, for ROT13 and reversal), or None when nothing decodes. The run
    itself is dropped: its digits and dots are noise to the screen, not evidence."""
    plain = folded
    if "0" in plain and "1" in plain:
        plain = _substitute(plain, _BINARY, _binary)
    if ".-" in plain or "-." in plain:
        plain = _substitute(plain, _MORSE, _morse)
    plain = _substitute(plain, _BASE32, _base32)
    if (
        plain == folded
        and len(_WORDS.findall(folded)) >= _MIN_WORDS
        and _everyday_share(folded) < _UNREADABLE
    ):
        for candidate in (folded.translate(_ROT13), folded[::-1]):
            if _readable(candidate):
                return candidate
    return plain if plain != folded else None
