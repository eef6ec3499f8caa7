"""The whole pet for N turns inside a 416 MB memory cgroup (the Pi Zero 2 W's RAM): peak memory
and RSS drift.

A fresh cgroup (v2 under /sys/fs/cgroup or its unified mount, else v1's memory controller) with
its limit at 416 MB; `shelldon run` (offline brain, a temporary home) is started inside it, so
core, broker, fork-server and every worker are counted. The turns are scripts/turn_cost.py's mix
(40 % statements that write memory), one `Say` connection each. Printed: the cgroup's peak
(memory.peak / memory.max_usage_in_bytes: page cache included, as the kernel charges it), how
many times the limit was hit (failcnt / events max), and each process's RSS after the warm-up
and after the last turn (the drift). Needs root; says why and exits 0 when no cgroup can be made.

    python scripts/pet_in_cgroup.py [--turns 1000] [--limit-mb 416]

Figures of this machine, not tests.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn_cost import _say, message

V2_CANDIDATES = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
V1_MEMORY = Path("/sys/fs/cgroup/memory")


class Cgroup:
    def __init__(self, limit: int) -> None:
        name = f"shelldon-bench-{os.getpid()}"
        self.version = 0
        for base in V2_CANDIDATES:
            controllers = base / "cgroup.controllers"
            if controllers.exists() and "memory" in controllers.read_text().split():
                self.path = base / name
                self.path.mkdir()
                (self.path / "memory.max").write_text(str(limit))
                self.version = 2
                return
        if (V1_MEMORY / "memory.limit_in_bytes").exists():
            self.path = V1_MEMORY / name
            self.path.mkdir()
            (self.path / "memory.limit_in_bytes").write_text(str(limit))
            self.version = 1
            return
        raise OSError("no cgroup v2 with the memory controller and no v1 memory hierarchy")

    def peak(self) -> int:
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        return int((self.path / name).read_text())

    def limit_hits(self) -> int:
        if self.version == 1:
            return int((self.path / "memory.failcnt").read_text())
        for line in (self.path / "memory.events").read_text().splitlines():
            key, value = line.split()
            if key == "max":
                return int(value)
        return 0

    def remove(self) -> None:
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)  # the last process is still leaving


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pids(home: Path) -> dict[str, int]:
    return {
        name: int((home / "run" / f"{name}.pid").read_text())
        for name in ("core", "broker", "forkserver")
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--limit-mb", type=int, default=416)
    args = parser.parse_args()
    try:
        group = Cgroup(args.limit_mb * 1024 * 1024)
    except OSError as exc:
        print(f"skipped: cannot make a memory cgroup here ({exc})")
        return 0
    home = Path(tempfile.mkdtemp(prefix="shelldon-cgroup-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    procs = group.path / "cgroup.procs"
    proc = subprocess.Popen(
        ["sh", "-c", f'echo $$ > {procs} && exec "$0" -m shelldon run --no-chat', sys.executable],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "shelldon is up" in line:
                break
        else:
            print("the pet did not come up")
            return 1
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        sock = home / "run" / "core.sock"
        for i in range(20):
            _say(sock, message(100_000 + i))
        warm = {name: rss_kb(pid) for name, pid in pids(home).items()}
        times = [_say(sock, message(i)) for i in range(args.turns)]
        last = {name: rss_kb(pid) for name, pid in pids(home).items()}
        times.sort()
        print(
            f"cgroup v{group.version}, limit {args.limit_mb} MB, {args.turns} turns "
            f"(40 % statements that write memory)"
        )
        print(
            f"Say -> Reply: median {statistics.median(times):.1f} ms, "
            f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms"
        )
        print(f"peak memory of the cgroup: {group.peak() / 1024 / 1024:.1f} MB")
        print(f"times the limit was hit: {group.limit_hits()}")
        for name in warm:
            print(
                f"{name}: RSS {warm[name] / 1024:.1f} MB after the warm-up, "
                f"{last[name] / 1024:.1f} MB after {args.turns} turns "
                f"({(last[name] - warm[name]) / 1024:+.1f} MB)"
            )
        total_warm, total_last = sum(warm.values()), sum(last.values())
        print(
            f"total RSS: {total_warm / 1024:.1f} -> {total_last / 1024:.1f} MB "
            f"({(total_last - total_warm) / 1024:+.1f} MB)"
        )
        return 0
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        subprocess.run(["rm", "-rf", str(home)], check=False)
        group.remove()


if __name__ == "__main__":
    raise SystemExit(main())
