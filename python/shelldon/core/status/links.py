"""The model link as the owner sees it: a provider that did not answer is told in plain words.

The broker sends, with every answer or failure, the providers of the chain that did not answer
(`contracts.brain.LinkFailure`). `LinkWatch` turns them into one short note appended to the reply,
once per kind of failure ("my model link is down: the key was refused (401). `shelldon doctor` has
details"), and keeps the latest failure of each provider for `shelldon status`. A turn answered
with no failure means the link is up again: the status lines go, and a later failure is told
again.
"""

from __future__ import annotations

import threading

from shelldon.clock import iso, utc_now
from shelldon.contracts import wire
from shelldon.contracts.brain import LinkFailure
from shelldon.core.status.clock_watch import NOT_YET_VALID

DOCTOR_HINT = "`shelldon doctor` has details"


def plain_words(failure: LinkFailure) -> str:
    """What went wrong, for the owner: no jargon beyond the HTTP status."""
    status = f" ({failure.status})" if failure.status else ""
    if NOT_YET_VALID in failure.detail:  # a TLS certificate from the future: our clock is behind
        return "its certificate is 'not yet valid' by my clock, so my clock is probably behind"
    words = {
        "auth": f"the key was refused{status}",
        "no_key": f"its key is not stored yet (`{failure.detail}`)",
        "timeout": "it did not answer in time",
        "connect": "I could not reach it",
        "rate_limited": f"it says I am asking too often{status or ' (429)'}",
        "cooldown": "it asked me to wait before asking again",
        "server": f"it had an error on its side{status}",
        "client": f"it refused the request{status}",
        "malformed": "its answer made no sense",
    }
    return words.get(failure.kind, f"it failed ({failure.kind})")


class LinkWatch:
    """What core knows about the model link. Thread-safe: turns and status run on other threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._told: set[str] = set()
        self._down: dict[str, tuple[LinkFailure, str]] = {}  # provider -> (failure, since)

    def observe(self, outcome: wire.TurnResult | wire.TurnFailed) -> str | None:
        """Take one worker's outcome in; the note for the owner, or None (nothing new to tell)."""
        failures = tuple(outcome.failures)
        answered = isinstance(outcome, wire.TurnResult) and bool(outcome.provider)
        with self._lock:
            if not failures:
                if answered:  # the chain's first provider answered: the link is up
                    self._told.clear()
                    self._down.clear()
                return None
            now = iso(utc_now())
            for failure in failures:
                since = self._down.get(failure.provider, (failure, now))[1]
                self._down[failure.provider] = (failure, since)
            new = [f for f in failures if f.kind not in self._told]
            self._told.update(f.kind for f in new)
        if not new:
            return None
        named = len({f.provider for f in failures}) > 1
        said = "; ".join(
            f"{f.provider}: {plain_words(f)}" if named else plain_words(f) for f in new
        )
        return f"my model link is down: {said}. {DOCTOR_HINT}"

    def details(self) -> list[str]:
        """The latest failure detail of each provider that is down (for the clock's status)."""
        with self._lock:
            return [failure.detail for failure, _ in self._down.values()]

    def status_lines(self) -> list[str]:
        with self._lock:
            down = sorted(self._down.items())
        return [
            f"model link: {name} down since {since}: {plain_words(failure)}"
            for name, (failure, since) in down
        ]
