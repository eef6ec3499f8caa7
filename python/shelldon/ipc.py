"""Unix-socket IPC: length-prefixed msgpack frames of `contracts.wire.Message`, and peer checks.

A frame is a 4-byte big-endian payload length, then the payload. A length over the limit, a
payload that does not decode, or a stream that ends mid-frame is refused (logged, the connection
closed) and the server goes on serving everyone else. Every read has a deadline so a silent peer
never pins a server thread.

Peers are identified with SO_PEERCRED (pid, uid, gid as the kernel saw them at connect). Each
server process writes `<run_dir>/<name>.pid` once it is serving, so another server can tell
"core" or "the fork-server's children" from anybody else who can reach the socket.

Over 400 lines: the frame format, the peer checks and the threaded server are the one contract
every process speaks; the server reads with the frames' deadlines and refuses with the peer
checks, so the three change together.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import stat
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shelldon.contracts import wire

log = logging.getLogger("shelldon.ipc")

HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 20  # 1 MiB: a prompt is tens of KB; anything near this is a bug or an attack
DEFAULT_TIMEOUT = 10.0


class IpcError(Exception):
    """Base of every framing / transport failure."""


class PeerClosed(IpcError):
    """The peer closed the connection cleanly, between frames."""


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


def _recv_exact(sock: socket.socket, size: int, deadline: float, *, at_boundary: bool) -> bytes:
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
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def recv_bytes(sock: socket.socket, *, deadline: float, max_size: int = MAX_FRAME) -> bytes:
    """One frame's payload. Raises PeerClosed, FrameTruncated, FrameTooLarge or FrameTimeout."""
    header = _recv_exact(sock, HEADER.size, deadline, at_boundary=True)
    (length,) = HEADER.unpack(header)
    if length > max_size:
        raise FrameTooLarge(f"frame of {length} bytes exceeds the {max_size}-byte limit")
    if length == 0:
        raise FrameTruncated("empty frame")
    return _recv_exact(sock, length, deadline, at_boundary=False)


def recv(sock: socket.socket, *, deadline: float, max_size: int = MAX_FRAME) -> wire.Message:
    payload = recv_bytes(sock, deadline=deadline, max_size=max_size)
    try:
        return wire.decode(payload)
    except wire.WireError as exc:
        raise FrameMalformed(str(exc)) from None


def frame(message: wire._Msg, *, max_size: int = MAX_FRAME) -> bytes:
    payload = wire.encode(message)
    if len(payload) > max_size:
        raise FrameTooLarge(f"refusing to send a {len(payload)}-byte frame")
    return HEADER.pack(len(payload)) + payload


def send(sock: socket.socket, message: wire._Msg, *, deadline: float | None = None) -> None:
    data = frame(message)
    sock.settimeout(_remaining(deadline) if deadline is not None else DEFAULT_TIMEOUT)
    try:
        sock.sendall(data)
    except TimeoutError:
        raise FrameTimeout("peer did not take the frame before the deadline") from None
    except (BrokenPipeError, ConnectionResetError) as exc:
        raise PeerClosed(f"peer went away: {exc}") from None


def connect(path: Path, *, timeout: float = DEFAULT_TIMEOUT) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(os.fspath(path))
    except OSError:
        sock.close()
        raise
    return sock


def request(path: Path, message: wire._Msg, *, timeout: float = DEFAULT_TIMEOUT) -> wire.Message:
    """Connect, send one message, read one answer. OSError if nobody listens; IpcError otherwise."""
    deadline = time.monotonic() + timeout
    with connect(path, timeout=timeout) as sock:
        send(sock, message, deadline=deadline)
        return recv(sock, deadline=deadline)


def answers_ping(path: Path, timeout: float = 5.0) -> bool:
    """True if the server on `path` answers a Ping: its accept loop and a handler thread work.
    The watchdog's health check, so a wedged server stops pinging systemd and is restarted."""
    try:
        return isinstance(request(path, wire.Ping(), timeout=timeout), wire.Pong)
    except (OSError, IpcError):
        return False


# --- peers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    pid: int
    uid: int
    gid: int

    @property
    def parent_pid(self) -> int | None:
        return parent_pid(self.pid)


_UCRED = struct.Struct("3i")


def peer_of(sock: socket.socket) -> Peer:
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    pid, uid, gid = _UCRED.unpack(raw)
    return Peer(pid, uid, gid)


def parent_pid(pid: int) -> int | None:
    """The parent of `pid` from /proc/<pid>/stat, or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last
    # ")".
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return int(fields[1])
    except (IndexError, ValueError):
        return None


def write_pid_file(run_dir: Path, name: str) -> Path:
    path = run_dir / f"{name}.pid"
    tmp = path.with_suffix(f".pid.{os.getpid()}.tmp")
    tmp.write_text(f"{os.getpid()}\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def read_pid_file(run_dir: Path, name: str) -> int | None:
    try:
        text = (run_dir / f"{name}.pid").read_text().strip()
        pid = int(text)
    except (OSError, ValueError):
        return None
    return pid if pid > 0 else None


def remove_pid_file(run_dir: Path, name: str) -> None:
    path = run_dir / f"{name}.pid"
    with contextlib.suppress(OSError):
        if read_pid_file(run_dir, name) == os.getpid():
            path.unlink()


def refuse_and_close(conn: socket.socket, reason: str) -> None:
    """Answer Refused, then close so the peer reads it: unread input would turn close() into a
    reset that discards the answer, so a little of it (bounded in bytes and time) is dropped."""
    with contextlib.suppress(IpcError, OSError):
        send(conn, wire.Refused(reason=reason), deadline=time.monotonic() + 1)
        conn.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + 0.5
        drained = 0
        while drained < (1 << 16) and time.monotonic() < deadline:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = conn.recv(1 << 14)
            if not chunk:
                break
            drained += len(chunk)


# --- listening --------------------------------------------------------------------------------


def _listener(path: Path) -> Peer | None:
    """Who listens on `path` (the kernel's credentials of the listening socket), or None."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(os.fspath(path))
        return peer_of(probe)
    except OSError:
        return None
    finally:
        probe.close()


def _holders(path: Path, listener: Peer) -> str:
    """The processes the run dir's pid files name (alive or not), and who listens on `path`."""
    named = []
    for pid_file in sorted(path.parent.glob("*.pid")):
        pid = read_pid_file(path.parent, pid_file.stem)
        if pid is not None:
            gone = "" if os.path.exists(f"/proc/{pid}") else ", not running"
            named.append(f"{pid_file.stem} pid {pid}{gone}")
    files = "; pid files: " + ", ".join(named) if named else ""
    return f"listening: pid {listener.pid} (uid {listener.uid}){files}"


def bind_unix(path: Path, *, mode: int, group: int | None = None) -> socket.socket:
    """Listen on `path` with `mode` (and `group`, when given). A stale socket file from a crashed
    run is replaced; nothing else is.

    The mode and group are the first gate (connect() needs write permission on the file: a uid
    they leave out gets EACCES and never reaches the server); SO_PEERCRED checks are the second.
    A `group` the process may not give the file (not root, not a member) raises PermissionError.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        st = path.lstat()
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISSOCK(st.st_mode):
            raise FileExistsError(f"{path} exists and is not a socket; refusing to replace it")
        listener = _listener(path)
        if listener is not None:
            raise FileExistsError(
                f"{path} is in use: is another shelldon running on this run dir? "
                f"({_holders(path, listener)}; stop those first)"
            )
        path.unlink()  # left behind by a process that died
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(os.fspath(path))
        os.chmod(path, mode)
        if group is not None and path.lstat().st_gid != group:
            try:
                os.chown(path, -1, group)
            except PermissionError as exc:
                raise PermissionError(
                    exc.errno, f"cannot give {path.name} to group {group}: {exc.strerror}"
                ) from None
        sock.listen(16)
    except OSError:
        sock.close()
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    return sock


def may_give_group(gid: int) -> bool:
    """Whether this process may give a file it owns the group `gid` (root, or a member)."""
    return os.geteuid() == 0 or gid == os.getegid() or gid in os.getgroups()


def refuse_unheard(conn: socket.socket, reason: str) -> None:
    """Answer Refused without waiting on the peer and close: for the accept loop, which must not
    give a refused peer any of its time. The frame is small enough for the socket's buffer; a
    peer that is not reading loses it."""
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        conn.send(frame(wire.Refused(reason=reason)))
    conn.close()


class _Answered:
    """Returned by a handler that already answered through its `respond` callback."""


ANSWERED = _Answered()
Respond = Callable[[wire._Msg], None]
# A handler gets the peer, one request and a `respond` callback (for answering before slow follow-up
# work), and returns the answer, ANSWERED, or None to close the connection.
Handler = Callable[[Peer, wire.Message, Respond], "wire._Msg | _Answered | None"]
# Who may open a connection at all, from the kernel's view of the peer alone (before it is heard or
# counted): None admits, a reason refuses.
Admit = Callable[[Peer], "str | None"]


def admit_anyone(peer: Peer) -> str | None:
    return None


def admit_uids(uids: frozenset[int], reason: str) -> Admit:
    """An `Admit` that lets in these uids only."""

    def admit(peer: Peer) -> str | None:
        return None if peer.uid in uids else reason

    return admit


class ThreadedServer:
    """Accepts on a Unix socket; one thread per connection; frames in, frames out.

    Used by core and the broker (the fork-server is single-threaded and has its own loop). `stop()`
    wakes the accept loop through a pipe, so shutdown never waits on a timeout.

    Each accepted connection's credentials are read in the accept loop and put to `admit` first: a
    refused peer is answered and closed there, never given a thread nor counted. Admitted peers are
    capped per uid (`max_per_uid` open connections each; a thread is memory on a 416 MB machine), so
    one uid's idle connections never crowd out another's.
    """

    def __init__(
        self,
        name: str,
        path: Path,
        handler: Handler,
        *,
        mode: int = 0o600,
        group: int | None = None,
        idle_timeout: float = 300.0,
        max_frame: int = MAX_FRAME,
        max_per_uid: int = 16,
        admit: Admit = admit_anyone,
    ) -> None:
        self.name = name
        self.path = path
        self._handler = handler
        self._mode = mode
        self._group = group
        self._idle_timeout = idle_timeout
        self._max_frame = max_frame
        self._max_per_uid = max_per_uid
        self._admit = admit
        self._listener: socket.socket | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._stopping = threading.Event()
        self._threads: dict[threading.Thread, int] = {}  # each connection's thread -> peer uid
        self._lock = threading.Lock()

    def bind(self) -> None:
        self._listener = bind_unix(self.path, mode=self._mode, group=self._group)

    def open_connections(self, uid: int) -> int:
        with self._lock:
            return sum(1 for owner in self._threads.values() if owner == uid)

    def serve_forever(self) -> None:
        if self._listener is None:
            self.bind()
        listener = self._listener
        assert listener is not None
        listener.setblocking(False)
        with selectors.DefaultSelector() as selector:
            selector.register(listener, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while not self._stopping.is_set():
                for key, _ in selector.select():
                    if key.fd == self._wake_r:
                        break
                    try:
                        conn, _addr = listener.accept()
                    except (BlockingIOError, InterruptedError):
                        continue
                    self._take(conn)
        listener.close()
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(self.path.lstat().st_mode):
                self.path.unlink()

    def _take(self, conn: socket.socket) -> None:
        """Admit (or refuse) one accepted connection, in the accept loop: no peer can stall it."""
        try:
            peer = peer_of(conn)
        except OSError as exc:
            log.warning("%s: cannot read a peer's credentials (%s); closing", self.name, exc)
            conn.close()
            return
        refusal = self._admit(peer)
        if refusal:
            log.warning(
                "%s: refused pid %d uid %d unheard: %s", self.name, peer.pid, peer.uid, refusal
            )
            refuse_unheard(conn, refusal)
            return
        with self._lock:
            held = sum(1 for owner in self._threads.values() if owner == peer.uid)
        if held >= self._max_per_uid:
            log.warning(
                "%s: uid %d holds %d connections; refusing pid %d",
                self.name,
                peer.uid,
                held,
                peer.pid,
            )
            refuse_unheard(conn, "too many connections")
            return
        conn.setblocking(True)
        thread = threading.Thread(
            target=self._serve_connection,
            args=(conn, peer),
            daemon=True,
            name=f"{self.name}-conn",
        )
        with self._lock:
            self._threads[thread] = peer.uid
        thread.start()

    def stop(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _serve_connection(self, conn: socket.socket, peer: Peer) -> None:
        try:
            with conn:
                while not self._stopping.is_set():
                    deadline = time.monotonic() + self._idle_timeout
                    try:
                        message = recv(conn, deadline=deadline, max_size=self._max_frame)
                    except PeerClosed:
                        return
                    except FrameTimeout as exc:
                        if exc.idle:  # a quiet client (an open chat): just let the connection go
                            log.debug("%s: closing idle connection of pid %d", self.name, peer.pid)
                            return
                        log.warning("%s: pid %d stalled mid-frame: %s", self.name, peer.pid, exc)
                        refuse_and_close(conn, f"bad frame: {exc}")
                        return
                    except (FrameTooLarge, FrameTruncated, FrameMalformed) as exc:
                        log.warning(
                            "%s: refused a frame from pid %d uid %d: %s",
                            self.name,
                            peer.pid,
                            peer.uid,
                            exc,
                        )
                        refuse_and_close(conn, f"bad frame: {exc}")
                        return
                    answered = False

                    def respond(reply: wire._Msg, conn: socket.socket = conn) -> None:
                        nonlocal answered
                        answered = True
                        send(conn, reply, deadline=time.monotonic() + DEFAULT_TIMEOUT)

                    try:
                        answer = self._handler(peer, message, respond)
                    except (IpcError, OSError) as exc:
                        log.info("%s: lost pid %d mid-answer: %s", self.name, peer.pid, exc)
                        return
                    except Exception:
                        log.exception("%s: handler failed on %s", self.name, type(message).__name__)
                        if answered:
                            return
                        answer = wire.Refused(reason="internal error (logged)")
                    if answer is None:
                        return
                    if isinstance(answer, _Answered):
                        continue
                    try:
                        send(conn, answer, deadline=time.monotonic() + DEFAULT_TIMEOUT)
                    except (IpcError, OSError) as exc:
                        log.info("%s: could not answer pid %d: %s", self.name, peer.pid, exc)
                        return
        finally:
            with self._lock:
                self._threads.pop(threading.current_thread(), None)
