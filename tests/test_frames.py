"""shelldon.frames alone (ipc's tests cover it through ipc): a connect to either socket type, and
an exchange whose wait moves the answer's deadline."""

from __future__ import annotations

import _socket
import socket
import threading
import time
from pathlib import Path

import pytest

from shelldon import frames


def _listening(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(4)
    return server


def _answer_after(server: socket.socket, go: threading.Event, answer: bytes) -> threading.Thread:
    """Accept one connection, read its frame, wait for `go`, answer."""

    def run() -> None:
        conn, _ = server.accept()
        with conn:
            frames.recv_bytes(conn, deadline=time.monotonic() + 30)
            assert go.wait(30)
            conn.sendall(frames.frame_bytes(answer))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("make", [socket.socket, _socket.socket], ids=["socket", "_socket"])
def test_an_exchange_waits_for_the_deadline_its_wait_gives(run_dir: Path, make: type) -> None:
    path = run_dir / "x.sock"
    go = threading.Event()
    with _listening(path) as server:
        thread = _answer_after(server, go, b"answer")
        sock = frames.connect(path, make, timeout=5.0)
        assert type(sock) is make

        def wait() -> float:
            go.set()  # the answer comes only now, and only the later deadline leaves room for it
            return time.monotonic() + 30

        try:
            payload = frames.exchange_bytes(
                sock, frames.frame_bytes(b"question"), deadline=time.monotonic() + 30, wait=wait
            )
        finally:
            sock.close()
        thread.join(10)
    assert payload == b"answer"


def test_a_past_deadline_and_an_empty_frame_are_refused(run_dir: Path) -> None:
    a, b = socket.socketpair()
    with a, b:
        with pytest.raises(frames.FrameTimeout):
            frames.recv_bytes(a, deadline=time.monotonic() - 1)
        b.sendall(frames.HEADER.pack(0))
        with pytest.raises(frames.FrameTruncated, match="empty"):
            frames.recv_bytes(a, deadline=time.monotonic() + 5)
    with pytest.raises(frames.FrameTooLarge):
        frames.frame_bytes(b"x" * (frames.MAX_FRAME + 1))


def test_nobody_listening_is_the_kernels_error(run_dir: Path) -> None:
    with pytest.raises(FileNotFoundError):
        frames.connect(run_dir / "nobody.sock", _socket.socket, timeout=1.0)
