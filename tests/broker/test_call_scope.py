"""broker.providers.scope: a completion's HTTP calls in one CallScope; `cancel` ends the open one
at once (a real socket whose server never answers) and refuses the next. The broker's own use,
an abandoned turn told as such: tests/broker/test_admission.py."""

from __future__ import annotations

import socket
import threading

import pytest

from shelldon.broker.providers.base import ProviderError
from shelldon.broker.providers.http import post_json
from shelldon.broker.providers.scope import CallScope, calls_in, current_scope


def _post(port: int) -> None:
    post_json(
        f"http://127.0.0.1:{port}/v1", {"q": 1}, {}, timeout=60, connect_timeout=10, max_bytes=1000
    )


def test_cancel_ends_the_open_call_and_refuses_the_next() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    asked = threading.Event()
    outcome: list[BaseException | None] = []
    scope = CallScope()

    def serve() -> None:  # reads the request and never answers
        conn, _ = server.accept()
        conn.recv(4096)
        asked.set()
        conn.recv(4096)  # until the client's shutdown closes it
        conn.close()

    def call() -> None:
        with calls_in(scope):
            assert current_scope() is scope
            try:
                _post(port)
                outcome.append(None)
            except BaseException as exc:
                outcome.append(exc)

    threading.Thread(target=serve, daemon=True).start()
    caller = threading.Thread(target=call)
    caller.start()
    assert asked.wait(30)
    assert scope.cancel() == 1
    caller.join(30)
    server.close()
    assert not caller.is_alive()
    assert isinstance(outcome[0], ProviderError) and outcome[0].kind == "timeout", outcome
    with calls_in(scope), pytest.raises(ProviderError, match="abandoned"):
        _post(port)
    assert current_scope() is None
