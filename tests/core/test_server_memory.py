"""What core gives back after a turn (core.server's `run_turn` ends with `_native.trim_heap`): a
thread's malloc arena keeps what the thread freed until it is trimmed, and core answers each turn
on the connection's own thread (docs/performance.md, "Memory at rest")."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHURN = """
import threading
from shelldon._native import trim_heap
def anon():
    return int(next(l for l in open('/proc/self/status') if l.startswith('RssAnon')).split()[1])
kept = []
def churn():  # ~20 MB in this thread's arena, one block in 50 still held: holes, not a free top
    held = [bytearray(4000) for _ in range(5000)]
    kept.extend(held[::50])
    del held
thread = threading.Thread(target=churn)
thread.start()
thread.join()
before = anon()
print(trim_heap(), before - anon())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim: Linux")
def test_trim_heap_gives_a_finished_threads_freed_memory_back() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHURN], capture_output=True, text=True, timeout=60, check=True
    )
    trimmed, given_back_kib = done.stdout.split()
    assert trimmed == "True"
    assert int(given_back_kib) > 10 * 1024, given_back_kib
