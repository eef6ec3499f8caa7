#!/usr/bin/env python3
"""What each long-running process costs to start (docs/performance.md, "The processes' start"):
each of core, broker and fork-server started alone (`python -m shelldon NAME`, a fresh data root)
until it tells READY=1 on a notify socket as systemd hears it, then stopped; beside it a bare
`python -c pass`, as the card's image test gates each unit's start as a ratio to it.

    python scripts/start_cost.py [--runs 5] [--tree CHECKOUT]

Prints, per process: the modules imported until READY (every `-X importtime` line, the
interpreter's own included), the sum of their `-X importtime` self times (min over the runs),
and the CPU the process used (user + system, from wait4: to READY and its stop) as min and median
and as a ratio to `python -c pass`. The runs interleave the processes. The tree is byte-compiled
first, as the card's is (scripts/pet_process.py)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from pet_process import compile_tree

PROCESSES = ("core", "broker", "forkserver")


def start_once(name: str, env: dict[str, str], importtime: bool) -> tuple[float, dict[str, int]]:
    """CPU ms of one start (READY, then SIGTERM) and, with `importtime`, each module's self us."""
    home = tempfile.mkdtemp(prefix="shelldon-start-", dir="/tmp")
    os.chmod(home, 0o755)
    env = dict(env, SHELLDON_HOME=home, SHELLDON_RUN_DIR=os.path.join(home, "run"))
    flags = ["-X", "importtime"] if importtime else []
    try:
        with tempfile.TemporaryFile("w+") as stderr:
            if name == "pass":
                proc = subprocess.Popen(
                    [sys.executable, *flags, "-c", "pass"], env=env, stderr=stderr
                )
            else:
                notify_path = os.path.join(home, "notify")
                with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
                    notify.bind(notify_path)
                    notify.settimeout(300)
                    proc = subprocess.Popen(
                        [sys.executable, *flags, "-m", "shelldon", name],
                        env=dict(env, NOTIFY_SOCKET=notify_path),
                        stdout=subprocess.DEVNULL,
                        stderr=stderr,
                    )
                    while b"READY=1" not in notify.recv(4096):
                        pass
                proc.terminate()
            _, _, usage = os.wait4(proc.pid, 0)
            stderr.seek(0)
            modules = {}
            for line in stderr:
                if line.startswith("import time:") and "|" in line and "self [us]" not in line:
                    self_us, _, module = line[len("import time:") :].split("|")
                    modules[module.strip()] = int(self_us)
        return (usage.ru_utime + usage.ru_stime) * 1000, modules
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, default=None, help="a checkout whose python/ to run")
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("SHELLDON_CONFIG", None)
    if args.tree is not None:
        env["PYTHONPATH"] = str(args.tree.resolve() / "python")
    compile_tree(env)
    cpu: dict[str, list[float]] = {name: [] for name in ("pass", *PROCESSES)}
    self_ms: dict[str, list[float]] = {name: [] for name in cpu}
    count: dict[str, int] = {}
    for _ in range(args.runs):
        for name in cpu:
            spent, _ = start_once(name, env, importtime=False)
            cpu[name].append(spent)
            _, modules = start_once(name, env, importtime=True)
            self_ms[name].append(sum(modules.values()) / 1000)
            count[name] = len(modules)
    bare = min(cpu["pass"])
    report = {
        name: {
            "modules": count[name],
            "importtime_self_ms_min": round(min(self_ms[name]), 1),
            "cpu_ms_min": round(min(cpu[name]), 1),
            "cpu_ms_median": round(statistics.median(cpu[name]), 1),
            "x_python_pass": round(min(cpu[name]) / bare, 1),
        }
        for name in cpu
    }
    print(json.dumps({"tree": str(args.tree or "this checkout"), **report}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
