"""Long encoded runs that are not credentials: what a high-entropy token carries.

The high-entropy rule finds any long run of base64-like characters, and most such runs in a
message are keys. Two kinds are not, and an owner pastes both: an inline image or sound
(`data:image/png;base64,...`, the media type says what the bytes are), and base64 that
decodes to ordinary prose (an attachment preview, a quoted line). Either passes the secret
screen; what the prose says still goes through the instruction screen, whose views decode it.
A run that decodes to anything else (binary, a key, a single glued word) stays a credential.
"""

from __future__ import annotations

import base64
import binascii
import re

# A data URI's media types whose payload is content, not a secret (RFC 2397).
_MEDIA_URI = re.compile(r"data:(?:image|audio|video|font)/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,$")
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# Prose: at least this many words, separated by spaces, nearly all letters.
_PROSE_WORDS = 4
_PROSE_LETTERS = 0.75
_WORD = re.compile(r"[^\W\d_]{2,}")


def inline_media(text: str, start: int) -> bool:
    """The run at `text[start:]` is the payload of a media data URI."""
    return _MEDIA_URI.search(text[max(0, start - 120) : start]) is not None


def decoded_prose(value: str) -> str | None:
    """What `value` decodes to when it is base64 of ordinary text (words and spaces, printable),
    else None."""
    if len(value) % 4 or not _BASE64.fullmatch(value):
        return None
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    if not decoded.isprintable() or decoded.count(" ") < _PROSE_WORDS - 1:
        return None
    words = _WORD.findall(decoded)
    letters = sum(c.isalpha() or c.isspace() for c in decoded) / len(decoded)
    if len(words) < _PROSE_WORDS or letters < _PROSE_LETTERS:
        return None
    return decoded
