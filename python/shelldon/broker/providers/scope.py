"""The HTTP calls of one completion (`CallScope`), so that an abandoned turn can end them; the
broker runs each completion `calls_in` its scope, and `post_json` (broker.providers.http) files
its connection in the current one.

Apart from broker.providers.http so that the broker imports http.client, ssl and email (~1.6 MiB
of its memory and their import at every start, docs/performance.md) only once a provider or a
transport that speaks HTTP is made: a pet on the offline brain alone never does."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

from shelldon.broker.providers.base import ProviderError

if TYPE_CHECKING:
    import http.client


class CallScope:
    """The HTTP calls of one completion (thread-safe: `cancel` comes from another broker
    thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: set[http.client.HTTPConnection] = set()
        self.cancelled = False

    def cancel(self) -> int:
        """End every open call now and refuse new ones; how many were open."""
        with self._lock:
            self.cancelled = True
            open_now = list(self._open)
        for conn in open_now:
            sock = conn.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked read; close() follows
        return len(open_now)

    def enter(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if self.cancelled:
                raise ProviderError("timeout", "the turn was abandoned")
            self._open.add(conn)

    def leave(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            self._open.discard(conn)


_SCOPE: ContextVar[CallScope | None] = ContextVar("shelldon_call_scope", default=None)


def current_scope() -> CallScope | None:
    """The scope of the calls this thread makes now (None outside `calls_in`)."""
    return _SCOPE.get()


@contextlib.contextmanager
def calls_in(scope: CallScope) -> Iterator[CallScope]:
    """Every post_json in this thread, inside the block, belongs to `scope`."""
    token = _SCOPE.set(scope)
    try:
        yield scope
    finally:
        _SCOPE.reset(token)
