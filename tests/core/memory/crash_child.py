"""Child for the crash-safety test: applies ops and records turns in a loop until killed.

`run(root, db, first, out_fd)` writes "ready" to `out_fd` once open, then the iteration number
after each completed iteration (the parent's synchronisation points). The test forks into it;
`python crash_child.py <root> <db> <first>` runs it on stdout for poking by hand.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime

from shelldon.contracts.ops import LogEpisode, Remember, RewriteAbout
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory


def about_text(i: int) -> str:
    # Sizes vary from a line to ~40 KB so some writes span many pages.
    return f"about v{i}\n" + f"line {i} of the self-summary\n" * ((i * 7919) % 1500) + f"end v{i}\n"


def fact_text(i: int) -> str:
    return f"tea fact v{i}\n" + "green, no sugar. " * ((i * 104729) % 900) + f"\nend v{i}\n"


def episode_text(i: int) -> str:
    return f"episode {i} " + "walked in the park " * (i % 40)


def run(root: str, db: str, first: int, out_fd: int) -> None:
    memory = CuratedMemory(root)
    history = HistoryStore.open(db)
    os.write(out_fd, b"ready\n")
    i = first
    while True:
        now = datetime.now(UTC)
        memory.apply_memory_op(RewriteAbout(content=about_text(i)))
        memory.apply_memory_op(Remember(collection="facts", name="Tea", content=fact_text(i)))
        memory.apply_memory_op(LogEpisode(content=episode_text(i)), turn_id=f"t{i}")
        history.record_turn(f"t{i}", f"owner says {i}", f"pet answers {i} " * (i % 30), now)
        history.capture_learning(f"observation {i}", f"key{i % 5}", now)
        os.write(out_fd, f"{i}\n".encode())
        i += 1


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.stdout.fileno())
