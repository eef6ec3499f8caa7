"""A stand-in for core's socket: a real `ipc.ThreadedServer` on `<run_dir>/core.sock` whose
handler the test writes, for the clients' tests (what `shelldon say` sends and how it reads each
answer) without starting a pet."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from shelldon import ipc
from shelldon.contracts import wire

Answer = Callable[[wire.Message], wire._Msg]


@contextlib.contextmanager
def serving_core(run_dir: Path, answer: Answer) -> Iterator[list[wire.Message]]:
    """Serve `answer(message)` on core's socket; yields the messages received, in order."""
    received: list[wire.Message] = []

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        received.append(message)
        return answer(message)

    server = ipc.ThreadedServer("core", run_dir / "core.sock", handle, idle_timeout=10.0)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield received
    finally:
        server.stop()
        thread.join(timeout=10)
