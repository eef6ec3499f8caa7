"""Does the turn stay fast as memory grows? The real pet for thousands of turns of the mix.

`shelldon run` (offline brain) in a temporary home, talked to like `shelldon say` with
scripts/turn_cost.py's realistic mix (40 % statements that write memory, each one new, so the
collections fill, make room, supersede and archive). After the first `--early` turns and after the
last, it prints:

- core's whole turn as `status` reports it (`last_turn.elapsed_ms`: spawn, the worker, the reply,
  applying the ops, the entry terms and the stem index after it), median and p95 over `--sample`
  turns, asked after each of them (status waits until the turn's ops are applied);
- the worker's whole read (`gather_context`) on that home, median and p95 of 60 reads;
- the tree: active entry files, archived ones, superseded ones, messages.

    python scripts/long_run.py [--turns 2500] [--early 100] [--sample 50]

Figures of this machine, not tests (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pet_process import start_run
from turn_cost import message

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot
from shelldon.worker.prompt import PromptLimits, gather_context

QUESTIONS = ("what's my cousin called?", "What did you do today?")


def _say(sock: Path, text: str) -> None:
    answer = ipc.request(sock, wire.Say(text=text), timeout=60)
    assert isinstance(answer, wire.Reply) and not answer.degraded, answer


def _turn_ms(sock: Path) -> int:
    status = ipc.request(sock, wire.StatusRequest(), timeout=60)
    assert isinstance(status, wire.Status) and status.last_turn is not None, status
    return status.last_turn.elapsed_ms


def _spread(samples: list[float]) -> str:
    samples = sorted(samples)
    return f"{statistics.median(samples):.1f} / {samples[int(0.95 * (len(samples) - 1))]:.1f} ms"


def _reads(root: DataRoot) -> str:
    limits, now = PromptLimits(), datetime.now(UTC)
    gather_context(root, QUESTIONS[0], limits=limits, now=now)  # warm
    samples = []
    for i in range(60):
        started = time.perf_counter()
        gather_context(root, QUESTIONS[i % 2], limits=limits, now=now)
        samples.append((time.perf_counter() - started) * 1000)
    return _spread(samples)


def _tree(root: DataRoot) -> str:
    active = [p for p in root.memory.glob("*/*.md") if p.parent.name != "archive"]
    archived = list((root.memory / "archive").glob("*/*.md"))
    superseded = sum(
        1 for p in [*active, *archived] if "status: superseded" in p.read_text(errors="replace")
    )
    conn = sqlite3.connect(f"file:{root.history_db}?mode=ro", uri=True)
    try:
        messages = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        conn.close()
    return (
        f"{len(active)} active entry files, {len(archived)} archived, {superseded} superseded, "
        f"{messages:,} messages"
    )


def _phase(sock: Path, root: DataRoot, label: str, start: int, count: int, sample: int) -> None:
    times = []
    for i in range(start, start + count):
        _say(sock, message(i))
        if i >= start + count - sample:
            times.append(float(_turn_ms(sock)))
    print(f"after {start + count:,} turns: {_tree(root)}")
    print(f"  core's whole turn ({label}, last {sample}): {_spread(times)}")
    print(f"  gather_context (60 reads): {_reads(root)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=2500)
    parser.add_argument("--early", type=int, default=100)
    parser.add_argument("--sample", type=int, default=50)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="shelldon-long-run-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    root = DataRoot(home)
    proc = start_run(env)
    try:
        sock = home / "run" / "core.sock"
        _phase(sock, root, "early", 0, args.early, args.sample)
        _phase(sock, root, "late", args.early, args.turns - args.early, args.sample)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
