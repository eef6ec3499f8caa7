"""CPU per turn through the real processes, by process: core, the broker, the fork-server and its
workers (reaped children: the fork-server's cutime + cstime).

`shelldon run` (offline brain) in a temporary home, `--warm` turns of scripts/turn_cost.py's mix,
then `--turns` more between two reads of /proc/PID/stat (utime + stime, in clock ticks: 10 ms
each, so use a few dozen turns at least). Each turn is asked like `shelldon say` and followed by
`status`, which waits until core has applied the turn's writes, so each turn's work is inside the
count. `--tree DIR` runs another checkout's `python/` (a before/after in one sitting).

    python scripts/turn_cpu.py [--turns 80] [--warm 10] [--worker-user NAME] [--tree DIR]

Figures of this machine (docs/performance.md, "CPU per turn").
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pet_process import start_run
from turn_cost import message

from shelldon import ipc
from shelldon.contracts import wire

PROCESSES = ("core", "broker", "forkserver")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(own, reaped children's) CPU seconds of `pid`."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    own = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    children = (int(fields[13]) + int(fields[14])) / tick  # cutime, cstime
    return own, children


def snapshot(run_dir: Path) -> dict[str, float]:
    found = {}
    for name in PROCESSES:
        own, children = cpu_seconds(int((run_dir / f"{name}.pid").read_text()))
        found[name] = own
        if name == "forkserver":
            found["workers"] = children
    return found


def pet_cpu(run_dir: Path) -> float:
    """CPU seconds so far of core, the broker, the fork-server and its reaped workers."""
    return sum(snapshot(run_dir).values())


@contextmanager
def running(
    tree: Path | None = None, worker_user: str | None = None
) -> Iterator[tuple[Path, Callable[[int], None]]]:
    """The real pet (offline brain) in a temporary home, running `tree`'s python/ (None: the
    installed one): its run dir, and `turn(i)`, turn i of the mix followed by `status`."""
    home = Path(tempfile.mkdtemp(prefix="shelldon-cpu-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    if worker_user:
        env["SHELLDON_WORKER_USER"] = worker_user
    if tree is not None:
        env["PYTHONPATH"] = str(tree.resolve() / "python")
    proc = start_run(env)
    try:
        sock = home / "run" / "core.sock"

        def turn(i: int) -> None:
            answer = ipc.request(sock, wire.Say(text=message(i)), timeout=60)
            assert isinstance(answer, wire.Reply), answer
            ipc.request(sock, wire.StatusRequest(), timeout=60)

        yield home / "run", turn
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=80)
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--worker-user", default=None)
    parser.add_argument("--tree", type=Path, default=None, help="a checkout whose python/ to run")
    args = parser.parse_args()
    with running(args.tree, args.worker_user) as (run_dir, turn):
        for i in range(args.warm):
            turn(i)
        before = snapshot(run_dir)
        for i in range(args.warm, args.warm + args.turns):
            turn(i)
        after = snapshot(run_dir)
    per_turn = {k: round((after[k] - before[k]) / args.turns * 1000, 2) for k in before}
    per_turn["total"] = round(sum(per_turn.values()), 2)
    print(json.dumps({"cpu_ms_per_turn": per_turn, "turns": args.turns}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
