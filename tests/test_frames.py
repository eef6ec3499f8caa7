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


class _CountingSocket:
    """A socket whose recv calls are counted (the syscalls a frame's read costs)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.recvs = 0

    def settimeout(self, value: float | None) -> None:
        self._sock.settimeout(value)

    def recv(self, size: int) -> bytes:
        self.recvs += 1
        return self._sock.recv(size)


@pytest.mark.parametrize("whole_within", [None, frames.FRAME_WITHIN_S])
def test_a_frame_sent_whole_is_read_in_two_recvs(whole_within: float | None) -> None:
    """Its header, then its payload: a server's bound on the whole frame (`whole_within`) costs
    no read of the first byte alone."""
    a, b = socket.socketpair()
    with a, b:
        counting = _CountingSocket(a)
        b.sendall(frames.frame_bytes(b"a question") + frames.frame_bytes(b"the next"))
        read = [
            frames.recv_bytes(counting, deadline=time.monotonic() + 30, whole_within=whole_within)  # type: ignore[arg-type]
            for _ in range(2)
        ]
    assert (read, counting.recvs) == ([b"a question", b"the next"], 4)


def test_a_frame_started_must_end_within_its_bound() -> None:
    a, b = socket.socketpair()
    with a, b:
        b.sendall(frames.HEADER.pack(10) + b"abc")  # the rest never comes
        with pytest.raises(frames.FrameTimeout) as stalled:
            frames.recv_bytes(a, deadline=time.monotonic() + 30, whole_within=0.05)
    assert not stalled.value.idle


def test_a_request_the_server_took_is_never_sent_again(run_dir: Path) -> None:
    """A close after the server read the request (a crash mid-turn) may have left it done: the
    caller reads the error, and the request is not sent twice."""
    path = run_dir / "x.sock"
    requests: list[bytes] = []
    with _listening(path) as server:

        def run() -> None:
            conn, _ = server.accept()
            with conn:
                requests.append(frames.recv_bytes(conn, deadline=time.monotonic() + 30))

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        opened = []

        def open_connection() -> socket.socket:
            opened.append(frames.connect(path, socket.socket, timeout=5.0))
            return opened[-1]

        with pytest.raises(frames.PeerClosed) as caught:
            frames.exchange_on(
                open_connection,
                frames.frame_bytes(b"question"),
                deadline=time.monotonic() + 30,
                taken_within=time.monotonic() + 30,
            )
        thread.join(10)
    assert not isinstance(caught.value, frames.NotTaken)
    assert requests == [b"question"]
    assert len(opened) == 1


def test_a_refusal_left_at_accept_is_the_answer_not_a_reason_to_send_again(run_dir: Path) -> None:
    path = run_dir / "x.sock"
    with _listening(path) as server:
        opened = []

        def open_connection() -> socket.socket:
            sock = frames.connect(path, socket.socket, timeout=5.0)
            conn, _ = server.accept()
            with conn:  # refused unheard: the answer in its queue, then closed
                conn.sendall(frames.frame_bytes(b"refused"))
            opened.append(sock)
            return sock

        payload = frames.exchange_on(
            open_connection,
            frames.frame_bytes(b"question"),
            deadline=time.monotonic() + 30,
            taken_within=time.monotonic() + 30,
        )
    assert payload == b"refused"
    assert len(opened) == 1


def test_a_server_that_never_takes_the_request_is_given_up_on_when_its_time_is_out(
    run_dir: Path,
) -> None:
    path = run_dir / "x.sock"
    with _listening(path) as server:
        opened = []

        def open_connection() -> socket.socket:
            sock = frames.connect(path, socket.socket, timeout=5.0)
            conn, _ = server.accept()
            conn.close()  # closed before anything was sent: nothing to read
            opened.append(sock)
            return sock

        with pytest.raises(frames.NotTaken):
            frames.exchange_on(
                open_connection,
                frames.frame_bytes(b"question"),
                deadline=time.monotonic() + 30,
                taken_within=time.monotonic() + 0.2,
            )
    assert len(opened) >= 2  # tried again while there was time
