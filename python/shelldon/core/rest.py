"""What core lets go when the owner has been quiet for a while: the gate's search caches.

Each of the gate's compiled regexes keeps a search cache (its lazy DFA's states, the engines'
scratch: rust/src/scanner.rs): ~0.9 MB for the rules that run on every text after one turn,
more as other rules' literals occur. Dropped, they are made again by the next scan, at ~0.6 ms
of CPU (x86) for its first text, the DFA's states learned again: dropped after every turn they
cost core 1.2-1.4 ms of CPU a turn (`scripts/turn_cpu.py`, against ~5 ms); kept, about a
megabyte of core's memory at rest (docs/performance.md, "Memory at rest"). So they
go after `REST_AFTER_S` without a turn, and then the C heap is trimmed: a conversation keeps
them warm, a pet at rest does not hold them. The matches are the same either way (a cache is
what a regex learned while searching, not what it matches), and a cache in use by a turn is
left alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from shelldon._native import trim_heap
from shelldon.core.gate.rules import release_scanner_caches

REST_AFTER_S = 30.0  # a quiet spell this long and core lets the caches go


def let_go() -> None:
    """Drop the gate's search caches and give the freed pages back to the kernel."""
    release_scanner_caches()
    trim_heap()


class Rest:
    """Calls `let_go` once `after` seconds have passed since the last turn ended with no turn
    running, on a thread of its own (started at the first turn). `turn_started` and
    `turn_ended` bracket each turn; at most one call per quiet spell."""

    def __init__(self, after: float = REST_AFTER_S, let_go: Callable[[], None] = let_go) -> None:
        self._after = after
        self._let_go = let_go
        self._changed = threading.Condition()
        self._due: float | None = None  # when to let go; None: a turn runs, or done already
        self._thread: threading.Thread | None = None
        self._stopped = False

    def turn_started(self) -> None:
        with self._changed:
            self._due = None

    def turn_ended(self) -> None:
        with self._changed:
            self._due = time.monotonic() + self._after
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._wait, name="core-rest", daemon=True)
                self._thread.start()
            self._changed.notify()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify()
        if self._thread is not None:
            self._thread.join()

    def _wait(self) -> None:
        while True:
            with self._changed:
                while not self._stopped:
                    if self._due is None:
                        self._changed.wait()
                        continue
                    left = self._due - time.monotonic()
                    if left <= 0:
                        break
                    self._changed.wait(left)
                if self._stopped:
                    return
                self._due = None
            self._let_go()
