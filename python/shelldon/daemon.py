"""The life of a threaded service (core, the broker): bind, signals, pid file, watchdog, ready,
serve until SIGTERM, then tidy up. The fork-server is single-threaded and keeps its own loop."""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
from collections.abc import Callable

from shelldon import ipc, sdnotify
from shelldon._native import limit_malloc_arenas
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)


def stacks_on_sigquit() -> None:
    """A crash, or SIGQUIT, writes every thread's stack to stderr (the unit's log) and the
    process goes on: the supervisor sends SIGQUIT to a child that ignored its SIGTERM before it
    kills it (app.Supervisor.stop), so a hang at stop says where it hung."""
    faulthandler.enable()
    faulthandler.register(signal.SIGQUIT, all_threads=True)


# Every thread of a pet's process allocates from one malloc arena. glibc gives each thread that
# allocates an arena of its own (up to eight per core), and each keeps the pages its turns freed
# between them: core's connection threads held 1.3 MB more at rest with them, the broker 0.3
# (docs/performance.md, "Memory at rest"). One turn runs at a time and the GIL serialises
# Python's own allocations, so a shared arena's lock is not contended.
MALLOC_ARENAS = 1


def one_malloc_arena() -> None:
    """Limit the process to `MALLOC_ARENAS` before it starts a thread; an owner's
    MALLOC_ARENA_MAX (read by glibc at start) is left to win."""
    if "MALLOC_ARENA_MAX" not in os.environ:
        limit_malloc_arenas(MALLOC_ARENAS)


# glibc's malloc as the three run it: GLIBC_TUNABLES, read by glibc when a process starts, so
# `shelldon run` gives it to its children (app.Supervisor.start) and the card's units set it.
# - No per-thread cache of freed chunks (tcache). A thread keeps up to 7 freed chunks of each of 64
#   small sizes until it ends; core's and the broker's connection threads are kept in a pool, so
#   their caches held chunks scattered over the pages of what a turn freed (the gate's compiled
#   rules, let go at rest), and `trim_heap` could not give those pages back: core -1.1 to -1.4 MB
#   at rest, the broker -0.3, the fork-server -0.1 (docs/performance.md, "Back under 55 MB").
# - A fixed mmap threshold. glibc's default is dynamic: each freed mmapped block raises the
#   threshold to its size, so after one 1 MiB frame (the frame limit) the next ones came from the
#   heap, where a burst of them left core 8-11 MiB bigger for good (tests/test_ipc_hostile_peers.py
#   failed once that way). Fixed at glibc's starting value, 128 KiB, a big block is its own
#   mapping and goes back whole; the three at rest were 0.1-0.2 MB smaller for it, not bigger
#   (256 KiB and 1 MiB cost 0.3-0.7 MB: docs/performance.md, "A fixed mmap threshold").
PET_MALLOC = {"glibc.malloc.tcache_count": "0", "glibc.malloc.mmap_threshold": "131072"}
PET_TUNABLES = ":".join(f"{name}={value}" for name, value in PET_MALLOC.items())


def pet_tunables(tunables: str | None) -> str:
    """GLIBC_TUNABLES for a pet's process: the owner's `tunables` with `PET_MALLOC` added; a
    tunable the owner set themselves wins."""
    owners = [part for part in (tunables or "").split(":") if part]
    named = {part.split("=", 1)[0] for part in owners}
    ours = [f"{name}={value}" for name, value in PET_MALLOC.items() if name not in named]
    return ":".join(owners + ours)


def _nothing() -> None:
    pass


def serve(
    root: DataRoot,
    name: str,
    handler: ipc.Handler,
    *,
    mode: int,
    idle_timeout: float,
    group: int | None = None,
    admit: ipc.Admit = ipc.admit_anyone,
    reserved: ipc.Reserved = ipc.reserve_none,
    started: Callable[[], None] = _nothing,
    stopping: Callable[[], None] = _nothing,
) -> int:
    """Serve `handler` on the `name` socket until SIGTERM or SIGINT. `started` runs once the socket
    listens, before systemd hears READY; `stopping` once serving ended, before the pid file goes.
    `mode`, `group` and `admit` decide who may connect, `reserved` which of them are the pet's own
    processes and never counted against a cap (ipc.ThreadedServer). Returns the process's
    exit code: 1 when the socket cannot be bound, else 0."""
    path = root.socket(name)
    server = ipc.ThreadedServer(
        name,
        path,
        handler,
        mode=mode,
        group=group,
        idle_timeout=idle_timeout,
        admit=admit,
        reserved=reserved,
    )
    try:
        server.bind()
    except OSError as exc:
        log.error("%s: cannot listen on %s: %s", name, path, exc)
        return 1
    server.wake_on_signals()  # the accept loop wakes whichever thread took the signal
    for sig in (signal.SIGTERM, signal.SIGINT):  # the handler only queues (stop_from_signal)
        signal.signal(sig, lambda *_: server.stop_from_signal())
    ipc.write_pid_file(root.run_dir, name)
    # The watchdog pings only while the socket answers: a wedged accept loop gets restarted.
    watchdog = sdnotify.Watchdog(lambda: ipc.answers_ping(path))
    watchdog.start()
    started()
    sdnotify.ready()
    try:
        server.serve_forever()  # in the main thread: a signal's handler wakes it through a pipe
    finally:
        sdnotify.stopping()
        stopping()
        watchdog.stop()
        ipc.remove_pid_file(root.run_dir, name)
    return 0
