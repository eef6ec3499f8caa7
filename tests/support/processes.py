"""Real processes for tests: a fresh interpreter's answer (`fresh_python`), and processes started
so that they race (each child prints "ready", then waits for "go")."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence


def started_together(code: str, argvs: Sequence[Sequence[str]]) -> list[subprocess.Popen[str]]:
    """One `python -c code *argv` per argv, released together once every one is ready. `code`
    prints "ready" (flushed), then reads a line from stdin before its racing part. The caller
    collects them (`communicate`)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for argv in argvs
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    return procs


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped (for names that carry a pid)."""
    proc = subprocess.Popen([sys.executable, "-c", ""])
    proc.wait()
    return proc.pid


def fresh_python(code: str, timeout: float = 120) -> str:
    """What `python -c code` prints, stripped, in a fresh interpreter: for what a module loads
    (the test process itself has imported everything). A failing snippet fails the test."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True
    )
    return done.stdout.strip()
