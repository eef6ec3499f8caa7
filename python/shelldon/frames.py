"""The sockets' frames without their vocabulary: a 4-byte big-endian payload length, then the
payload; the client's connect; one request's bytes out and its answer's bytes back.

`shelldon.ipc` re-exports all of it and adds the messages (`contracts.wire`), the peer checks and
the threaded server. This part stands alone so that a client which needs only bytes (`shelldon
say`: transport.quick_say) starts without msgspec, logging, threading or pathlib (docs/cli.md,
"Start time"). It uses the interpreter's `_socket` (what the `socket` module wraps, with the
same socket type underneath): importing `socket` itself builds its enums, a tenth of `say`'s
start. `ipc.connect` asks for a `socket.socket`; a `_socket.socket` has the same methods but for
`with` and `makefile`.
"""

from __future__ import annotations

import _socket
import errno
import os
import struct
import time

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing is a cost `say` avoids
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    Socket = TypeVar("Socket", bound=_socket.socket)
    Answer = TypeVar("Answer")

HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 20  # 1 MiB: a prompt is tens of KB; anything near this is a bug or an attack
DEFAULT_TIMEOUT = 10.0
# How long a connect retries a socket file nobody listens on yet (ECONNREFUSED: a server between
# bind and listen, or restarting); after that the answer is "not running". Bounded by the deadline.
STARTING_GRACE_S = 1.0
_TIMEVAL = struct.Struct("@ll")
# A server's bound on one frame once its first byte came (`recv_bytes(whole_within=)`): a local
# client sends a whole frame at once, so a frame still arriving after this is a stalled or
# trickling client (slowloris), which otherwise held a thread for the whole idle timeout (300 s).
FRAME_WITHIN_S = 10.0


class IpcError(Exception):
    """Base of every framing / transport failure."""


class PeerClosed(IpcError):
    """The peer closed the connection cleanly, between frames."""


class NotTaken(PeerClosed):
    """The server closed the connection before it took the request (its send broke, and no
    answer waits): closed for room under a storm of the caller's own uid, or let go as idle. A
    server acts on whole frames only, so nothing was done, and the request may go again on a new
    connection (`exchange_on`)."""


class FrameTruncated(IpcError):
    """The stream ended inside a frame."""


class FrameTooLarge(IpcError):
    """The announced length exceeds the limit; the payload is never read."""


class FrameTimeout(IpcError):
    """No complete frame before the deadline. `idle`: not one byte of it arrived."""

    def __init__(self, message: str, *, idle: bool = False) -> None:
        super().__init__(message)
        self.idle = idle


class FrameMalformed(IpcError):
    """A complete frame whose payload is not a message of this wire version."""


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FrameTimeout("deadline passed")
    return left


def _recv_exact(
    sock: _socket.socket,
    size: int,
    deadline: float,
    *,
    at_boundary: bool,
    whole_within: float | None = None,
) -> tuple[bytes, float]:
    """`size` bytes, and the deadline for the rest of the frame: `whole_within` seconds after
    its first bytes came (the same `deadline` without it)."""
    chunks: list[bytes] = []
    got = 0
    while got < size:
        sock.settimeout(_remaining(deadline))
        try:
            chunk = sock.recv(min(size - got, 1 << 16))
        except TimeoutError:
            idle = at_boundary and got == 0
            raise FrameTimeout(
                f"no frame within the deadline ({got}/{size} bytes)", idle=idle
            ) from None
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            if at_boundary and got == 0:
                raise PeerClosed("peer closed the connection")
            raise FrameTruncated(f"stream ended inside a frame ({got}/{size} bytes)")
        if whole_within is not None and got == 0:  # the frame's first bytes: the rest is due
            deadline = min(deadline, time.monotonic() + whole_within)
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks), deadline


def recv_bytes(
    sock: _socket.socket,
    *,
    deadline: float,
    max_size: int = MAX_FRAME,
    whole_within: float | None = None,
) -> bytes:
    """One frame's payload. Raises PeerClosed, FrameTruncated, FrameTooLarge or FrameTimeout.
    `whole_within`: once the frame's first byte is in, the rest must come within that many
    seconds (and by `deadline`), however slowly it trickles. Two recv calls for a frame sent
    whole (its header, then its payload): the bound starts inside the header's read, not with a
    read of its first byte alone."""
    header, deadline = _recv_exact(
        sock, HEADER.size, deadline, at_boundary=True, whole_within=whole_within
    )
    (length,) = HEADER.unpack(header)
    if length > max_size:
        raise FrameTooLarge(f"frame of {length} bytes exceeds the {max_size}-byte limit")
    if length == 0:
        raise FrameTruncated("empty frame")
    return _recv_exact(sock, length, deadline, at_boundary=False)[0]


def frame_bytes(payload: bytes, *, max_size: int = MAX_FRAME) -> bytes:
    if len(payload) > max_size:
        raise FrameTooLarge(f"refusing to send a {len(payload)}-byte frame")
    return HEADER.pack(len(payload)) + payload


def send_frame(sock: _socket.socket, data: bytes, *, deadline: float | None = None) -> None:
    """Send one whole frame (header included: `frame_bytes`)."""
    sock.settimeout(_remaining(deadline) if deadline is not None else DEFAULT_TIMEOUT)
    try:
        sock.sendall(data)
    except TimeoutError:
        raise FrameTimeout("peer did not take the frame before the deadline") from None
    except (BrokenPipeError, ConnectionResetError) as exc:
        raise PeerClosed(f"peer went away: {exc}") from None


def exchange_bytes(
    sock: _socket.socket,
    data: bytes,
    *,
    deadline: float,
    wait: Callable[[], float | None] | None = None,
) -> bytes:
    """Send one frame and read one answer's payload (`wait`, if given, runs in between: the
    chat's "thinking…" line; it may return a later deadline for the answer). A server that
    refused the connection at accept has closed it, so the send breaks (EPIPE); its Refused frame
    is still in the receive queue, and that is the answer, rather than "Broken pipe"."""
    try:
        send_frame(sock, data, deadline=deadline)
    except PeerClosed as exc:
        try:
            return recv_bytes(sock, deadline=min(deadline, time.monotonic() + 1.0))
        except IpcError:
            pass
        raise NotTaken(str(exc)) from None
    if wait is not None:
        later = wait()
        deadline = deadline if later is None else later
    return recv_bytes(sock, deadline=deadline)


def retake(attempt: Callable[[], Answer], *, deadline: float, taken_within: float) -> Answer:
    """`attempt()` again while it raises NotTaken (the server closed the connection before it
    took the request, so nothing was done), until `deadline` or `taken_within` (monotonic times).
    Under a ping storm of the owner's own uid at core's cap, the owner's `say`, connected but not
    yet sent, was the connection closed for the storm's next one, and the owner read "lost core
    (… Broken pipe)" (tests/test_ipc_storm_shapes.py, "pings at the cap"). `attempt` opens its
    own new connection each time; a request the server did take is never sent twice, since a
    close after the send is another error."""
    pause = 0.002
    while True:
        try:
            return attempt()
        except NotTaken:
            if time.monotonic() + pause >= min(deadline, taken_within):
                raise
        time.sleep(pause)  # the storm's connections end as fast as they come: a moment is room
        pause = min(pause * 2, 0.05)


def exchange_on(
    open_connection: Callable[[], Socket],
    data: bytes,
    *,
    deadline: float,
    taken_within: float,
    wait: Callable[[Socket], float | None] | None = None,
) -> bytes:
    """`exchange_bytes` on a connection from `open_connection` (closed after), `retake`n on a new
    one while the server closes it before taking the request."""

    def attempt() -> bytes:
        sock = open_connection()
        try:
            later = None if wait is None else (lambda: wait(sock))
            return exchange_bytes(sock, data, deadline=deadline, wait=later)
        finally:
            sock.close()

    return retake(attempt, deadline=deadline, taken_within=taken_within)


class ConnectBusy(BlockingIOError):
    """The server's backlog stayed full until the caller's deadline."""


def connect(
    path: str | os.PathLike[str],
    make: Callable[[int, int], Socket],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    starting_grace: float = STARTING_GRACE_S,
) -> Socket:
    """A connected socket to `path` (`make(AF_UNIX, SOCK_STREAM)`: `socket.socket` or
    `_socket.socket`; its timeout set to `timeout`), waiting up to `timeout`.

    A full backlog is waited on, not failed: the connect is a blocking one whose wait the kernel
    bounds with SO_SNDTIMEO (a socket with a Python timeout is non-blocking, and a non-blocking
    connect to a full Unix backlog fails at once with EAGAIN). A socket nobody listens on
    (ECONNREFUSED) is tried again for `starting_grace` seconds: a server between bind and listen.
    Raises FileNotFoundError / ConnectionRefusedError / PermissionError as the kernel says, and
    ConnectBusy when the deadline passes with the backlog still full.
    """
    where = os.fspath(path)
    deadline = time.monotonic() + timeout
    refused_until = time.monotonic() + min(timeout, starting_grace)
    pause = 0.002
    busy = f"{os.path.basename(where)}: no room in its queue in {timeout:g} s"
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise ConnectBusy(errno.EAGAIN, busy)
        sock = make(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            _set_send_timeout(sock, left)
            sock.connect(where)
        except BlockingIOError:
            sock.close()
            continue  # SO_SNDTIMEO ran out (the loop's check says if the deadline did too)
        except ConnectionRefusedError:
            sock.close()
            now = time.monotonic()
            if now >= refused_until:
                raise
            time.sleep(min(pause, refused_until - now))  # nothing to wait on: the server polls up
            pause = min(pause * 2, 0.05)
            continue
        except OSError:
            sock.close()
            raise
        _set_send_timeout(sock, 0.0)  # sends use the Python timeout from here on
        sock.settimeout(timeout)
        return sock


def _set_send_timeout(sock: _socket.socket, seconds: float) -> None:
    whole = int(seconds)
    micro = int((seconds - whole) * 1_000_000)
    if whole == 0 and micro == 0 and seconds > 0:
        micro = 1  # zero would mean "wait for ever"
    sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_SNDTIMEO, _TIMEVAL.pack(whole, micro))
