"""What an owner turn costs the whole pet: reply latency, fsyncs and bytes written per turn.

The real pet (`shelldon run`, offline brain) in a temporary home, talked to like `shelldon say`
(one connection per message), with a realistic mix: 40 % statements the offline brain turns into
memory writes ("my cousin is called Noor3", "I like dark chocolate number 8"), 60 % questions
and small talk that write none. `--history` seeds that many generated messages first
(scripts/recall_scale.py's generator), `--entries` that many curated entries.

How it is counted (docs/performance.md):
- latency: the Say -> Reply round trip, p50 and p95, without tracing;
- fsyncs and bytes: `strace -f -p <core> -y` attached to core (the only process that writes the
  data root: the worker reads, the broker keeps no files per turn) for the counting turns. Every
  fsync/fdatasync/syncfs/sync_file_range is counted; bytes are the sum of write/pwrite64/writev
  return values on file descriptors that name a regular file (sockets, pipes and the log on stderr
  excluded), by file. Both are divided by the number of turns.

    python scripts/turn_cost.py [--turns 100] [--history 0 100000] [--entries 0 200]
        [--cache DIR] [--no-count] [--json out.json]

Figures of this machine, not tests.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from pet_process import start_run
from recall_scale import fill

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.ops import Remember
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.paths import DataRoot

NAMES = ("Noor", "Ana", "Tomas", "Ines", "Kofi", "Mei", "Lars", "Priya", "Omar", "Zoe")
RELATIONS = ("cousin", "neighbour", "colleague", "friend", "aunt", "uncle", "dentist", "coach")
FOODS = ("dark chocolate", "green olives", "ramen", "lentil soup", "mango", "rye bread")
TALK = (
    "hello, how are you today?",
    "what's my cousin called?",
    "what did I say about chocolate?",
    "it rained all morning here",
    "do you remember where my aunt lives?",
    "thanks, that helps",
)


def message(i: int) -> str:
    """Turn i of the mix: 2 in 5 are statements that write memory, each one new."""
    if i % 5 in (1, 3):
        name = f"{NAMES[i % len(NAMES)]}{i}"
        relation = RELATIONS[(i // 5) % len(RELATIONS)]
        if (i // 5) % 2:
            return f"I like {FOODS[i % len(FOODS)]} number {i}"
        return f"my {relation} is called {name}"
    return TALK[i % len(TALK)]


def seed(home: Path, entries: int) -> None:
    memory = CuratedMemory(DataRoot(home).memory)
    for i in range(entries):
        memory.apply_memory_op(
            Remember("facts", f"seeded note {i}", f"The owner noted item {i} about the garden."),
            provenance="observed",
        )


_CALL = re.compile(r"^(?:\d+\s+)?(\w+)\((\d+)<([^>]*)>.*\)\s+=\s+(-?\d+)")
_SYNCS = {"fsync", "fdatasync", "syncfs", "sync_file_range"}
_WRITES = {"write", "pwrite64", "writev", "pwritev", "pwritev2"}


def parse_trace(text: str) -> tuple[dict[str, int], dict[str, int]]:
    """(fsync-like calls by file, bytes written by file) from `strace -y` output."""
    syncs: dict[str, int] = collections.Counter()
    written: dict[str, int] = collections.Counter()
    for line in text.splitlines():
        found = _CALL.match(line)
        if not found:
            continue
        call, _fd, path, result = found.groups()
        if call in _SYNCS:
            syncs[path] += 1
        elif call in _WRITES and path.startswith("/") and int(result) > 0:
            written[path] += int(result)
    return syncs, dict(written)


def _say(sock: Path, text: str) -> float:
    started = time.perf_counter()
    answer = ipc.request(sock, wire.Say(text=text), timeout=60)
    assert isinstance(answer, wire.Reply) and not answer.degraded, answer
    return (time.perf_counter() - started) * 1000


def _label(path: str, home: Path) -> str:
    rel = path.removeprefix(str(home) + "/")
    # Temp files of atomic writes and per-entry files are grouped by what they are.
    rel = re.sub(r"\.[^/]*\.tmp[^/]*$", " (temp, renamed)", rel)
    rel = re.sub(r"^memory/(\w+)/[^/]+\.md", r"memory/\1/<entry>.md", rel)
    return rel


def _by_kind(counts: dict[str, int], home: Path) -> list[tuple[str, int]]:
    grouped: dict[str, int] = collections.Counter()
    for path, n in counts.items():
        grouped[_label(path, home)] += n
    return sorted(grouped.items(), key=lambda kv: -kv[1])


def run(turns: int, rows: int, entries: int, cache: Path | None, count: bool) -> dict[str, object]:
    strace = shutil.which("strace") if count else None
    home = Path(tempfile.mkdtemp(prefix="shelldon-turn-cost-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    proc = None
    figures: dict[str, object] = {"rows": rows, "entries": entries, "turns": turns}
    try:
        if rows:
            history = (cache or home) / f"history-{rows}.db"
            if not history.exists():
                history.parent.mkdir(parents=True, exist_ok=True)
                fill(history, rows).close()
            shutil.copyfile(history, DataRoot(home).history_db)
        if entries:
            seed(home, entries)
        proc = start_run(env)
        sock = home / "run" / "core.sock"
        for i in range(10):  # warm: the first turn ever, the introduction, the first writes
            _say(sock, message(10_000 + i))
        times = sorted(_say(sock, message(i)) for i in range(turns))
        figures["median_ms"] = round(statistics.median(times), 2)
        figures["p95_ms"] = round(times[int(0.95 * (len(times) - 1))], 2)
        print(
            f"{rows:,} messages, {entries} entries: Say -> Reply round trip median "
            f"{figures['median_ms']} ms, p95 {figures['p95_ms']} ms"
        )
        if strace is None:
            return figures
        core = int((home / "run" / "core.pid").read_text())
        trace = home / "strace.out"
        calls = "fsync,fdatasync,syncfs,sync_file_range,write,pwrite64,writev,pwritev,pwritev2"
        command = [strace, "-f", "-qq", "-y", "-s", "0", "-e", f"trace={calls}", "-o", str(trace)]
        tracer = subprocess.Popen([*command, "-p", str(core)], stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # strace attaches asynchronously; a figure, not a test
        for i in range(turns):
            _say(sock, message(turns + i))
        time.sleep(1.0)  # core's follow-up after the last reply (the clearing commit)
        tracer.send_signal(signal.SIGINT)
        tracer.wait(timeout=30)
        syncs, written = parse_trace(trace.read_text())
        figures["fsyncs_per_turn"] = round(sum(syncs.values()) / turns, 2)
        figures["kb_per_turn"] = round(sum(written.values()) / turns / 1024, 1)
        print(f"  fsyncs per turn: {figures['fsyncs_per_turn']}")
        for label, n in _by_kind(syncs, home):
            print(f"    {label}: {n / turns:.2f}/turn")
        print(f"  bytes written per turn: {figures['kb_per_turn']} KB")
        for label, n in _by_kind(written, home):
            print(f"    {label}: {n / turns / 1024:.2f} KB/turn")
        return figures
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100, help="turns timed, then turns counted")
    parser.add_argument("--history", type=int, nargs="*", default=[0], help="messages seeded")
    parser.add_argument("--entries", type=int, nargs="*", default=[0], help="entries seeded")
    parser.add_argument("--cache", type=Path, default=None, help="keep generated histories here")
    parser.add_argument("--no-count", action="store_true", help="time only, no strace")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    print(f"{args.turns} turns per configuration, 40 % statements that write memory")
    results = [
        run(args.turns, rows, entries, args.cache, not args.no_count)
        for rows in args.history
        for entries in args.entries
    ]
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
