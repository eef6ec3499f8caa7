"""Which characters a differential test may compare: those both Unicode versions assign.

The Rust tables carry one pinned Unicode version (`_native.UNICODE_VERSION`, docs/storage.md,
"Unicode"); this Python's `unicodedata` may be older (Debian 12's 3.11: 14.0) or newer (3.14:
16.0). A code point only one of them assigns has no shared answer (unassigned is "not a word
character, folds to itself" in one, a letter in the other), so the differential tests leave
exactly those out and compare every other code point, whatever the Python.
"""

from __future__ import annotations

import bisect
import unicodedata
from functools import cache
from pathlib import Path

from shelldon import _native

FIXTURES = Path(__file__).resolve().parents[1] / "core" / "fixtures"


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


@cache
def _native_assigned() -> tuple[list[int], list[int]]:
    """Starts and ends of the ranges the tables' version assigns (made by the generator)."""
    path = FIXTURES / f"unicode-assigned-{_native.UNICODE_VERSION}.txt"
    starts: list[int] = []
    ends: list[int] = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            lo, hi = line.split("..")
            starts.append(int(lo, 16))
            ends.append(int(hi, 16))
    return starts, ends


def native_assigns(cp: int) -> bool:
    starts, ends = _native_assigned()
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


def python_assigns(cp: int) -> bool:
    return 0xD800 <= cp <= 0xDFFF or unicodedata.category(chr(cp)) != "Cn"


PYTHON_IS_OLDER = _key(unicodedata.unidata_version) < _key(_native.UNICODE_VERSION)
PYTHON_IS_NEWER = _key(unicodedata.unidata_version) > _key(_native.UNICODE_VERSION)
SAME_VERSION = not (PYTHON_IS_OLDER or PYTHON_IS_NEWER)


def shared(cp: int) -> bool:
    """True unless exactly one of the two versions assigns cp: assigned in both, or in neither
    (both answer "not a word character, folds to itself"). Surrogates are separators in both."""
    return SAME_VERSION or 0xD800 <= cp <= 0xDFFF or native_assigns(cp) == python_assigns(cp)


def comparable(text: str) -> bool:
    return SAME_VERSION or all(shared(ord(ch)) for ch in text)
