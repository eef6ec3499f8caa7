"""Unix-socket IPC: length-prefixed msgpack frames of `contracts.wire.Message`, and peer checks.

The frames themselves and the client's connect are `shelldon.frames` (re-exported here), which
needs no msgspec: a client that speaks only bytes starts without it. A frame is a 4-byte
big-endian payload length, then the payload. A length over the limit, a payload that does not
decode, or a stream that ends mid-frame is refused (logged, the connection closed) and the server
goes on serving everyone else. Every read has a deadline so a silent peer
never pins a server thread.

Peers are identified with SO_PEERCRED (pid, uid, gid as the kernel saw them at connect). Each
server process writes `<run_dir>/<name>.pid` once it is serving, so another server can tell
"core" or "the fork-server's children" from anybody else who can reach the socket.

The owner always gets in (docs/processes.md, "Under a storm"): a connect waits for room in a full
backlog and retries a socket that is bound but not yet listening, up to the caller's deadline; the
backlog is sized for bursts; every line a peer's misbehaviour causes is logged once per uid and
kind per interval, with a count (`RefusalLog`); a uid at its cap loses its longest-idle
connection to a newcomer rather than the newcomer being refused; and the pet's own processes
(`reserved`) are never counted against their uid's cap, each only against its own (per pid).

Over 400 lines: the frame format, the peer checks and the threaded server are the one contract
every process speaks; the server reads with the frames' deadlines and refuses with the peer
checks, so the three change together.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import logging
import os
import queue
import resource
import select
import selectors
import signal
import socket
import stat
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shelldon import frames
from shelldon.contracts import wire
from shelldon.frames import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from shelldon.frames import FRAME_WITHIN_S as FRAME_WITHIN_S
from shelldon.frames import HEADER as HEADER
from shelldon.frames import MAX_FRAME as MAX_FRAME
from shelldon.frames import STARTING_GRACE_S as STARTING_GRACE_S
from shelldon.frames import ConnectBusy as ConnectBusy
from shelldon.frames import FrameMalformed as FrameMalformed
from shelldon.frames import FrameTimeout as FrameTimeout
from shelldon.frames import FrameTooLarge as FrameTooLarge
from shelldon.frames import FrameTruncated as FrameTruncated
from shelldon.frames import IpcError as IpcError
from shelldon.frames import NotTaken as NotTaken
from shelldon.frames import PeerClosed as PeerClosed
from shelldon.frames import exchange_bytes as exchange_bytes
from shelldon.frames import exchange_on as exchange_on
from shelldon.frames import frame_bytes, send_frame
from shelldon.frames import recv_bytes as recv_bytes
from shelldon.frames import retake as retake

log = logging.getLogger("shelldon.ipc")

# A burst of connections (a storm, a chat and the poller at once) queues in the kernel instead of
# failing; each queued connection is a few hundred bytes of kernel memory until it is accepted.
LISTEN_BACKLOG = 256
# Threads of a ThreadedServer kept waiting for the next connection once theirs ended: a turn opens
# a few short connections one after another; more than these are started when needed, and end.
POOL_IDLE = 4


def recv(
    sock: socket.socket,
    *,
    deadline: float,
    max_size: int = MAX_FRAME,
    whole_within: float | None = None,
) -> wire.Message:
    payload = recv_bytes(sock, deadline=deadline, max_size=max_size, whole_within=whole_within)
    try:
        return wire.decode(payload)
    except wire.WireError as exc:
        raise FrameMalformed(str(exc)) from None


def connect(
    path: Path, *, timeout: float = DEFAULT_TIMEOUT, starting_grace: float = STARTING_GRACE_S
) -> socket.socket:
    """frames.connect, to a `socket.socket`."""
    return frames.connect(path, socket.socket, timeout=timeout, starting_grace=starting_grace)


def frame(message: wire._Msg, *, max_size: int = MAX_FRAME) -> bytes:
    return frame_bytes(wire.encode(message), max_size=max_size)


def send(sock: socket.socket, message: wire._Msg, *, deadline: float | None = None) -> None:
    send_frame(sock, frame(message), deadline=deadline)


def exchange(
    sock: socket.socket,
    message: wire._Msg,
    *,
    deadline: float,
    wait: Callable[[], None] | None = None,
) -> wire.Message:
    """Send one message and read one answer (frames.exchange_bytes: a Refused frame left by a
    server that refused the connection at accept is the answer, not the broken pipe)."""
    payload = exchange_bytes(sock, frame(message), deadline=deadline, wait=wait)
    try:
        return wire.decode(payload)
    except wire.WireError as exc:
        raise FrameMalformed(str(exc)) from None


def request(path: Path, message: wire._Msg, *, timeout: float = DEFAULT_TIMEOUT) -> wire.Message:
    """Connect, send one message, read one answer; connected again while the server closes the
    connection before it takes the message (frames.exchange_on). OSError if nobody listens;
    IpcError otherwise."""
    deadline = time.monotonic() + timeout

    def open_connection() -> socket.socket:
        return connect(path, timeout=max(0.001, deadline - time.monotonic()))

    payload = exchange_on(open_connection, frame(message), deadline=deadline, taken_within=deadline)
    try:
        return wire.decode(payload)
    except wire.WireError as exc:
        raise FrameMalformed(str(exc)) from None


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
    """The parent of `pid` from /proc/<pid>/stat, or None if it is gone. (os.read, not pathlib:
    core asks on each owner request; see read_pid_file.)"""
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        try:
            raw = os.read(fd, 4096)
        finally:
            os.close(fd)
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
    # os.open/os.read, not Path.read_text: the broker and the fork-server ask on every connection
    # (a few per turn), and pathlib's open is ~4x the syscalls' own cost (docs/performance.md).
    try:
        fd = os.open(f"{os.fspath(run_dir)}/{name}.pid", os.O_RDONLY | os.O_CLOEXEC)
        try:
            data = os.read(fd, 64)
        finally:
            os.close(fd)
        pid = int(data.strip())
    except (OSError, ValueError):
        return None
    return pid if pid > 0 else None


def keep_pid_file(run_dir: Path, name: str) -> bool:
    """This process's pid file put back when it is gone or names another pid (`rm
    /run/shelldon/*.pid`, a cleanup script): the fork-server and the broker admit core, and the
    broker the fork-server's workers, by the pid in these files, so without core.pid every turn
    after failed ("I lost my train of thought") until a restart, and nothing said why. One small
    read per call; True when it had to be written again."""
    if read_pid_file(run_dir, name) == os.getpid():
        return False
    try:
        write_pid_file(run_dir, name)
    except OSError as exc:
        log.error("%s.pid is gone from %s and could not be written again: %s", name, run_dir, exc)
        return False
    log.warning("%s.pid was gone from %s (or named another process); written again", name, run_dir)
    return True


def remove_pid_file(run_dir: Path, name: str) -> None:
    path = run_dir / f"{name}.pid"
    with contextlib.suppress(OSError):
        if read_pid_file(run_dir, name) == os.getpid():
            path.unlink()


def send_now(conn: socket.socket, data: bytes, *, after: bytes | bytearray = b"") -> bytes:
    """Hand `data` to the socket without waiting: what it could not take now is returned, to be
    sent later. A handler's `respond` runs under whatever the handler holds (core's one-turn gate
    while a Say is answered): a client that filled its socket by not reading its answers held
    that gate for the send's whole deadline (10 s a connection, the owner's turn waiting behind
    it). `after`: bytes still waiting from an earlier call, which go first (so all of `data`
    waits too). Raises PeerClosed if the peer is gone."""
    if after:
        return data
    timeout = conn.gettimeout()
    conn.setblocking(False)
    try:
        sent = conn.send(data)
    except BlockingIOError:
        sent = 0
    except (BrokenPipeError, ConnectionResetError) as exc:
        raise PeerClosed(f"peer went away: {exc}") from None
    finally:
        conn.settimeout(timeout)
    return data[sent:]


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
        sock.listen(LISTEN_BACKLOG)
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


REFUSAL_LOG_INTERVAL_S = 60.0
_REFUSAL_KEYS = 512  # distinct (uid, reason) pairs remembered; uids are few, this only bounds


class RefusalLog:
    """A peer's misbehaviour logged once per (uid, kind) per interval, with a count of the ones in
    between: every line a peer can cause (a refusal at accept, a request for another socket, a bad
    frame, a Complete from no live worker, an answer it never read) goes through one of these.

    A storm of a thousand connections a second is one WARNING a minute, not a thousand: the first
    line of a uid for a kind is logged at once; the rest are counted, and the next line for that
    pair (the first after the interval) says how many there were. The pid is in the line, but not
    in the key: a storm's every connection has a new one. Neither is what the peer chose (a length,
    a turn id, a message's kind): such details go in the line, under a fixed kind. Thread-safe.
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        interval: float = REFUSAL_LOG_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = logger
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[tuple[int, str], list[float]] = {}  # -> [last logged at, count since]

    def refused(
        self, name: str, peer: Peer, reason: str, *, what: str = "unheard", kind: str | None = None
    ) -> None:
        """`what`: "unheard" (at accept), or what was refused ("a Complete", "a stalled frame");
        `kind`: what the line is counted under (the reason when it holds nothing the peer chose)."""
        text = f"refused pid {peer.pid} uid {peer.uid} {what}: {reason}"
        self.line(name, peer, reason if kind is None else kind, text)

    def line(
        self, name: str, peer: Peer, kind: str, text: str, *, level: int = logging.WARNING
    ) -> None:
        """`text` (the peer's pid and uid in it) as "<name>: <text>", once per uid and `kind` per
        interval, with the count of the ones held back since the last."""
        now = self._clock()
        key = (peer.uid, kind)
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and now - seen[0] < self._interval:
                seen[1] += 1
                return
            suppressed = int(seen[1]) if seen is not None else 0
            if seen is None and len(self._seen) >= _REFUSAL_KEYS:
                self._forget(now)
            self._seen[key] = [now, 0]
        since = f" ({suppressed} more since the last such line)" if suppressed else ""
        self._log.log(level, "%s: %s%s", name, text, since)

    def _forget(self, now: float) -> None:
        stale = [k for k, (at, _) in self._seen.items() if now - at >= self._interval]
        for key in stale or list(self._seen)[: len(self._seen) // 2]:
            del self._seen[key]


# accept() errors that mean "no descriptor (or kernel memory) for the new connection": the
# connection stays queued, so the listener stays readable and a loop that only logs spins.
OUT_OF_FDS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_PAUSE_S = 0.25  # out of descriptors with none kept back: the listener rests this long
# Descriptors kept free for the process's own files (history.db, the memory tree, the fork-server's
# connection, a status's reads): a connection accepted into one of the last of them closes idle
# connections first, or is refused in words (ThreadedServer._keep_headroom).
FD_HEADROOM = 8
FD_LAST = 2  # a connection is refused only when it took one of these and nothing could be closed


class FdReserve:
    """One descriptor (/dev/null) kept back for the moment the process runs out of them.

    Out of descriptors (RLIMIT_NOFILE reached: a client holding connections under a low limit, a
    leak), accept() fails and leaves the connection queued, so the listener stays readable: core
    died of the EMFILE and took the pet with it, and the fork-server logged a line per pass of a
    loop spinning at 100 % CPU. With one descriptor kept back, the loop closes it, takes the queued
    connection, and decides (serve it after closing idle connections, or refuse it in words); the
    descriptor is opened again once one is free. With none kept back (taken, not yet given back)
    the listener rests `ACCEPT_PAUSE_S`: no spin. Logged once per interval, with a count.
    """

    def __init__(self, name: str, *, interval: float = REFUSAL_LOG_INTERVAL_S) -> None:
        self.name = name
        self._interval = interval
        self._fd: int | None = self._open()
        self._logged_at: float | None = None
        self._since = 0
        self.times = 0  # accepts that found the process out of descriptors

    @staticmethod
    def _open() -> int | None:
        try:
            return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None

    def take(self, listener: socket.socket, exc: OSError) -> socket.socket | None:
        """After `listener.accept()` failed with `exc` (one of OUT_OF_FDS): the queued
        connection, accepted in the kept-back descriptor's place, or None (none kept back, or
        nothing queued): rest the listener. `give_back()` once the connection is dealt with."""
        self.times += 1
        self._note(exc)
        if self._fd is None:
            self._fd = self._open()
            if self._fd is None:
                return None
        os.close(self._fd)
        self._fd = None
        try:
            conn, _addr = listener.accept()
        except OSError:
            conn = None
        if conn is None:
            self.give_back()
        return conn

    def give_back(self) -> None:
        """Keep a descriptor back again, if one is free (else at the next `take`)."""
        if self._fd is None:
            self._fd = self._open()

    def _note(self, exc: OSError) -> None:
        now = time.monotonic()
        if self._logged_at is not None and now - self._logged_at < self._interval:
            self._since += 1
            return
        since = f" ({self._since} more since the last such line)" if self._since else ""
        self._logged_at, self._since = now, 0
        log.warning(
            "%s: out of file descriptors at accept (%s); closing idle connections%s",
            self.name,
            exc.strerror or exc,
            since,
        )

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class _PeerLost(IpcError):
    """A handler's `respond` could not reach the peer (it left, or stopped reading)."""


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
# Whether a peer is one of the pet's own processes (by pid file): never counted against a cap.
Reserved = Callable[[Peer], bool]


def reserve_none(peer: Peer) -> bool:
    return False


def reserve_pids(run_dir: Path, *names: str) -> Reserved:
    """A `Reserved` for the processes whose pid files (`<name>.pid`) name the peer's pid. The run
    dir is writable by the service alone, so a pid there is the pet's own."""

    def reserved(peer: Peer) -> bool:
        return any(read_pid_file(run_dir, name) == peer.pid for name in names)

    return reserved


def admit_anyone(peer: Peer) -> str | None:
    return None


def admit_uids(uids: frozenset[int], reason: str) -> Admit:
    """An `Admit` that lets in these uids only."""

    def admit(peer: Peer) -> str | None:
        return None if peer.uid in uids else reason

    return admit


@dataclass(eq=False)
class _Connection:
    sock: socket.socket
    peer: Peer
    reserved: bool
    idle_since: float | None = None  # waiting for a request since (monotonic); None: one in hand
    closing: bool = False  # closed to make room; its thread is on its way out
    heard: bool = False  # a request of its own has come: a connection not yet heard is closed last


def _has_input(sock: socket.socket) -> bool:
    """Whether bytes wait unread on `sock` (a request its thread has not taken yet): it is not
    idle, whatever its `idle_since` says, and closing it would lose that request unanswered."""
    # poll, not a MSG_DONTWAIT recv: Python waits out a socket's timeout before any recv.
    poller = select.poll()
    try:
        poller.register(sock, select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError):  # closed meanwhile: nothing to lose
        return False


def _eviction_order(connections: list[_Connection]) -> list[_Connection]:
    """The idle ones of `connections` in the order they are closed for room: the ones already
    heard (an open chat, a client between requests, one not reading its answers) before any not
    yet heard (a newcomer that has connected to talk and not yet sent), each longest idle first;
    never one not yet heard whose first request waits in its socket for its thread. Under a
    storm of its own uid that reconnects as fast as it is closed, the owner's `say`, accepted a
    moment before its request was read, was the longest idle and was closed: "lost core"
    (tests/test_ipc_storm_shapes.py, "pings at the cap"). Input waiting on a connection already
    heard protects nothing: a client that never reads its answers leaves its requests there."""
    idle = [
        c for c in connections if c.idle_since is not None and (c.heard or not _has_input(c.sock))
    ]
    return sorted(idle, key=lambda c: (not c.heard, c.idle_since or 0.0))


_STOP_ASKED = b"s"  # on ThreadedServer's wake pipe: a signal asked for the stop


def _drain(fd: int) -> bytes:
    """What a non-blocking pipe holds now."""
    got = bytearray()
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, 512):
            got += chunk
    return bytes(got)


class ThreadedServer:
    """Accepts on a Unix socket; one thread per open connection; frames in, frames out.

    A thread whose connection ends waits for the next one (up to POOL_IDLE of them wait; the rest
    end), so a turn's few short connections do not each start a thread (`Thread.start` was 15 % of
    the broker's samples, docs/performance.md "CPU per turn"). Each connection runs in a fresh
    `contextvars.Context`, as it would in a new thread.

    Used by core and the broker (the fork-server is single-threaded and has its own loop). `stop()`
    wakes the accept loop through a pipe, so shutdown never waits on a timeout. A signal handler
    calls `stop_from_signal()`, which only writes to that pipe: the accept loop stops.

    Each accepted connection's credentials are read in the accept loop and put to `admit` first: a
    refused peer is answered and closed there, never given a thread nor counted, and logged through
    a RefusalLog (once per uid and reason per interval). Admitted peers are capped per uid
    (`max_per_uid` open connections each; a thread is memory on a 416 MB machine), so one uid's
    connections never crowd out another's. At the cap, the uid's longest-idle connection (an open
    chat waiting for its owner to type) is closed to make room, as its idle timeout would have
    done: a chat that sees the close connects again before it sends (transport.terminal); one
    not yet heard (a newcomer about to send) only after every one already heard, and never one
    whose request waits in its socket (`_eviction_order`). Only when every one of them has a
    request in hand is the newcomer refused, with "too many connections (N open by uid U)". The
    pet's own processes (`reserved`, by pid file or a live admission) are not counted with their
    uid and never closed for another's room; each has the same cap for its own pid, past which
    its own longest-idle connection is closed (or it is refused, "N open by pid P"): a hostile
    admitted worker holds at most `max_per_uid`.
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
        reserved: Reserved = reserve_none,
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
        self._reserved = reserved
        self._listener: socket.socket | None = None
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._stopping = threading.Event()
        self._connections: dict[_Connection, None] = {}  # open ones, in accept order
        self._lock = threading.Lock()
        self._handoff: queue.SimpleQueue[_Connection | None] = queue.SimpleQueue()
        self._idle_threads = 0  # threads waiting on _handoff; under _lock
        self.refusals = RefusalLog(log)
        self.evicted = 0  # idle connections closed to make room for a newcomer
        self.fd_reserve = FdReserve(name)

    def bind(self) -> None:
        self._listener = bind_unix(self.path, mode=self._mode, group=self._group)

    def open_connections(self, uid: int) -> int:
        """The uid's counted connections (the pet's own reserved ones are not)."""
        with self._lock:
            return sum(
                1
                for c in self._connections
                if c.peer.uid == uid and not c.reserved and not c.closing
            )

    def serve_forever(self) -> None:
        if self._listener is None:
            self.bind()
        listener = self._listener
        assert listener is not None
        listener.setblocking(False)
        resting_until: float | None = None  # out of descriptors: the listener rests till then
        with selectors.DefaultSelector() as selector:
            selector.register(listener, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while not self._stopping.is_set():
                timeout = None
                if resting_until is not None:
                    timeout = resting_until - time.monotonic()
                    if timeout <= 0:
                        selector.register(listener, selectors.EVENT_READ)
                        resting_until = timeout = None
                for key, _ in selector.select(timeout):
                    if key.fd == self._wake_r:
                        if _STOP_ASKED in _drain(self._wake_r):
                            self.stop()
                        break
                    try:
                        conn, _addr = listener.accept()
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError as exc:
                        if self._out_of_fds(listener, exc):
                            continue
                        selector.unregister(listener)
                        resting_until = time.monotonic() + ACCEPT_PAUSE_S
                        break
                    self._take(conn)
        self.fd_reserve.close()
        listener.close()
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(self.path.lstat().st_mode):
                self.path.unlink()

    def _out_of_fds(self, listener: socket.socket, exc: OSError) -> bool:
        """accept() failed with `exc`. Another error (ECONNABORTED: the peer left while queued)
        is logged and the loop goes on. Out of descriptors: up to FD_HEADROOM idle connections
        are closed (room for the newcomer and for the process's own files: history.db, the memory
        tree, the fork-server's connection), and the queued connection is taken with the kept-back
        descriptor: served if room was made, else refused in words. False: nothing could be
        taken; the caller rests the listener (FdReserve)."""
        if exc.errno not in OUT_OF_FDS:
            log.warning("%s: accept failed: %s", self.name, exc)
            return True
        freed = self._close_idle(FD_HEADROOM)
        conn = self.fd_reserve.take(listener, exc)
        if conn is None:
            return False
        if freed:
            self._take(conn)
        else:
            refuse_unheard(
                conn, f"{self.name} is out of file descriptors and every connection is busy"
            )
        self.fd_reserve.give_back()
        return True

    def _keep_headroom(self, conn: socket.socket) -> str | None:
        """None, or the refusal of a connection that took one of the last FD_LAST descriptors
        when other connections hold them and none is idle to close; in the last FD_HEADROOM,
        idle connections are closed first. The kernel hands
        out the lowest free descriptor, so the new one's number is how many are in use."""
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if limit == resource.RLIM_INFINITY or conn.fileno() < limit - FD_HEADROOM:
            return None
        with self._lock:
            others = any(not c.reserved and not c.closing for c in self._connections)
        if not others or self._close_idle(FD_HEADROOM // 2):
            return None  # alone, it is served however low the limit: clients ate no headroom
        if conn.fileno() < limit - FD_LAST:
            return None  # the busy ones give theirs back as they end; refusing now helps no one
        return f"{self.name} is at its open-file limit (connections held open); try again shortly"

    def _close_idle(self, count: int) -> int:
        """Close up to `count` of the longest-idle counted connections, whatever their uid (their
        threads end on the shutdown and close them); how many."""
        with self._lock:
            idle = _eviction_order(
                [c for c in self._connections if not c.reserved and not c.closing]
            )[:count]
            for victim in idle:
                victim.closing = True
                victim.idle_since = None
        for victim in idle:
            self.evicted += 1
            with contextlib.suppress(OSError):
                victim.sock.shutdown(
                    socket.SHUT_RD
                )  # as in _make_room: a request in flight is answered
        return len(idle)

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
            self.refusals.refused(self.name, peer, refusal)
            refuse_unheard(conn, refusal)
            return
        reserved = self._reserved(peer)
        refusal = self._make_room(peer, reserved) or (
            None if reserved else self._keep_headroom(conn)
        )
        if refusal:
            self.refusals.refused(self.name, peer, refusal)
            refuse_unheard(conn, refusal)
            return
        conn.setblocking(True)
        connection = _Connection(conn, peer, reserved, idle_since=time.monotonic())
        with self._lock:
            self._connections[connection] = None
            waiting = self._idle_threads > 0
            if waiting:
                self._idle_threads -= 1
        if waiting:
            self._handoff.put(connection)
            return
        thread = threading.Thread(
            target=self._connection_thread,
            args=(connection,),
            daemon=True,
            name=f"{self.name}-conn",
        )
        thread.start()

    def _connection_thread(self, connection: _Connection | None) -> None:
        """Serve connections until none is handed over: after each, wait for the next one if
        fewer than POOL_IDLE threads are waiting, else end."""
        while connection is not None:
            contextvars.Context().run(self._serve_connection, connection)  # drops it when done
            with self._lock:
                if self._stopping.is_set() or self._idle_threads >= POOL_IDLE:
                    return
                self._idle_threads += 1
            connection = self._handoff.get()

    def _make_room(self, peer: Peer, reserved: bool = False) -> str | None:
        """Under the cap: None. At it: close the longest-idle connection it counts and return
        None, or the refusal when every one of them is busy. A peer is counted with its uid's
        other connections; one of the pet's own processes (`reserved`) with its own pid's alone,
        under the same cap: it never competes with its uid, and is not unbounded either (an
        admitted worker, the likeliest hostile local peer, held 400 of 400 broker connections
        and as many threads: tests/test_ipc_storm_shapes.py)."""
        with self._lock:
            if reserved:
                mine = [
                    c
                    for c in self._connections
                    if c.reserved and c.peer.pid == peer.pid and not c.closing
                ]
                whose = f"pid {peer.pid}"
            else:
                mine = [
                    c
                    for c in self._connections
                    if c.peer.uid == peer.uid and not c.reserved and not c.closing
                ]
                whose = f"uid {peer.uid}"
            if len(mine) < self._max_per_uid:
                return None
            idle = _eviction_order(mine)
            if not idle:
                return f"too many connections ({len(mine)} open by {whose})"
            victim = idle[0]
            victim.closing = True  # not chosen twice nor counted; its thread ends on the shutdown
            victim.idle_since = None
        log.debug(  # debug: a storm of held connections must not grow the log
            "%s: %s holds %d connections; closing the longest idle (pid %d) for pid %d",
            self.name,
            whose,
            len(mine),
            victim.peer.pid,
            peer.pid,
        )
        self.evicted += 1
        with contextlib.suppress(OSError):
            # SHUT_RD, not RDWR: a request that came between the choice and this is still read
            # and answered (with RDWR it was read and its answer failed: "lost core"); a later
            # send breaks (EPIPE: not taken, sent again), and its recv wakes with EOF.
            victim.sock.shutdown(socket.SHUT_RD)
        return None

    def wake_on_signals(self) -> int:
        """Every signal with a Python handler writes its number to the accept loop's wake pipe as
        it arrives, whichever thread the kernel gave it to (signal.set_wakeup_fd; main thread
        only). A Python handler runs only on the main thread, and only once that thread runs
        again: a SIGTERM taken by a connection thread left the accept loop asleep in select(), and
        the process ignored it until something connected (tests/test_daemon.py). The old wakeup
        fd, to put back."""
        return signal.set_wakeup_fd(self._wake_w, warn_on_full_buffer=False)

    def stop_from_signal(self) -> None:
        """stop(), asked by a signal handler: one byte to the accept loop, which calls stop().
        A handler takes no lock, and stop()'s Event, lock and queue each take one: a second
        SIGTERM or SIGINT that came while the first's handler was inside one ran its handler
        there, which waited for itself, and the process never exited (tests/test_daemon.py)."""
        with contextlib.suppress(OSError):  # BlockingIOError: a stop is already waiting there
            os.write(self._wake_w, _STOP_ASKED)

    def stop(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        with self._lock:  # the waiting threads end (a thread done after this sees _stopping)
            waiting, self._idle_threads = self._idle_threads, 0
        for _ in range(waiting):
            self._handoff.put(None)

    def _could_not_answer(self, peer: Peer, exc: Exception) -> None:
        """A client gone or stuck before its answer: one line a uid a minute, not a warning."""
        self.refusals.line(
            self.name,
            peer,
            "could not answer",
            f"could not answer pid {peer.pid}: {exc}",
            level=logging.INFO,
        )

    def _flush(self, connection: _Connection, data: bytes) -> bool:
        """Send what a handler's `respond` left unsent (its client was not reading), now that the
        handler is done and holds nothing; False if the client did not take it in time."""
        peer = connection.peer
        self.refusals.line(
            self.name,
            peer,
            "not reading",
            f"pid {peer.pid} uid {peer.uid} was not reading its answers; "
            "its answer was sent after the request was done",
            level=logging.INFO,
        )
        try:
            send_frame(connection.sock, data, deadline=time.monotonic() + DEFAULT_TIMEOUT)
        except (IpcError, OSError) as exc:
            self._could_not_answer(peer, exc)
            return False
        return True

    def _serve_connection(self, connection: _Connection) -> None:
        conn, peer = connection.sock, connection.peer
        try:
            with conn:
                while not self._stopping.is_set():
                    deadline = time.monotonic() + self._idle_timeout
                    if not connection.closing:
                        connection.idle_since = time.monotonic()
                    try:
                        message = recv(
                            conn,
                            deadline=deadline,
                            max_size=self._max_frame,
                            whole_within=FRAME_WITHIN_S,
                        )
                    except PeerClosed:
                        return
                    except FrameTimeout as exc:
                        if exc.idle:  # a quiet client (an open chat): just let the connection go
                            log.debug("%s: closing idle connection of pid %d", self.name, peer.pid)
                            return
                        # Once per uid a minute, with a count: a slowloris storm is a few lines.
                        self.refusals.refused(self.name, peer, "stalled mid-frame", what="a frame")
                        refuse_and_close(conn, f"bad frame: {exc}")
                        return
                    except (FrameTooLarge, FrameTruncated, FrameMalformed) as exc:
                        self.refusals.line(
                            self.name,
                            peer,
                            "bad frame",
                            f"refused a frame from pid {peer.pid} uid {peer.uid}: {exc}",
                        )
                        refuse_and_close(conn, f"bad frame: {exc}")
                        return
                    connection.idle_since = None  # a request in hand: not closed for room
                    connection.heard = True
                    if self._stopping.is_set():
                        # A request on a connection still open when the stop came (core's stores
                        # may be closed already): refused in words, never half-served.
                        log.info(
                            "%s: refused a %s from pid %d: stopping",
                            self.name,
                            type(message).__name__,
                            peer.pid,
                        )
                        refuse_and_close(conn, f"{self.name} is stopping; try again once it is up")
                        return
                    answered = False
                    unsent = bytearray()  # what `respond` could not hand the socket at once

                    def respond(
                        reply: wire._Msg, conn: socket.socket = conn, unsent: bytearray = unsent
                    ) -> None:
                        nonlocal answered
                        answered = True
                        try:
                            unsent.extend(send_now(conn, frame(reply), after=unsent))
                        except (IpcError, OSError) as exc:
                            raise _PeerLost(str(exc)) from exc

                    try:
                        answer = self._handler(peer, message, respond)
                    except _PeerLost as exc:
                        self.refusals.line(
                            self.name,
                            peer,
                            "lost mid-answer",
                            f"lost pid {peer.pid} mid-answer: {exc}",
                            level=logging.INFO,
                        )
                        return
                    except OSError as exc:
                        # The handler's own (out of descriptors opening a file, a full disk): the
                        # client is told in words. It used to be taken for the client leaving,
                        # and the client got a close without a word ("lost core").
                        log.warning(
                            "%s: could not serve %s from pid %d: %s",
                            self.name,
                            type(message).__name__,
                            peer.pid,
                            exc,
                        )
                        if answered:
                            return
                        answer = wire.Refused(
                            reason=f"{self.name} could not serve this: {exc.strerror or exc}"
                        )
                    except Exception:
                        log.exception("%s: handler failed on %s", self.name, type(message).__name__)
                        if answered:
                            return
                        answer = wire.Refused(reason="internal error (logged)")
                    if unsent and not self._flush(connection, bytes(unsent)):
                        return
                    if answer is None:
                        return
                    if isinstance(answer, _Answered):
                        continue
                    # Idle from here, not from the loop's next turn: a client that has its answer
                    # may open its next connection before this thread gets there.
                    if not connection.closing:
                        connection.idle_since = time.monotonic()
                    try:
                        send(conn, answer, deadline=time.monotonic() + DEFAULT_TIMEOUT)
                    except (IpcError, OSError) as exc:
                        self._could_not_answer(peer, exc)
                        return
        finally:
            with self._lock:
                self._connections.pop(connection, None)
