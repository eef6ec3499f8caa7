"""A quiet-spell timer for the pet's long-lived processes: after `after` seconds with no turn
running, call `let_go` once (what a process gives back while the owner is away). Core lets go of
the gate's compiled rules (core.rest), the broker of the offline brain's compiled regexes
(broker.patterns); both then trim the C heap. One timer, two processes: each says what it drops.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

REST_AFTER_S = 30.0  # a quiet spell this long and a process lets go


class Quiet:
    """Calls `let_go` once `after` seconds have passed since the last turn ended with no turn
    running, on a thread of its own (started at the first turn). `turn_started` and
    `turn_ended` bracket each turn; at most one call per quiet spell."""

    def __init__(
        self, let_go: Callable[[], None], after: float = REST_AFTER_S, name: str = "rest"
    ) -> None:
        self._name = name
        self._after = after
        self._let_go = let_go
        self._changed = threading.Condition()
        self._due: float | None = None  # when to let go; None: a turn runs, or done already
        self._thread: threading.Thread | None = None
        self._stopped = False

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """`turn_started` and `turn_ended` around a block."""
        self.turn_started()
        try:
            yield
        finally:
            self.turn_ended()

    def turn_started(self) -> None:
        with self._changed:
            self._due = None

    def turn_ended(self) -> None:
        with self._changed:
            self._due = time.monotonic() + self._after
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._wait, name=self._name, daemon=True)
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
