"""What core lets go when the owner has been quiet for a while: the gate's compiled rules.

The gate compiles a rule on the first text that needs it (every text, for the ~20 rules without
a prefilter literal; a text naming its literal, for the rest) and keeps the automata and their
search caches (rust/src/scanner.rs): after one ordinary turn ~1.5 MB of core for the rules that
run on every text (their NFAs, the caches ~0.9 MB of it), more as other rules' literals occur, so
without a release a pet that once heard many rules' words would hold them all for good. Dropped
after every turn they would cost core ~13-16 ms of CPU (x86) each turn to compile again; kept, a
pet at rest holds them. So they go after `REST_AFTER_S` without a turn, and then the C heap is
trimmed: a conversation keeps them warm, a pet at rest holds only the rules' text, their literal
prefilter and the models' weights (the placeholder patterns' regexes go too; docs/performance.md,
"Memory at rest"). The first text after a rest pays the compile once. The matches are the same
either way (a rule compiles to the same automaton each time), and a turn that is searching keeps
its automaton until it is done.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from shelldon._native import trim_heap
from shelldon.core.gate.rules import release_scanner_automata
from shelldon.core.gate.secret_model import release_secret_model

REST_AFTER_S = 30.0  # a quiet spell this long and core lets the compiled rules go


def let_go() -> None:
    """Drop the gate's compiled rules and give the freed pages back to the kernel."""
    release_scanner_automata()
    release_secret_model()
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
