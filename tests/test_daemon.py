"""A threaded service (core, the broker: daemon.serve) stops on SIGTERM or SIGINT however many come:
its handler only queues the stop (ipc.ThreadedServer.stop_from_signal). It called stop() itself,
whose Event, lock and queue each take a lock; a second signal that came while the first's handler
was inside one ran its handler there, which waited for itself: the process never exited (seen as
a broker left running under PID 1 after its supervisor was killed: the supervisor's SIGTERM and
the parent-death SIGTERM came together)."""

from __future__ import annotations

import ctypes
import inspect
import itertools
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from shelldon.daemon import PET_TUNABLES, pet_tunables
from support.pet import Pet

SIGNALS = 3000  # SIGTERM and SIGINT in turn, as fast as they can be sent
GONE_WAIT_S = 60.0  # a hang guard: a process that stops is gone in well under a second


@pytest.mark.parametrize("name", ["broker", "core"])
def test_a_storm_of_stop_signals_stops_the_process(pet: Pet, name: str) -> None:
    pid = pet.pid_of(name)
    exited = os.pidfd_open(pid)
    try:
        for n in range(SIGNALS):
            try:
                os.kill(pid, signal.SIGTERM if n % 2 else signal.SIGINT)
            except ProcessLookupError:  # already gone: the storm is over
                break
        readable, _, _ = select.select([exited], [], [], GONE_WAIT_S)
        assert readable, f"{name} (pid {pid}) still runs after {n + 1} stop signals:\n{pet.log}"
    finally:
        os.close(exited)
    # It went through its stop to the end: the pid file goes last (daemon.serve). Its exit status
    # is not asserted: a signal of the storm that lands after the interpreter put the default
    # handlers back ends the process there, with nothing left to do.
    assert not (pet.root.run_dir / f"{name}.pid").exists(), pet.log


SYS_TGKILL = {"x86_64": 234, "aarch64": 131}  # <asm/unistd.h>: not in Python's os module


@pytest.mark.parametrize("name", ["broker", "core"])
def test_a_stop_signal_taken_by_another_thread_stops_the_process(pet: Pet, name: str) -> None:
    """The kernel gives a process's signal to any thread that does not block it; its Python
    handler runs on the main thread only, once that thread runs bytecode again. A SIGTERM that a
    connection thread took left the accept loop asleep in select(): the process ignored it until
    the supervisor killed it (a flake of the Telegram tests on a loaded CI machine)."""
    machine = os.uname().machine
    if machine not in SYS_TGKILL:
        pytest.skip(f"tgkill's syscall number is not known here ({machine})")
    pid = pet.pid_of(name)
    others = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid)
    assert others, f"{name} runs no thread besides its main one"
    libc = ctypes.CDLL(None, use_errno=True)
    exited = os.pidfd_open(pid)
    try:
        assert libc.syscall(SYS_TGKILL[machine], pid, others[0], signal.SIGTERM) == 0
        readable, _, _ = select.select([exited], [], [], GONE_WAIT_S)
        assert readable, f"{name} (pid {pid}) still runs after a SIGTERM to thread {others[0]}"
    finally:
        os.close(exited)
    assert not (pet.root.run_dir / f"{name}.pid").exists(), pet.log


# A thread's own malloc arena: glibc reserves 64 MiB for it (HEAP_MAX_SIZE on 64-bit; 1 MiB on
# 32-bit), a committed part followed at once by its inaccessible rest. The main thread's arena
# is [heap], which is not counted.
ARENA_RESERVATION = 64 * 1024 * 1024 if ctypes.sizeof(ctypes.c_void_p) == 8 else 1024 * 1024


def thread_arenas(pid: int | str) -> int:
    """How many malloc arenas of threads other than the main one `pid` has (/proc/PID/maps)."""
    maps = []
    with open(f"/proc/{pid}/maps") as lines:
        for line in lines:
            fields = line.split()
            low, high = (int(x, 16) for x in fields[0].split("-"))
            maps.append((low, high, fields[1], len(fields) > 5))
    return sum(
        1
        for (low, high, perms, named), (next_low, next_high, next_perms, next_named) in (
            itertools.pairwise(maps)
        )
        if not named
        and not next_named
        and perms.startswith("rw")
        and next_perms.startswith("---")
        and next_low == high
        and next_high - low == ARENA_RESERVATION
    )


THREADS_ALLOCATING = """
import sys, threading
sys.path[:0] = sys.argv[2:]
if sys.argv[1] == "one":
    from shelldon.daemon import one_malloc_arena
    one_malloc_arena()
from tests_test_daemon_arenas import thread_arenas
all_in = threading.Barrier(5)
def allocate():
    held = [bytearray(4096) for _ in range(2000)]  # past pymalloc's 512 bytes: malloc's
    all_in.wait()
    all_in.wait()
threads = [threading.Thread(target=allocate) for _ in range(4)]
for t in threads:
    t.start()
all_in.wait()
print(thread_arenas("self"))
all_in.wait()
for t in threads:
    t.join()
"""


def _glibc() -> bool:
    try:
        return "glibc" in (os.confstr("CS_GNU_LIBC_VERSION") or "")
    except (ValueError, OSError):
        return False


glibc_only = pytest.mark.skipif(not _glibc(), reason="malloc arenas are glibc's (M_ARENA_MAX)")


@glibc_only
@pytest.mark.parametrize(("arenas", "expected"), [("one", 0), ("default", None)])
def test_one_malloc_arena_keeps_threads_off_arenas_of_their_own(
    tmp_path: Path, arenas: str, expected: int | None
) -> None:
    helper = tmp_path / "tests_test_daemon_arenas.py"
    helper.write_text(
        "import ctypes\nimport itertools\n"
        + "ARENA_RESERVATION = "
        + repr(ARENA_RESERVATION)
        + "\n"
        + inspect.getsource(thread_arenas)
    )
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", THREADS_ALLOCATING, arenas, str(tmp_path), *sys.path],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    found = int(done.stdout)
    if expected is None:  # glibc's default: the four threads get arenas of their own
        assert found >= 1, done.stdout
    else:
        assert found == expected, done.stdout


@glibc_only
def test_the_pets_core_and_broker_allocate_from_one_arena(pet: Pet) -> None:
    for n in range(3):
        pet.say(f"my favourite number is {n}")
    assert thread_arenas(pet.pid_of("core")) == 0
    assert thread_arenas(pet.pid_of("broker")) == 0


# A thread's cache of freed chunks (glibc's tcache): chunks freed into it stay counted as in use
# (mallinfo2's uordblks) until the thread takes them again or ends.
FREED_AND_KEPT = """
import ctypes, sys
class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
blocks = [None] * 64
before = libc.mallinfo2().uordblks
for i in range(64):
    blocks[i] = libc.malloc(200)
for block in blocks:
    libc.free(block)
print(libc.mallinfo2().uordblks - before)
"""


def malloc_probe(probe: str, tunables: str | None) -> int:
    """What `probe` prints in a fresh process started with GLIBC_TUNABLES=`tunables` (None: not
    set)."""
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    if tunables is not None:
        env["GLIBC_TUNABLES"] = tunables
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    return int(done.stdout)


# glibc's dynamic mmap threshold: a freed mmapped block raises the threshold to its size, so the
# next blocks of that size come from the heap. Prints how many more blocks are their own mappings
# once a 1 MiB block (the frame limit) was freed and four of 512 KiB were taken.
MAPPED_AFTER_A_FREED_MEGABYTE = (
    FREED_AND_KEPT.split("blocks = [None]")[0]
    + """
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free(libc.malloc(1 << 20))
before = libc.mallinfo2().hblks
blocks = [libc.malloc(512 << 10) for _ in range(4)]
print(libc.mallinfo2().hblks - before)
"""
)


def test_the_pets_tunables_keep_the_owners_and_their_own_settings() -> None:
    assert pet_tunables(None) == pet_tunables("") == PET_TUNABLES
    assert pet_tunables("glibc.malloc.trim_threshold=1") == (
        "glibc.malloc.trim_threshold=1:" + PET_TUNABLES
    )
    owners = "glibc.malloc.tcache_count=3:glibc.malloc.mxfast=0"
    assert pet_tunables(owners) == owners + ":glibc.malloc.mmap_threshold=131072"
    owners = "glibc.malloc.mmap_threshold=65536:glibc.malloc.tcache_count=3"
    assert pet_tunables(owners) == owners


@glibc_only
def test_without_the_thread_cache_freed_blocks_are_not_kept() -> None:
    """glibc's default keeps 7 freed blocks of a size for the thread (counted in use, scattered
    over pages the trim could then not give back); the pet's tunables keep none."""
    assert malloc_probe(FREED_AND_KEPT, None) >= 7 * 200
    assert malloc_probe(FREED_AND_KEPT, pet_tunables(None)) < 200


@glibc_only
def test_with_a_fixed_mmap_threshold_big_blocks_stay_their_own_mappings() -> None:
    """glibc's default, once a 1 MiB block was freed, takes the next big ones from the heap (where
    a burst of frames left core bigger for good); with the pet's tunables each is its own mapping,
    given back whole when freed."""
    assert malloc_probe(MAPPED_AFTER_A_FREED_MEGABYTE, None) == 0
    assert malloc_probe(MAPPED_AFTER_A_FREED_MEGABYTE, pet_tunables(None)) == 4


def test_the_pets_three_run_with_the_pets_malloc(pet: Pet) -> None:
    """`shelldon run` starts the three with the pet's malloc tunables, as the card's units do.
    glibc 2.36 parses GLIBC_TUNABLES in place and /proc then shows only its first tunable (the
    process's own copy keeps them all), so the first is what every glibc lets us check here;
    the mmap threshold's effect in the three is held by tests/test_ipc_hostile_peers.py."""
    first = PET_TUNABLES.split(":")[0].encode()
    for name in ("core", "broker", "forkserver"):
        environ = Path(f"/proc/{pet.pid_of(name)}/environ").read_bytes().split(b"\0")
        tunables = [e for e in environ if e.startswith(b"GLIBC_TUNABLES=")]
        assert tunables and first in tunables[0].split(b"=", 1)[1].split(b":"), name
