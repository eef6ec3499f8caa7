"""A threaded service (core, the broker: daemon.serve) stops on SIGTERM or SIGINT however many come:
its handler only queues the stop (ipc.ThreadedServer.stop_from_signal). It called stop() itself,
whose Event, lock and queue each take a lock; a second signal that came while the first's handler
was inside one ran its handler there, which waited for itself: the process never exited (seen as
a broker left running under PID 1 after its supervisor was killed: the supervisor's SIGTERM and
the parent-death SIGTERM came together)."""

from __future__ import annotations

import ctypes
import os
import select
import signal

import pytest

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
