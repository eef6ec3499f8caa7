"""The composition root (`python -m shelldon`, `shelldon run`): the pet as three real processes.

It prepares the data root (memory tree, vault 0700), starts broker, fork-server and core as
separate OS processes (`python -m shelldon <name>`), waits until each says READY=1 on a private
notify socket (the same sd_notify protocol systemd uses, so the processes behave identically
under both), then either opens the chat in this terminal or just supervises. SIGTERM/SIGINT stop
everything cleanly; a child that dies is reported by name and exit status, and the rest are
stopped instead of leaving a hung pet. The children die with the supervisor even when it is
SIGKILLed and cleans up nothing: each gets SIGTERM from the kernel then (PR_SET_PDEATHSIG, set in
the child before exec), so no core, broker or fork-server is left running under PID 1.

SIGUSR1 (`shelldon restart`, which finds this process by `<run dir>/run.pid`) stops the three and
starts them again, chat and supervision going on.

On the appliance systemd starts the three units directly (`shelldon core|broker|forkserver`) and
this module is not used. Over 400 lines: the supervisor's start, readiness wait, restart and
stop are one state machine over the same three child handles, kept in one place."""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shelldon.core.storage import layout
from shelldon.daemon import pet_tunables
from shelldon.paths import DataRoot
from shelldon.transport.terminal import (
    EXIT_INTERRUPTED,
    chat_loop,
    nudge_until,
    start_without_signals,
)

log = logging.getLogger("shelldon.app")

PROCESSES = ("broker", "forkserver", "core")
# The signals that stop the pet; SIGUSR1 restarts it. Their numbers come through the wake pipe.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
PID_NAME = "run"  # <run dir>/run.pid: this supervisor, for `shelldon restart`
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0
STACKS_WAIT_S = 1.0  # after SIGQUIT, for a hung child to write its stacks before SIGKILL
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_LIBC = ctypes.CDLL(None, use_errno=True)  # loaded here: the child between fork and exec only calls


def die_with(parent: int) -> Callable[[], None]:
    """A preexec_fn: the child gets SIGTERM when `parent` dies, however it dies. The kernel sends
    it when the *thread* that forked exits; `Supervisor.start` runs on the main thread, which
    lives as long as the supervisor (in chat mode a restart runs on the watcher thread, which
    lives until the chat ends). A parent already gone before the prctl: exit at once.

    The child also starts with no signal blocked. A signal mask survives fork and exec, and the
    chat's watcher thread blocks SIGTERM, SIGINT, SIGHUP and SIGUSR1 (transport.terminal
    `start_without_signals`): the core, broker and fork-server a restart started from it never
    saw SIGTERM, so every stop waited STOP_TIMEOUT_S, SIGKILLed all three (the turn in flight
    cut, not drained) and exited 1, and the parent-death signal could not reach them."""

    def preexec() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


class ChildDied(Exception):
    def __init__(self, name: str, pid: int, how: str) -> None:
        super().__init__(f"{name} (pid {pid}) {how}")
        self.name = name


class StopRequested(Exception):
    pass


@dataclass
class Child:
    name: str
    proc: subprocess.Popen[bytes]
    ready: bool = False
    pidfd: int = -1


@dataclass
class ChatEnd:
    """The chat's end, told twice: `over`, a plain flag the signal handler reads (setting an Event
    takes its lock, and a handler that ran inside that very `set` would find it still clear), then
    `event`, which the watcher waits on."""

    over: bool = False
    event: threading.Event = field(default_factory=threading.Event)

    def end(self) -> None:
        self.over = True
        self.event.set()


def describe_returncode(code: int | None) -> str:
    if code is None:
        return "is still running"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


@dataclass
class Supervisor:
    root: DataRoot
    log_dir: Path | None = None  # children's stderr goes here (chat mode) instead of the terminal
    children: dict[str, Child] = field(default_factory=dict)
    # Kept bound until stop(): the children also send STOPPING=1 (and would warn if it vanished).
    _notify: tuple[socket.socket, Path] | None = None
    # wake() makes wait_for_death return; so does a signal, whose number the interpreter's own
    # handler writes here (`wake_on_signals`) before any Python code runs.
    _wake: tuple[int, int] = field(default_factory=lambda: os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK))

    def wake(self) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake[1], b"x")

    def wake_on_signals(self) -> int:
        """Every signal with a Python handler writes its number to the wake pipe as it arrives
        (signal.set_wakeup_fd; main thread only). The old wakeup fd, to put back."""
        return signal.set_wakeup_fd(self._wake[1], warn_on_full_buffer=False)

    def restart(self) -> None:
        """Stop the three and start them again (`shelldon restart`)."""
        self.stop()
        self.children = {}
        self.start()

    def _notify_socket(self) -> tuple[socket.socket, Path]:
        path = self.root.run_dir / f"notify-{os.getpid()}.sock"
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        sock.bind(os.fspath(path))
        os.chmod(path, 0o600)  # only our own uid (and root) may tell us a child is ready
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        return sock, path

    def start(self) -> None:
        """Start the three processes and wait for each READY=1. ChildDied if one fails first."""
        layout.prepare(self.root)
        notify, notify_path = self._notify_socket()
        self._notify = (notify, notify_path)
        env = dict(os.environ)
        env["NOTIFY_SOCKET"] = os.fspath(notify_path)
        env.pop("WATCHDOG_USEC", None)
        env.pop("WATCHDOG_PID", None)
        env["SHELLDON_HOME"] = os.fspath(self.root.home)
        # As the card's units: code objects without column tables (-0.25 MB across the three; a
        # traceback keeps its lines, loses its carets) and without docstrings (-OO: -2 MB; the
        # asserts it drops only narrow types, tests/test_asserts.py). An owner's own setting wins.
        env.setdefault("PYTHONNODEBUGRANGES", "1")
        # glibc's malloc as the card's units set it: no per-thread caches, a fixed mmap
        # threshold (freed pages go back at rest; daemon.PET_MALLOC).
        env["GLIBC_TUNABLES"] = pet_tunables(env.get("GLIBC_TUNABLES"))
        if stdlib_compiled_without_docstrings():
            env.setdefault("PYTHONOPTIMIZE", "2")
        if self.root.run_override is not None:
            env["SHELLDON_RUN_DIR"] = os.fspath(self.root.run_override)
        for name in PROCESSES:
            stderr = None
            if self.log_dir is not None:
                layout.ensure_dir(self.log_dir, layout.DIR_MODE)
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
                log_fd = os.open(self.log_dir / f"{name}.log", flags, layout.FILE_MODE)
                stderr = os.fdopen(log_fd, "ab")  # handed to the child
            try:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "shelldon", name, "--home", os.fspath(self.root.home)],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    # Own session: the terminal's Ctrl-C reaches only us, and we stop them in order.
                    start_new_session=True,
                    preexec_fn=die_with(os.getpid()),  # safe: no thread runs yet (die_with)
                )
            finally:
                if stderr is not None:
                    stderr.close()
            child = Child(name, proc)
            with contextlib.suppress(OSError):
                child.pidfd = os.pidfd_open(proc.pid)
            self.children[name] = child
        self._wait_ready(notify)

    def _wait_ready(self, notify: socket.socket) -> None:
        by_pid = {c.proc.pid: c for c in self.children.values()}
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not all(c.ready for c in self.children.values()):
            for child in self.children.values():
                if child.proc.poll() is not None:
                    how = describe_returncode(child.proc.returncode) + " while starting"
                    if self.log_dir is not None:  # chat mode: its reason is in its log file
                        why = last_error(self.log_dir / f"{child.name}.log")
                        how += f" ({why})" if why else ""
                    raise ChildDied(child.name, child.proc.pid, how)
            left = deadline - time.monotonic()
            if left <= 0:
                waiting = [c.name for c in self.children.values() if not c.ready]
                raise TimeoutError(f"not ready after {READY_TIMEOUT_S:.0f} s: {', '.join(waiting)}")
            fds = [notify.fileno(), *(c.pidfd for c in self.children.values() if c.pidfd >= 0)]
            readable, _, _ = select.select(
                fds,
                [],
                [],
                min(left, 0.5 if any(c.pidfd < 0 for c in self.children.values()) else left),
            )
            if notify.fileno() not in readable:
                continue
            data, ancdata, _flags, _addr = notify.recvmsg(4096, socket.CMSG_SPACE(12))
            sender = None
            for level, kind, payload in ancdata:
                if (
                    level == socket.SOL_SOCKET
                    and kind == socket.SCM_CREDENTIALS
                    and len(payload) >= 12
                ):
                    sender = int.from_bytes(payload[:4], sys.byteorder, signed=True)
            sent_by = by_pid.get(sender) if sender is not None else None
            if sent_by is not None and b"READY=1" in data.split(b"\n"):
                sent_by.ready = True
                log.info("%s is ready (pid %d)", sent_by.name, sent_by.proc.pid)

    def wait_for_death(
        self, stop: threading.Event, restart: threading.Event | None = None
    ) -> Child | None:
        """Block until a child exits (returned), or until woken (None). A stop signal read from the
        wake pipe sets `stop`, SIGUSR1 sets `restart`: here, on this thread, not in the handler.
        Uses pidfds: no polling."""
        wake_r = self._wake[0]
        while True:
            for candidate in self.children.values():
                if candidate.proc.poll() is not None:
                    return candidate
            if stop.is_set():
                return None
            fds = [wake_r, *(c.pidfd for c in self.children.values() if c.pidfd >= 0)]
            ready, _, _ = select.select(
                fds, [], [], None if all(c.pidfd >= 0 for c in self.children.values()) else 0.5
            )
            if wake_r in ready:
                woken = bytearray()
                with contextlib.suppress(BlockingIOError):
                    while chunk := os.read(wake_r, 64):
                        woken += chunk
                if STOP_SIGNALS & set(woken):
                    stop.set()
                if restart is not None and signal.SIGUSR1 in woken:
                    restart.set()
                return None

    def stop(self) -> dict[str, int | None]:
        """SIGTERM in reverse start order, wait, SIGKILL stragglers. Each child's exit code."""
        for name in reversed(PROCESSES):
            child = self.children.get(name)
            if child is not None and child.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    child.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        codes: dict[str, int | None] = {}
        for name, child in self.children.items():
            try:
                child.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.error(
                    "%s (pid %d) ignored SIGTERM; its threads' stacks follow; killing it",
                    name,
                    child.proc.pid,
                )
                with contextlib.suppress(ProcessLookupError):
                    child.proc.send_signal(signal.SIGQUIT)  # faulthandler: the stacks, to its log
                with contextlib.suppress(subprocess.TimeoutExpired):
                    child.proc.wait(timeout=STACKS_WAIT_S)
                child.proc.kill()
                child.proc.wait()
            codes[name] = child.proc.returncode
            if child.pidfd >= 0:
                os.close(child.pidfd)
                child.pidfd = -1
        if self._notify is not None:
            sock, path = self._notify
            sock.close()
            with contextlib.suppress(OSError):
                path.unlink()
            self._notify = None
        return codes


def stdlib_compiled_without_docstrings() -> bool:
    """Whether this Python's stdlib has its -OO byte-code (the card's image compiles it, pyenv's
    builds ship it; Debian's python3 does not, and a user cannot write it there). Without it,
    -OO compiles every stdlib module from source at each start: a higher peak than the
    docstrings save (the broker over its 30 MiB budget on Debian 13, docs/performance.md)."""
    import json  # a stdlib package each of the three imports

    return os.path.exists(importlib.util.cache_from_source(json.__file__, optimization=2))


def last_error(log: Path, tail_bytes: int = 8192) -> str:
    """The last ERROR or CRITICAL message in a child's log file ("" when none): in chat mode a
    child that could not start says why only there (another pet on the same run dir, …)."""
    try:
        with log.open("rb") as handle:
            handle.seek(max(0, log.stat().st_size - tail_bytes))
            lines = handle.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    for line in reversed(lines):
        for level in (" ERROR ", " CRITICAL "):
            if level in line:
                return line.split(level, 1)[1].strip()
    return ""


def _log_to_file(path: Path) -> None:
    """This process's log lines go to `path` instead of the terminal."""
    layout.ensure_dir(path.parent, layout.DIR_MODE)
    handler = logging.FileHandler(path, encoding="utf-8", errors="replace")
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s")
    )
    rootlog = logging.getLogger()
    for old in list(rootlog.handlers):
        if isinstance(old, logging.StreamHandler) and not isinstance(old, logging.FileHandler):
            rootlog.removeHandler(old)
    rootlog.addHandler(handler)


def report_death(dead: Child, *, newline: bool = False) -> None:
    how = describe_returncode(dead.proc.returncode)
    lead = "\n" if newline else ""
    print(
        f"{lead}shelldon: {dead.name} (pid {dead.proc.pid}) {how}; stopping the others",
        file=sys.stderr,
        flush=True,
    )


def run(root: DataRoot, *, chat: bool) -> int:
    """Start the pet; chat in this terminal if asked, else supervise until a signal or a death."""
    supervisor = Supervisor(root, log_dir=root.home / "logs" if chat else None)
    if chat:
        # The conversation is the terminal's: the processes log to <home>/logs/<name>.log and this
        # one to <home>/logs/run.log (a restart's WARNING never prints over the prompt); what the
        # owner must know (a death, a refusal) is printed, one line each.
        _log_to_file(root.home / "logs" / "run.log")
    stop, restart = threading.Event(), threading.Event()
    chat_end = ChatEnd()  # from then on a signal only stops: it no longer ends the chat

    # A handler only queues: the signal's number is already in the wake pipe (wake_on_signals),
    # whose reader sets `stop` or `restart`. A handler takes no lock: it runs on the main thread
    # between any two instructions, also inside `stop.set()` itself, which then waited for itself
    # (and CPython's input() may call it with Ctrl-C's KeyboardInterrupt still set, so that its
    # first call fails after taking what it took). In chat mode it ends the start or the chat.
    def on_signal(signum: int, frame: object) -> None:
        if chat and not chat_end.over:
            raise StopRequested(signal.Signals(signum).name)

    def on_restart(signum: int, frame: object) -> None:
        pass  # a Python handler, so the interpreter writes SIGUSR1 to the wake pipe

    old_wakeup = supervisor.wake_on_signals()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    signal.signal(signal.SIGUSR1, on_restart)
    code = 0
    pid_file = root.run_dir / f"{PID_NAME}.pid"
    try:
        supervisor.start()
        pid_file.write_text(f"{os.getpid()}\n")
        pids = ", ".join(f"{c.name} {c.proc.pid}" for c in supervisor.children.values())
        print(f"shelldon is up ({pids}); data in {root.home}", file=sys.stderr, flush=True)
        if chat:
            code = _chat_until_done(root, supervisor, stop, restart, chat_end)
        else:
            dead = supervise(supervisor, stop, restart)
            if dead is not None:
                report_death(dead)
                code = 1
    except ChildDied as exc:
        print(f"shelldon: {exc}; stopping the others", file=sys.stderr, flush=True)
        code = 1
    except TimeoutError as exc:
        print(f"shelldon: {exc}", file=sys.stderr, flush=True)
        code = 1
    except StopRequested:
        code = 0
    except KeyboardInterrupt:  # Ctrl-C before the chat opened (it says so itself: 130)
        if chat:
            print("\nshelldon: interrupted", file=sys.stderr, flush=True)
        code = EXIT_INTERRUPTED if chat else 0
    finally:
        with contextlib.suppress(OSError):
            if pid_file.read_text().strip() == str(os.getpid()):
                pid_file.unlink()
        codes = supervisor.stop()
        unclean = {n: c for n, c in codes.items() if c not in (0, None, -signal.SIGTERM)}
        if unclean and code == 0:
            print(f"shelldon: unclean exit: {unclean}", file=sys.stderr, flush=True)
            code = 1
        signal.set_wakeup_fd(old_wakeup)
    return code


def supervise(
    supervisor: Supervisor, stop: threading.Event, restart: threading.Event
) -> Child | None:
    """Until a child dies (returned) or `stop` (None); a restart asked meanwhile (SIGUSR1, from
    `shelldon restart`) stops the three and starts them again."""
    while True:
        dead = supervisor.wait_for_death(stop, restart)
        if dead is not None or stop.is_set():
            return dead
        if restart.is_set():
            restart.clear()
            log.warning("restarting core, broker and fork-server (shelldon restart)")
            supervisor.restart()
            pids = ", ".join(f"{c.name} {c.proc.pid}" for c in supervisor.children.values())
            log.warning("restarted (%s)", pids)


def _chat_until_done(
    root: DataRoot,
    supervisor: Supervisor,
    stop: threading.Event,
    restart: threading.Event,
    end: ChatEnd,
) -> int:
    """The chat in the foreground; a watcher thread supervises (restarts included) and interrupts
    the chat if a child dies. Once a stop is asked (a signal, a death), it nudges the chat's
    thread until the chat is over: a signal that reached readline between two of its waits is
    acted on only when its wait is interrupted (transport.terminal `nudge_until`)."""
    died: list[Child] = []
    main_thread = threading.main_thread()

    def watch() -> None:
        try:
            dead = supervise(supervisor, stop, restart)
        except (ChildDied, TimeoutError) as exc:  # a restart that did not come up
            print(f"\nshelldon: {exc}", file=sys.stderr, flush=True)
            dead = next(iter(supervisor.children.values()), None)
        if dead is not None and not stop.is_set():
            died.append(dead)
            stop.set()
            signal.pthread_kill(main_thread.ident or 0, signal.SIGHUP)
        nudge_until(main_thread.ident or 0, end.event)

    # The chat's signals are the main thread's (readline): blocked here from the first instruction.
    start_without_signals(threading.Thread(target=watch, daemon=True, name="watch-children"))
    try:
        return chat_loop(root)
    except StopRequested:
        if died:
            dead = died[0]
            report_death(dead, newline=True)
            return 1
        return 0
    finally:
        end.end()  # first: a signal from here on only stops, it no longer ends the chat
        stop.set()
        supervisor.wake()
