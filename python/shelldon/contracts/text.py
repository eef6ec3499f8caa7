"""Owner text as every process may take it: terminal controls stripped, one size limit.

`clean_text` is the one sanitiser. Every transport applies it at its edge (what the owner typed,
what the pet answers), core applies it again to every owner message it is handed (whatever
transport brought it), and the command line prints stored text through it: an escape sequence
typed into a chat ("call me \\x1b[5mBlinky") is never stored, and one that got into a file by hand
never reaches a terminal.

Stripped: escape sequences (CSI, OSC, DCS, SOS, PM, APC, the two- and three-byte ESC forms, and
their 8-bit C1 introducers), then every remaining C0 and C1 control and DEL. Kept: newline, tab,
and everything printable, including format characters (ZWJ in emoji sequences, ZWNJ, joiners in
scripts that need them). A carriage return ends a line ("\\r\\n" and a lone "\\r" become "\\n"), so
it can never rewrite what a terminal already shows.

`repair_surrogates` makes a lone surrogate U+FFFD (JSON from outside is mended with it:
contracts.json_in); `small_number` is how a number the owner typed is read ("³" is a digit to
`str.isdigit` and no number to `int`). Nothing here imports json or typing: `shelldon say` loads
this module (tests/cli/test_cli_start.py).

`MAX_MESSAGE_BYTES` is the one limit on an owner message (its UTF-8 bytes): clients refuse a
longer one before sending anything, core refuses it again (docs/cli.md).
"""

from __future__ import annotations

import re

# 16 KiB of UTF-8: pages of text, far below the 1 MiB frame limit (shelldon.ipc.MAX_FRAME), so a
# message at the limit always fits a frame with room for the rest of the turn's request.
MAX_MESSAGE_BYTES = 16 * 1024

# String-type sequences (OSC, DCS, SOS, PM, APC) run to ST (ESC \ or 0x9C) or, for OSC, BEL; one
# never terminated runs to the end of the text, which is stripped with it.
_STRING_SEQ = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|$)"
# CSI: ESC [ or 0x9B, parameter bytes, intermediate bytes, one final byte (or the end).
_CSI = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*(?:[\x40-\x7e]|$)"
# Every other escape: ESC, intermediate bytes, one final byte (ESC c, ESC 7, ESC ( B, ...).
_ESC = r"\x1b[\x20-\x2f]*[\x30-\x7e]?"
_SEQUENCES = f"{_STRING_SEQ}|{_CSI}|{_ESC}"
# What is left: C0 but tab and newline, DEL, C1.
_CONTROLS = r"[\x00-\x08\x0b-\x1f\x7f-\x9f]"


def clean_text(text: str) -> str:
    """`text` without terminal escape sequences or control characters (newline and tab kept)."""
    if text.isascii() and text.isprintable():  # nothing to strip: no pattern compiled (`say`)
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(_CONTROLS, "", re.sub(_SEQUENCES, "", text))


def message_size_error(text: str) -> str | None:
    """Why an owner message is refused for its size, or None when it fits."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= MAX_MESSAGE_BYTES:
        return None
    return (
        f"that message is {size:,} bytes; the limit is {MAX_MESSAGE_BYTES:,} bytes "
        f"({MAX_MESSAGE_BYTES // 1024} KB): send it in parts"
    )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_surrogates(text: str) -> str:
    """Text from argv or stdin that was not valid UTF-8 (Python keeps each bad byte as a lone
    surrogate, which no encoder accepts), or a model's JSON that escaped half a pair ("\\ud83d"):
    each bad byte or lone surrogate becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no decoder made (JSON's "\ud800"): U+FFFD too
        return _LONE_SURROGATE.sub("\ufffd", text)


def small_number(text: str, most: int = 10**12) -> int | None:
    """The number an owner typed ("3", "#3" is the caller's to strip, "٣" too: any decimal
    digits), or None: not digits ("³" is a digit to `str.isdigit` but no number to `int`), or
    past `most` (a 30-digit "reminder number" is no reminder, and no sqlite INTEGER)."""
    text = text.strip()
    if not text or not text.isdecimal() or len(text) > 18:
        return None
    number = int(text)
    return number if number <= most else None
