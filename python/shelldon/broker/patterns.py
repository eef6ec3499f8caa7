"""The offline brain's regexes, compiled on first use (`lazy`), and all of them at once in a
warm-up (`compile_all`) the broker runs on a thread of its own once it has told READY.

Compiled at import, the offline brain's ~90 regexes were ~30 ms of the broker's ~120 ms of CPU to
READY on x86 (a quarter of its start; seconds on the card under emulation, where the three
processes' starts are gated as ratios to `python3 -c pass`: docs/performance.md, "The processes'
start"). A `LazyPattern` answers the `re.Pattern` methods the brain uses with the same results:
it is that pattern, compiled when first asked."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

_ALL: list[LazyPattern] = []


class LazyPattern:
    """`re.compile(pattern, flags)`, done the first time a method needs it."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:  # two threads at once compile it twice: the same pattern, no harm
            compiled = self._compiled = re.compile(self._pattern, self._flags)
        return compiled

    @property
    def pattern(self) -> str:
        return self._pattern

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)

    def __repr__(self) -> str:
        return f"LazyPattern({self._pattern!r}, {self._flags!r})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """A pattern compiled on first use (a bad pattern fails then, and in the tests that use it)."""
    made = LazyPattern(pattern, flags)
    _ALL.append(made)
    return made


def release_all() -> None:
    """Drop every compiled pattern (and `re`'s own cache): each compiles again when next used.
    The broker's quiet spell (broker.server): 455 patterns were ~1.2 MB of its heap at rest."""
    for pattern in list(_ALL):
        pattern._compiled = None
    re.purge()


def let_go() -> None:
    """What the broker gives back while the owner is away (its quiet spell, shelldon.quiet):
    the compiled patterns, and the C heap's free pages."""
    from shelldon._native import trim_heap

    release_all()
    trim_heap()


def compile_all() -> int:
    """Compile every pattern made so far (the broker's warm-up after READY); how many there are."""
    for pattern in list(_ALL):
        pattern.compiled()
    return len(_ALL)
