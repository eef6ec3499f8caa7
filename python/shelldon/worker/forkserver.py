"""The fork-server: a warm, single-threaded parent that forks one privilege-dropped worker per
turn.

Why a fork-server: importing msgspec, sqlite3, the native module and the prompt code costs far
more than a fork on a Pi Zero; doing it once and then `gc.collect(); gc.freeze()` keeps each
child's pages shared (without the freeze a child's first GC dirties most of the parent's heap).

It is single-threaded on purpose (fork in a threaded process can inherit a held lock), so
everything — accepting core's requests, reading the child's result, the turn deadline, the
systemd watchdog, reaping — is one selector loop that never blocks on a child. At most one
worker is in flight; a second SpawnTurn gets TurnFailed(stage="busy").

Protocol: core connects, sends SpawnTurn, and gets exactly one TurnResult or TurnFailed on the
same connection. The worker writes its result frame to a pipe the fork-server reads and checks
before relaying; the worker never holds core's connection.

The worker's stderr is a second pipe of its own, read by this loop and logged a line at a time with
the worker's pid and turn, up to STDERR_LOG_CAP bytes a turn (the rest is read and counted, so a
worker never blocks on a full pipe and cannot flood the log). It never holds the fork-server's log
file, which it could otherwise fill, forge lines in, or truncate.

Who may connect: the socket is 0660 with the run dir's group (the service's), so only the service
uid and root can; a peer other than core may only Ping. Under a storm the loop stays core's: it
accepts every queued connection at once (the backlog never fills behind a slow one), reads core's
request at once, and reads any other allowed peer's Ping through the selector, a few at a time with
a short deadline and a small frame limit each (PEER_MAX_FRAME), so none of them holds the loop or
grows the parent of every worker; refusals and bad frames are logged once per
uid and kind a minute (ipc.RefusalLog). Each worker is admitted at the broker for
its turn alone (worker.admission: pid, uid and a one-time token, over one connection to the broker
kept open across turns, which a child closes first thing) and retired when the turn ends.

Over 400 lines: one selector loop owns a worker's whole life (fork, deadline, result, relay,
reap, watchdog), and every part reads and writes the same state (the one turn in flight, the
selector, the zombies to reap); it is one class doing one job, single-threaded.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import logging
import os
import select
import selectors
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from shelldon import ipc, sdnotify
from shelldon._native import trim_heap
from shelldon.clock import utc_now
from shelldon.contracts import wire
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.paths import DataRoot
from shelldon.worker import admission, drop, sandbox

log = logging.getLogger("shelldon.worker.forkserver")

# Modules a worker needs, imported here once so the child never imports (and shares these pages).
PRELOAD = (
    "msgspec",
    "sqlite3",
    "json",
    "shelldon._native",
    "shelldon.contracts.ops",
    "shelldon.contracts.brain",
    "shelldon.contracts.wire",
    "shelldon.worker.prompt",
    "shelldon.worker.turn",
    "shelldon.core.history.store",
    "shelldon.core.memory.reader",
)
WARM_UP_CLOCK = "Thursday 2026-01-01 09:00, time zone UTC (UTC+00:00)"
KILL_GRACE_S = 2.0  # after SIGKILL, how long we keep trying to reap before leaving it to the loop
EXIT_GRACE_S = 0.5  # after the worker closed its result pipe, how long it may take to exit
REQUEST_READ_S = 2.0  # core sends its request right after connecting
PEER_READ_S = 0.25  # anyone else (root's diagnostics): a Ping, at once
MAX_PEERS = 16  # other peers read at once; a newcomer past this closes the oldest
# The largest frame read from a peer other than core, which may only Ping (a frame of a few dozen
# bytes; anything else is refused in words): core's own limit (1 MiB) let sixteen peers make the
# loop buffer 16 MiB at a time, and the fork-server, the parent of every worker, grew 21 -> 43 MiB
# over three such rounds (tests/test_ipc_hostile_peers.py). Over it, refused at the header.
PEER_MAX_FRAME = 1 << 16
ACCEPT_BATCH = 256  # connections taken from the backlog per wakeup (ipc.LISTEN_BACKLOG)
STDERR_LOG_CAP = 16 * 1024  # bytes of one worker's stderr logged; the rest is counted, not kept
STDERR_LINE_CAP = 1000  # characters of one logged line
# C0 controls but tab, and DEL: a worker's line must not rewrite the terminal reading the log.
_UNPRINTABLE = {c: "\ufffd" for c in (*range(0x09), *range(0x0A, 0x20), 0x7F)}


def preload(*, freeze: bool = True) -> None:
    """Import what workers use, warm them up, then freeze the heap.

    `freeze=False` exists only to measure what the freeze saves (scripts/measure_processes.py).
    """
    for name in PRELOAD:  # names, not imports: the list is data (tests/test_layering.py checks it)
        importlib.import_module(name)
    warm_up()
    gc.collect()
    trim_heap()  # what the imports and the warm-up freed, back to the kernel before any fork
    if freeze:
        gc.freeze()


def warm_up() -> None:
    """Run one prompt assembly in the parent against a throwaway data root.

    First calls pay for lazily built state: sqlite's schema parse, compiled regexes in `re`'s cache,
    the ranker's tables. Paid once here, before the freeze, every worker inherits them instead of
    paying again per turn. The throwaway root is removed and every handle closed: the parent keeps
    no file of the real data root open.
    """
    from shelldon.core.history.store import HistoryStore
    from shelldon.worker.prompt import gather_context

    quiet = logging.getLogger("shelldon")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # the throwaway root is empty on purpose; no "missing" notes
    try:
        tmp = _scratch_dir()
        try:
            root = DataRoot(Path(tmp))
            # Plain directories: the data root's modes would need a setgid bit, which the card's
            # sandbox refuses (RestrictSUIDSGID=), and nobody but this process reads this root.
            for collection in COLLECTION_NAMES:
                (root.memory / collection).mkdir(parents=True)
            store = HistoryStore.open(root.history_db)
            try:
                store.record_turn("warm", "I like green tea", "Noted.", utc_now())
            finally:
                store.close()
            # A clock line as core sends one: the warm-up, like a pet's worker, loads no zone.
            gather_context(root, "do you remember the tea I like?", clock_line=WARM_UP_CLOCK)
        finally:
            _remove_tree(tmp)
    except Exception:
        log.exception("fork-server: warm-up failed (workers will pay their first calls)")
    finally:
        quiet.setLevel(level)


def _scratch_dir() -> str:
    """A fresh private directory for the warm-up: tempfile's mkdtemp without importing tempfile,
    which brings shutil, bz2, lzma and random (0.37 MB the fork-server would keep for life)."""
    path = os.path.join(
        os.environ.get("TMPDIR") or "/tmp", f"shelldon-warm-{os.getpid()}-{os.urandom(6).hex()}"
    )
    os.mkdir(path, 0o700)
    return path


def _remove_tree(path: str) -> None:
    """The warm-up's directory and what it made there (plain files and directories, no links)."""
    for parent, dirs, files in os.walk(path, topdown=False):
        for name in files:
            os.unlink(os.path.join(parent, name))
        for name in dirs:
            os.rmdir(os.path.join(parent, name))
    os.rmdir(path)


@dataclass(eq=False)
class _Peer:
    """An allowed peer other than core, read through the selector: one Ping, then closed."""

    conn: socket.socket
    peer: ipc.Peer
    deadline: float
    buffer: bytearray = field(default_factory=bytearray)


@dataclass
class _Turn:
    pid: int
    turn_id: str
    conn: socket.socket
    pipe: int
    deadline: float
    started: float
    buffer: bytearray = field(default_factory=bytearray)
    stderr: int = -1  # read end of the worker's stderr pipe; -1 once closed
    stderr_partial: bytearray = field(default_factory=bytearray)
    stderr_logged: int = 0
    stderr_dropped: int = 0
    purpose: str = "turn"
    admitted: bool = False  # the broker holds an admission for this worker, not yet retired


class ForkServer:
    def __init__(
        self, root: DataRoot, identity: drop.WorkerIdentity, *, max_frame: int = ipc.MAX_FRAME
    ) -> None:
        self.root = root
        self.identity = identity
        self.max_frame = max_frame
        self.turn: _Turn | None = None
        self.zombies: dict[int, float] = {}  # pid -> when we gave up waiting synchronously
        self._exited: dict[
            int, int
        ] = {}  # pid -> wait status, reaped by the loop before its turn ended
        self.spawned = 0
        self._stop = False
        self._listener: socket.socket | None = None
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._watchdog = sdnotify.WatchdogClock()
        # Built here, before any fork: a child only hands the kernel this ready program.
        self.filter = sandbox.build_filter(identity)
        if self.filter is None:
            log.warning("fork-server: no seccomp filter for this architecture (dev mode)")
        self.broker = admission.BrokerAdmission(root)
        self.peers: dict[int, _Peer] = {}  # fd -> a peer other than core, being read
        self.refusals = ipc.RefusalLog(log)
        self.fd_reserve = ipc.FdReserve("fork-server")
        self._resting_until: float | None = None  # out of descriptors: the listener rests

    # --- lifecycle ------------------------------------------------------------------------------

    def bind(self) -> None:
        # 0660 with the run dir's group: the service uid (core) and root connect, nobody else (the
        # appliance's unit runs the fork-server with that group, so the socket is born with it; as
        # root in tests the chown does). SO_PEERCRED then admits only core for SpawnTurn.
        group: int | None = self.root.run_dir.stat().st_gid
        if group is not None and not ipc.may_give_group(group):
            log.warning(
                "fork-server: the run dir's group %d is not this user's; keeping its own", group
            )
            group = None
        self._listener = ipc.bind_unix(self.root.socket("forkserver"), mode=0o660, group=group)

    def install_signals(self) -> None:
        signal.set_wakeup_fd(self._wake_w, warn_on_full_buffer=False)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_stop_signal)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the loop through the wakeup fd

    def _on_stop_signal(self, signum: int, frame: object) -> None:
        self._stop = True

    def serve_forever(self) -> None:
        if self._listener is None:
            self.bind()
        assert self._listener is not None
        self._listener.setblocking(False)
        self._selector.register(self._listener, selectors.EVENT_READ, "accept")
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        ipc.write_pid_file(self.root.run_dir, "forkserver")
        sdnotify.ready(f"isolation {'on' if self.identity.isolated else 'OFF'}")
        try:
            while not self._stop:
                for key, _ in self._selector.select(self._timeout()):
                    if key.data == "accept":
                        self._accept()
                    elif key.data == "wake":
                        with contextlib.suppress(BlockingIOError):
                            os.read(self._wake_r, 512)
                    elif key.data == "turn":
                        self._read_turn()
                    elif key.data == "stderr":
                        self._read_stderr()
                    elif key.data == "peer":
                        self._read_peer(key.fd)
                self._rest_over()
                self._expire_peers()
                self._check_deadline()
                self._reap()
                self._watchdog.tick()
        finally:
            self.shutdown()

    def _timeout(self) -> float | None:
        candidates = []
        if self.turn is not None:
            candidates.append(max(0.0, self.turn.deadline - time.monotonic()))
        if self.zombies:
            candidates.append(0.1)  # a SIGKILLed child in uninterruptible sleep: look again soon
        wd = self._watchdog.timeout()
        if wd is not None:
            candidates.append(wd)
        if self.peers:
            soonest = min(p.deadline for p in self.peers.values())
            candidates.append(max(0.0, soonest - time.monotonic()))
        if self._resting_until is not None:
            candidates.append(max(0.0, self._resting_until - time.monotonic()))
        return min(candidates) if candidates else None

    def _rest_over(self) -> None:
        """The listener back in the selector once its rest (out of descriptors) is over."""
        if self._resting_until is None or time.monotonic() < self._resting_until:
            return
        self._resting_until = None
        if self._listener is not None:
            self._selector.register(self._listener, selectors.EVENT_READ, "accept")

    def shutdown(self) -> None:
        sdnotify.stopping()
        if self.turn is not None:
            self._retire(self.turn)
            self._fail_turn("crash", "fork-server shutting down")
        self.broker.close()
        for pid in list(self.zombies):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for reading in list(self.peers.values()):
            self._drop_peer(reading)
        self._reap()
        self.fd_reserve.close()
        if self._listener is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(self._listener)
            self._listener.close()
            with contextlib.suppress(OSError):
                self.root.socket("forkserver").unlink()
            self._listener = None
        ipc.remove_pid_file(self.root.run_dir, "forkserver")

    # --- requests -------------------------------------------------------------------------------

    def _accept(self) -> None:
        """Take every queued connection (up to a batch): the backlog drains at the kernel's pace,
        so core's connect never waits behind a storm for more than one pass of this loop."""
        assert self._listener is not None
        for _ in range(ACCEPT_BATCH):
            try:
                conn, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno not in ipc.OUT_OF_FDS:
                    log.warning("fork-server: accept failed: %s", exc)
                    return
                # Out of descriptors: the connection stays queued and the listener readable; a
                # loop that only logged spun at 100 % CPU, a line per pass (ipc.FdReserve). The
                # peers still being read (pings, never core) are let go first: a turn needs
                # descriptors of its own (the worker's pipes), or it fails at the spawn.
                for reading in sorted(self.peers.values(), key=lambda p: p.deadline)[
                    : ipc.FD_HEADROOM
                ]:
                    self._drop_peer(reading)
                taken = self.fd_reserve.take(self._listener, exc)
                if taken is None:
                    self._selector.unregister(self._listener)
                    self._resting_until = time.monotonic() + ipc.ACCEPT_PAUSE_S
                    return
                self._take(taken)
                self.fd_reserve.give_back()
                return
            self._take(conn)

    def _take(self, conn: socket.socket) -> None:
        keep = False
        try:
            keep = self._admit_peer(conn)
        except (ipc.IpcError, OSError) as exc:
            log.warning("fork-server: dropped a connection: %s", exc)
        finally:
            if not keep:
                conn.close()

    def _admit_peer(self, conn: socket.socket) -> bool:
        """Core's request is served now; another allowed peer is read by the selector; anyone else
        is refused unheard. True if the connection is kept (a turn's, or a peer being read)."""
        peer = ipc.peer_of(conn)
        core_pid = ipc.read_pid_file(self.root.run_dir, "core")
        if peer.pid == core_pid:
            conn.setblocking(True)
            return self._handle(conn, peer)
        if peer.uid not in (0, os.geteuid()):
            # Only if the mode let it in: nobody else gets any of this loop's time, not even the
            # wait for it to read the refusal.
            self.refusals.refused("fork-server", peer, "only core may talk to the fork-server")
            ipc.refuse_unheard(conn, "only core may talk to the fork-server")
            return False
        if len(self.peers) >= MAX_PEERS:
            oldest = min(self.peers.values(), key=lambda p: p.deadline)
            self._drop_peer(oldest)
        conn.setblocking(False)
        reading = _Peer(conn, peer, time.monotonic() + PEER_READ_S)
        self.peers[conn.fileno()] = reading
        self._selector.register(conn, selectors.EVENT_READ, "peer")
        return True

    def _read_peer(self, fd: int) -> None:
        reading = self.peers.get(fd)
        if reading is None:
            return
        try:
            chunk = reading.conn.recv(1 << 14)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        reading.buffer += chunk
        got = len(reading.buffer)
        if got < ipc.HEADER.size:
            if not chunk and got:
                self._refuse_peer(reading, f"stream ended inside a frame ({got}/4 bytes)")
            elif not chunk:
                self._drop_peer(reading)  # closed between frames: nothing to refuse
            return
        (length,) = ipc.HEADER.unpack_from(reading.buffer)
        if length == 0:
            self._refuse_peer(reading, "empty frame")
            return
        limit = min(self.max_frame, PEER_MAX_FRAME)
        if length > limit:
            self._refuse_peer(reading, f"frame of {length} bytes exceeds the {limit}-byte limit")
            return
        if got < ipc.HEADER.size + length:
            if not chunk:
                body = got - ipc.HEADER.size
                self._refuse_peer(reading, f"stream ended inside a frame ({body}/{length} bytes)")
            return
        payload = bytes(reading.buffer[ipc.HEADER.size : ipc.HEADER.size + length])
        try:
            message = wire.decode(payload)
        except wire.WireError as exc:
            self._refuse_peer(reading, str(exc))
            return
        if isinstance(message, wire.Ping):
            answer: wire._Msg = self.pong()
        elif isinstance(message, wire.SpawnTurn):
            self.refusals.refused("fork-server", reading.peer, "only core may spawn a turn")
            answer = wire.Refused(reason="only core may spawn a turn")
        else:
            reason = f"the fork-server does not serve {type(message).__name__}"
            self.refusals.refused("fork-server", reading.peer, reason, what="a request")
            answer = wire.Refused(reason=reason)
        with contextlib.suppress(OSError):
            reading.conn.send(ipc.frame(answer))  # small: fits the socket's buffer
        self._drop_peer(reading)

    def _refuse_peer(self, reading: _Peer, problem: str) -> None:
        """A bad frame from an allowed peer (root, the service uid): once per uid a minute with a
        count, as every line a peer can cause (ipc.RefusalLog)."""
        peer = reading.peer
        self.refusals.line(
            "fork-server",
            peer,
            "bad frame",
            f"refused a frame from pid {peer.pid} uid {peer.uid}: {problem}",
        )
        with contextlib.suppress(OSError):
            reading.conn.send(ipc.frame(wire.Refused(reason=f"bad frame: {problem}")))
        self._drop_peer(reading)

    def _drop_peer(self, reading: _Peer) -> None:
        self.peers.pop(reading.conn.fileno(), None)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(reading.conn)
        reading.conn.close()

    def _expire_peers(self) -> None:
        now = time.monotonic()
        for reading in [p for p in self.peers.values() if p.deadline <= now]:
            if reading.buffer:  # stalled mid-frame
                self._refuse_peer(
                    reading, f"no frame within the deadline ({len(reading.buffer)} bytes)"
                )
            else:
                self._drop_peer(reading)  # silent past its deadline: let it go, unlogged

    def _handle(self, conn: socket.socket, peer: ipc.Peer) -> bool:
        """Serve core's one request. True if the connection now belongs to a running turn."""
        ipc.keep_pid_file(self.root.run_dir, "forkserver")  # the broker admits workers by it
        try:
            message = ipc.recv(
                conn, deadline=time.monotonic() + REQUEST_READ_S, max_size=self.max_frame
            )
        except ipc.PeerClosed:
            return False
        except (ipc.FrameTooLarge, ipc.FrameTruncated, ipc.FrameMalformed, ipc.FrameTimeout) as exc:
            self.refusals.line(
                "fork-server",
                peer,
                "bad frame",
                f"refused a frame from pid {peer.pid} uid {peer.uid}: {exc}",
            )
            ipc.refuse_and_close(conn, f"bad frame: {exc}")
            return False
        if isinstance(message, wire.Ping):
            ipc.send(conn, self.pong(), deadline=time.monotonic() + 1)
            return False
        if not isinstance(message, wire.SpawnTurn):
            reason = f"the fork-server does not serve {type(message).__name__}"
            self.refusals.refused("fork-server", peer, reason, what="a request")
            ipc.send(conn, wire.Refused(reason=reason))
            return False
        if self.turn is not None or self.zombies:
            ipc.send(
                conn,
                wire.TurnFailed(
                    turn_id=message.turn_id, stage="busy", reason="a worker is in flight"
                ),
            )
            return False
        return self._spawn(message, conn)

    def pong(self) -> wire.Pong:
        busy = f"turn {self.turn.turn_id} in flight" if self.turn else "idle"
        return wire.Pong(
            name="forkserver",
            pid=os.getpid(),
            detail=f"{busy}; {self.spawned} spawned; {self.identity.reason}",
            isolation=self.identity.isolated,
        )

    # --- one worker -----------------------------------------------------------------------------

    def _turn_pipes(self) -> tuple[int, int, int, int, int, int]:
        """The worker's result, go and stderr pipes (read, write each). Out of descriptors (a
        client holding connections under a low RLIMIT_NOFILE), the peers still being read (pings,
        never core) are let go and it is tried once more: the owner's turn comes first. Nothing
        is left open on a failure (a failed second pipe used to leak the first)."""
        for attempt in (1, 2):
            fds: list[int] = []
            try:
                for _ in range(3):
                    fds.extend(os.pipe2(os.O_CLOEXEC))
            except OSError as exc:
                for fd in fds:
                    os.close(fd)
                if attempt == 2 or exc.errno not in ipc.OUT_OF_FDS or not self.peers:
                    raise
                log.warning("fork-server: out of descriptors for a turn; letting pings go")
                for reading in list(self.peers.values()):
                    self._drop_peer(reading)
                continue
            return fds[0], fds[1], fds[2], fds[3], fds[4], fds[5]
        raise AssertionError("unreachable")

    def _spawn(self, spawn: wire.SpawnTurn, conn: socket.socket) -> bool:
        started = time.monotonic()
        deadline = started + max(0.1, spawn.deadline_s)
        token = admission.new_token()  # the child's copy of this memory is its only copy
        try:
            read_end, write_end, go_read, go_write, err_read, err_write = self._turn_pipes()
        except OSError as exc:
            ipc.send(
                conn, wire.TurnFailed(turn_id=spawn.turn_id, stage="spawn", reason=f"pipe: {exc}")
            )
            return False
        try:
            pid = os.fork()
        except OSError as exc:
            for fd in (read_end, write_end, err_read, err_write, go_read, go_write):
                os.close(fd)
            ipc.send(
                conn, wire.TurnFailed(turn_id=spawn.turn_id, stage="spawn", reason=f"fork: {exc}")
            )
            return False
        if pid == 0:  # pragma: no cover - runs in the child, which never returns
            os.close(go_write)
            os.dup2(err_write, 2)  # the worker's stderr: its own pipe, not our log file
            self._child(spawn, write_end, deadline, token=token, go=go_read)
        os.close(write_end)
        os.close(err_write)
        os.close(go_read)
        os.set_blocking(err_read, False)
        os.set_blocking(read_end, False)
        self.spawned += 1
        self.turn = _Turn(
            pid=pid,
            turn_id=spawn.turn_id,
            conn=conn,
            pipe=read_end,
            deadline=deadline,
            started=started,
            stderr=err_read,
            purpose=spawn.purpose,
        )
        self._selector.register(read_end, selectors.EVENT_READ, "turn")
        self._selector.register(err_read, selectors.EVENT_READ, "stderr")
        self._admit(self.turn, token, go_write)
        log.debug("fork-server: turn %s in worker %d", spawn.turn_id, pid)
        return True

    def _admit(self, turn: _Turn, token: str, go: int) -> None:
        """Admit the new worker at the broker for this turn, then let it go on (worker.admission).
        The isolation probe asks no brain: nothing to admit."""
        try:
            if turn.purpose != "probe":
                uid = self.identity.uid if self.identity.uid is not None else os.geteuid()
                left = max(0.0, turn.deadline - time.monotonic())
                turn.admitted = self.broker.admit(turn.turn_id, turn.pid, uid, token, left)
        finally:
            admission.release(go, turn.admitted or turn.purpose == "probe")

    def _retire(self, turn: _Turn) -> None:
        """The turn is over: the broker forgets its worker (before the child is reaped, so its pid
        cannot have been reused)."""
        if turn.admitted:
            turn.admitted = False
            self.broker.retire(turn.turn_id, turn.pid)

    def _child(
        self, spawn: wire.SpawnTurn, out: int, deadline: float, *, token: str, go: int
    ) -> None:
        """In the worker. Never returns: the process ends with os._exit."""
        code = 0
        try:
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            drop.close_inherited_fds(keep={out, go})
            try:
                isolated = drop.drop_privileges(self.identity)
                sandbox.confine(self.filter)  # after the drop: the filter refuses setns & co.
            except drop.DropRefused as exc:
                log.error("worker: refusing turn %s: %s", spawn.turn_id, exc)
                result: wire.TurnResult | wire.TurnFailed = wire.TurnFailed(
                    turn_id=spawn.turn_id, stage="drop", reason=str(exc)
                )
            else:
                from shelldon.worker.turn import run_turn  # preloaded: a dict lookup, not an import

                before = len(sys.modules)
                result = run_turn(
                    self.root,
                    spawn,
                    isolated=isolated,
                    deadline=deadline,
                    token=token,
                    # the broker knows this worker before it asks (the read needs no admission)
                    admitted=partial(admission.await_admission, go),
                )
                late = imported_since(before)
                if late:  # each is a per-turn cost and private memory: add it to PRELOAD
                    log.warning("worker: imported after fork: %s", ", ".join(late))
            data = ipc.frame(result, max_size=self.max_frame)
            view = memoryview(data)
            while view:
                written = os.write(out, view)
                view = view[written:]
        except BaseException:
            log.exception("worker: turn %s crashed", spawn.turn_id)
            code = 1
        finally:
            os._exit(code)

    def _read_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        try:
            chunk = os.read(turn.pipe, 1 << 16)
        except BlockingIOError:
            return
        except OSError as exc:
            self._fail_turn("crash", f"reading the worker: {exc}")
            return
        if chunk:
            turn.buffer += chunk
            if len(turn.buffer) > self.max_frame + ipc.HEADER.size:
                self._retire(turn)
                self._kill(turn.pid)
                self._fail_turn("protocol", "the worker's result exceeds the frame limit")
            return
        self._finish_turn()  # EOF: the worker is done (or dead)

    def _finish_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        self._retire(turn)
        status = self._wait(turn.pid, EXIT_GRACE_S)
        if status is None:
            # The pipe is closed but the worker lives on: it has nothing legitimate left to do,
            # and while it lives no next turn may start.
            log.warning(
                "fork-server: worker %d closed its result but did not exit; killing", turn.pid
            )
            status = self._kill(turn.pid)
        result = self._parse_result(turn)
        if result is None:
            how = _describe_exit(status)
            self._fail_turn("crash", f"the worker ended without a result ({how})")
            return
        self._relay(result)

    def _parse_result(self, turn: _Turn) -> wire.TurnResult | wire.TurnFailed | None:
        data = bytes(turn.buffer)
        if len(data) < ipc.HEADER.size:
            return None
        (length,) = ipc.HEADER.unpack_from(data)
        if length != len(data) - ipc.HEADER.size:
            log.warning("fork-server: worker %d sent a truncated or padded frame", turn.pid)
            return None
        try:
            message = wire.decode(data[ipc.HEADER.size :])
        except wire.WireError as exc:
            log.warning("fork-server: worker %d sent a malformed frame: %s", turn.pid, exc)
            return None
        if (
            not isinstance(message, (wire.TurnResult, wire.TurnFailed))
            or message.turn_id != turn.turn_id
        ):
            log.warning("fork-server: worker %d answered for the wrong turn", turn.pid)
            return None
        return message

    def _check_deadline(self) -> None:
        turn = self.turn
        if turn is None or time.monotonic() < turn.deadline:
            return
        log.warning(
            "fork-server: turn %s passed its deadline; killing worker %d", turn.turn_id, turn.pid
        )
        self._retire(turn)
        self._kill(turn.pid)
        self._fail_turn("timeout", "the turn passed its deadline")

    def _fail_turn(self, stage: wire.TurnFailStage, reason: str) -> None:
        turn = self.turn
        assert turn is not None
        self._relay(wire.TurnFailed(turn_id=turn.turn_id, stage=stage, reason=reason))

    def _relay(self, result: wire.TurnResult | wire.TurnFailed) -> None:
        turn = self.turn
        assert turn is not None
        self._retire(turn)
        self.turn = None
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(turn.pipe)
        os.close(turn.pipe)
        self._close_stderr(turn)
        if self._wait(turn.pid, 0) is None and turn.pid not in self.zombies:
            self.zombies[turn.pid] = time.monotonic()
        try:
            ipc.send(turn.conn, result, deadline=time.monotonic() + 2)
        except (ipc.IpcError, OSError) as exc:
            log.warning(
                "fork-server: core went away before turn %s's result: %s", turn.turn_id, exc
            )
        finally:
            turn.conn.close()

    # --- the worker's stderr ---------------------------------------------------------------------

    def _read_stderr(self) -> None:
        turn = self.turn
        if turn is None or turn.stderr < 0:
            return
        if not self._drain_stderr(turn):
            self._close_stderr(turn)

    def _drain_stderr(self, turn: _Turn) -> bool:
        """Read what the worker wrote (at most a few pipe-fulls at a time); False at EOF."""
        for _ in range(16):  # the loop has other work; the rest waits for the next wake-up
            try:
                chunk = os.read(turn.stderr, 1 << 16)
            except BlockingIOError:
                return True
            except OSError as exc:
                log.warning("fork-server: reading worker %d's stderr: %s", turn.pid, exc)
                return False
            if not chunk:
                return False
            turn.stderr_partial += chunk
            *lines, rest = turn.stderr_partial.split(b"\n")
            if len(rest) > STDERR_LINE_CAP * 4:  # one endless line: log its head now
                lines.append(rest)
                rest = bytearray()
            turn.stderr_partial = bytearray(rest)
            for line in lines:
                self._log_worker_line(turn, bytes(line))
        return True

    def _log_worker_line(self, turn: _Turn, line: bytes) -> None:
        if turn.stderr_logged >= STDERR_LOG_CAP:
            turn.stderr_dropped += len(line) + 1
            return
        turn.stderr_logged += len(line) + 1
        text = line.decode("utf-8", "replace").translate(_UNPRINTABLE)
        if len(text) > STDERR_LINE_CAP:
            text = f"{text[:STDERR_LINE_CAP]}... ({len(text)} characters)"
        log.warning("worker %d (turn %s): %s", turn.pid, turn.turn_id, text)

    def _close_stderr(self, turn: _Turn) -> None:
        """Log what is left (the worker has ended, or is being given up on) and close the pipe."""
        if turn.stderr < 0:
            return
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(turn.stderr)
        self._drain_stderr(turn)
        if turn.stderr_partial:
            self._log_worker_line(turn, bytes(turn.stderr_partial))
            turn.stderr_partial.clear()
        os.close(turn.stderr)
        turn.stderr = -1
        if turn.stderr_dropped:
            log.warning(
                "worker %d (turn %s): %d more bytes of stderr not logged (over %d)",
                turn.pid,
                turn.turn_id,
                turn.stderr_dropped,
                STDERR_LOG_CAP,
            )

    # --- children -------------------------------------------------------------------------------

    def _kill(self, pid: int) -> int | None:
        """SIGKILL and reap within the grace; its wait status, or None (left to the loop)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        status = self._wait(pid, KILL_GRACE_S)
        if status is None:
            self.zombies.setdefault(pid, time.monotonic())
        return status

    def _wait(self, pid: int, grace: float) -> int | None:
        """Reap `pid`, waiting at most `grace` s for it to end (on its pidfd). Status, or None."""
        status = self._try_reap(pid)
        if status is not None or grace <= 0:
            return status
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:  # already reaped elsewhere, or no pidfd: one last look
            return self._try_reap(pid)
        try:
            select.select([pidfd], [], [], grace)  # readable once the process has ended
        finally:
            os.close(pidfd)
        return self._try_reap(pid)

    def _try_reap(self, pid: int) -> int | None:
        if pid in self._exited:
            self.zombies.pop(pid, None)
            return self._exited.pop(pid)
        try:
            got, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            self.zombies.pop(pid, None)
            return 0
        if got == pid:
            self.zombies.pop(pid, None)
            return status
        return None

    def _reap(self) -> None:
        for pid in list(self.zombies):
            self._wait(pid, 0)
        # Anything else that ended (should not happen: every child is tracked), without blocking.
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if self.turn is not None and pid == self.turn.pid:
                self._exited[pid] = status  # the pipe's EOF follows; _finish_turn reads this
            self.zombies.pop(pid, None)


def imported_since(count: int) -> list[str]:
    """The modules imported since sys.modules held `count` (a worker checks its turn imported
    nothing: each late import is a per-turn cost). A count, not a set of the names taken before:
    a set would touch, and so copy into the worker, every module name's page; sys.modules is a
    dict, so what is imported later comes after."""
    return sorted(list(sys.modules)[count:])


def _describe_exit(status: int | None) -> str:
    if status is None:
        return "still running after SIGKILL"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return f"killed by {signal.Signals(sig).name}"
    return f"exit code {os.WEXITSTATUS(status)}"


def main(root: DataRoot) -> int:
    """`shelldon forkserver`: resolve the worker identity, preload, freeze, serve."""
    from shelldon.config import ConfigError, configured_worker_user

    try:
        identity = drop.resolve_identity(configured_worker_user(root))
    except (drop.DropRefused, ConfigError) as exc:
        log.error("fork-server: %s", exc)
        return 2
    if not identity.isolated:
        log.warning("fork-server: %s (%s)", drop.DEV_MODE_WARNING, identity.reason)
    blocked = drop.unreachable_for(identity, root.memory, root.run_dir)
    if blocked:
        log.error("fork-server: %s; use a data root and run dir the worker can traverse", blocked)
        return 2
    preload()
    from shelldon.worker.prompt import warm  # preloaded just now: a dict lookup

    warm(root)  # [prompt] read before workers drop privilege
    root.run_dir.mkdir(parents=True, exist_ok=True)
    try:
        server = ForkServer(root, identity)
    except drop.DropRefused as exc:
        log.error("fork-server: %s", exc)
        return 2
    try:
        server.bind()
    except OSError as exc:
        log.error("fork-server: cannot listen on %s: %s", root.socket("forkserver"), exc)
        return 1
    server.install_signals()
    server.serve_forever()
    return 0
