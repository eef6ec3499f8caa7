#!/usr/bin/env python3
"""Figures for docs/processes.md: worker spawn cost, a worker's private memory after its first GC
(with and without the fork-server's gc.freeze), the turn overhead through the real processes, and
each process's memory at rest.

    just procs-figures        (= .venv/bin/python scripts/measure_processes.py)
    options: --spawns 200 --turns 100 --worker-user NAME (as root: a system user of the worker's
    own; the shared `nobody` is refused by the drop, worker.drop.shared_account); --tree DIR
    runs another checkout's python/ for the pet (a before/after in one sitting; the spawns stay
    this checkout's); --rest SECONDS after the last turn before the memory at rest is read
    (default: core's quiet spell after which it drops the gate's search caches, core.rest, +2 s)
    --at-rest NAME=PID ...: only the memory of running processes (the card's self-test runs this
    file from the FAT partition against its three units: standard library only on that path)

The spawn is exactly the fork-server's: the same preload and prebuilt seccomp filter, then fork ->
close inherited fds -> drop (when root and a worker user exist; bounding set included) -> seccomp
filter installed -> "ready" on a pipe; the filter's own share is reported apart (confine_us). The
child then runs gc.collect() (its first collection) and reports its Private_Clean + Private_Dirty
from /proc/self/smaps_rollup: the pages it no longer shares with the parent.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pwd
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def smaps_kb(pid: int | str = "self") -> dict[str, int]:
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[key] = int(parts[0])
    return fields


def mappings_kb(pid: int, top: int = 8) -> list[tuple[str, int]]:
    """The process's resident memory by mapping (kB, largest first): a shared library by its path,
    anonymous memory by its size class (a glibc malloc arena is a 64 MiB reservation; a thread
    stack 8 MiB), the heap as [heap]. What `ps -o rss` sums, taken apart. An anonymous rw mapping
    followed right after by an inaccessible one that together make 64 MiB is named for what it is:
    a glibc malloc arena of a thread other than the main one (the committed part of its heap)."""
    maps: list[tuple[int, int, str, str]] = []  # low, high, perms, name
    rss: list[int] = []
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        parts = line.split()
        if parts and "-" in parts[0] and not parts[0].endswith(":"):
            low, high = (int(x, 16) for x in parts[0].split("-"))
            maps.append((low, high, parts[1], parts[5] if len(parts) > 5 else ""))
            rss.append(0)
        elif parts and parts[0] == "Rss:" and rss:
            rss[-1] += int(parts[1])
    totals: dict[str, int] = {}
    for i, (low, high, perms, name) in enumerate(maps):
        if not name:
            name = f"[anon {(high - low) // 1024} kB]"
            after = maps[i + 1] if i + 1 < len(maps) else None
            if (
                perms.startswith("rw")
                and after is not None
                and after[0] == high
                and not after[3]
                and after[2].startswith("---")
                and after[1] - low == 64 * 1024 * 1024
            ):
                name = f"[malloc arena of a thread: {(high - low) // 1024} kB of 65536 kB]"
        totals[name] = totals.get(name, 0) + rss[i]
    return sorted(totals.items(), key=lambda item: -item[1])[:top]


def process_status(pid: int) -> dict[str, int]:
    """Threads, RssAnon and RssFile from /proc/PID/status."""
    wanted = ("Threads", "RssAnon", "RssFile")
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in wanted:
            found[key] = int(rest.split()[0])
    return found


def memory_at_rest(pid: int, top: int = 8) -> dict[str, object]:
    """One running process's memory: Rss, Pss, threads, RssAnon/RssFile, the largest mappings."""
    mem = smaps_kb(pid)
    return {
        "rss_kb": mem.get("Rss", 0),
        "pss_kb": mem.get("Pss", 0),
        **process_status(pid),
        "largest_mappings_kb": mappings_kb(pid, top),
    }


def resident_frames(pid: int) -> list[int]:
    """The physical frame of each resident page of `pid` (/proc/PID/pagemap; root only: without
    CAP_SYS_ADMIN the kernel reads every frame as 0, and this returns [])."""
    frames: list[int] = []
    page = os.sysconf("SC_PAGE_SIZE")
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
            low, high = (int(x, 16) for x in line.split()[0].split("-"))
            if "[vsyscall]" in line:
                continue
            pagemap.seek(low // page * 8)
            raw = pagemap.read((high - low) // page * 8)
            for (entry,) in struct.iter_unpack("<Q", raw):
                if entry >> 63 & 1:  # present in RAM (not swapped)
                    frames.append(entry & ((1 << 55) - 1))
    return frames if any(frames) else []


def pss_among(pids: dict[str, int]) -> dict[str, int] | None:
    """Each process's proportional set size with its shared pages divided only among `pids`: what
    the kernel's Pss would read if nothing else ran. The kernel divides a shared page (libpython,
    libcrypto) among every process that maps it, so its Pss moves with whatever else runs on the
    machine (other Python processes took ~1-1.5 MB off each of the three between two sittings).
    On the card the pet's own processes are the only ones that map these pages.
    None without root."""
    frames = {name: resident_frames(pid) for name, pid in pids.items()}
    if not all(frames.values()):
        return None
    sharers: dict[int, int] = {}
    for name in frames:
        for frame in set(frames[name]):
            sharers[frame] = sharers.get(frame, 0) + 1
    page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
    return {
        name: round(sum(page_kb / sharers[f] for f in set(found))) for name, found in frames.items()
    }


def measure_spawns(count: int, freeze: bool, worker_user: str | None) -> dict[str, object]:
    """In a fresh interpreter (see main): preload like the fork-server, then fork `count` times."""
    from shelldon.worker import drop, forkserver, sandbox

    forkserver.preload(freeze=freeze)  # exactly the fork-server's preload, warm-up and freeze
    identity = drop.resolve_identity(worker_user) if worker_user else drop.resolve_identity(None)
    program = sandbox.build_filter(identity)
    import logging

    logging.getLogger("shelldon.worker.drop").setLevel(
        logging.ERROR
    )  # the dev-mode warning, once per fork
    parent = smaps_kb()
    spawn_ms: list[float] = []
    private_kb: list[int] = []
    confine_us: list[float] = []
    for _ in range(count):
        read_end, write_end = os.pipe()
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            try:
                drop.close_inherited_fds(keep={write_end})
                drop.drop_privileges(identity)
                before = time.perf_counter()
                sandbox.confine(program)
                confined = (time.perf_counter() - before) * 1e6
                os.write(write_end, b"R")  # ready: this is where a turn would start
                gc.collect()  # the worker's first collection
                mem = smaps_kb()
                private = mem.get("Private_Clean", 0) + mem.get("Private_Dirty", 0)
                report = {"private_kb": private, "confine_us": confined}
                os.write(write_end, json.dumps(report).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        first = os.read(read_end, 1)
        spawn_ms.append((time.perf_counter() - started) * 1000)
        assert first == b"R"
        rest = b""
        while chunk := os.read(read_end, 4096):
            rest += chunk
        os.close(read_end)
        os.waitpid(pid, 0)
        report = json.loads(rest)
        private_kb.append(report["private_kb"])
        confine_us.append(report["confine_us"])
    spawn_ms.sort()
    return {
        "freeze": freeze,
        "isolated": identity.isolated,
        "parent_rss_kb": parent.get("Rss", 0),
        "spawn_ms_median": round(statistics.median(spawn_ms), 3),
        "spawn_ms_p95": round(spawn_ms[int(len(spawn_ms) * 0.95) - 1], 3),
        "worker_private_kb_median": int(statistics.median(private_kb)),
        "worker_private_kb_max": max(private_kb),
        "confine_us_median": round(statistics.median(confine_us), 1),
    }


def measure_turns(
    count: int, worker_user: str | None, tree: Path | None, rest_s: float
) -> dict[str, object]:
    """Start the real pet (offline brain) in a temporary home and time Say -> Reply round trips;
    then, `rest_s` seconds after the last turn, each process's memory at rest."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    from pet_process import start_run

    from shelldon import ipc
    from shelldon.contracts import wire

    home = Path(tempfile.mkdtemp(prefix="shelldon-measure-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    if worker_user:
        env["SHELLDON_WORKER_USER"] = worker_user
    if tree is not None:
        env["PYTHONPATH"] = str(tree.resolve() / "python")
    try:
        proc = start_run(env)
    except RuntimeError:
        subprocess.run(["rm", "-rf", str(home)], check=False)
        raise
    try:
        sock_path = home / "run" / "core.sock"
        round_ms: list[float] = []
        for i in range(count):
            # One connection per Say, like `shelldon say`: the time until the owner has the reply
            # (core's follow-up work after the reply overlaps the next turn's start).
            started = time.perf_counter()
            say = wire.Say(text=f"hello number {i}, I like tea")
            answer = ipc.request(sock_path, say, timeout=60)
            round_ms.append((time.perf_counter() - started) * 1000)
            assert isinstance(answer, wire.Reply) and not answer.degraded, answer
        # At rest: after the quiet spell that lets core drop the gate's search caches (core.rest;
        # a tree without it holds the same memory before and after the wait).
        time.sleep(rest_s)
        pids = {
            name: int((home / "run" / f"{name}.pid").read_text())
            for name in ("core", "broker", "forkserver")
        }
        at_rest = {name: memory_at_rest(pid) for name, pid in pids.items()}
        # `shelldon run`'s supervisor shares the pet's pages in a terminal; on the card systemd
        # starts the three (image/overlay's units) and nothing else maps them: both are read.
        among = pss_among({**pids, "supervisor": proc.pid})
        among_three = pss_among(pids)
        round_ms.sort()
        return {
            "turns": count,
            "rest_s": rest_s,
            "isolated": bool(worker_user) and os.geteuid() == 0,
            "say_round_trip_ms_median": round(statistics.median(round_ms), 2),
            "say_round_trip_ms_p95": round(round_ms[int(len(round_ms) * 0.95) - 1], 2),
            "processes_at_rest": at_rest,
            "pss_total_kb": sum(int(v["pss_kb"]) for v in at_rest.values()),  # type: ignore[call-overload]
            # The three's Pss with shared pages divided among the pet's processes only
            # (supervisor included): the figure that does not move with the rest of the machine.
            "pss_among_pet_kb": among,
            "pss_among_pet_total_kb": (
                None if among is None else sum(among[name] for name in pids)
            ),
            # The same divided among the three alone: the card, where no supervisor runs.
            "pss_among_three_kb": among_three,
            "pss_among_three_total_kb": (
                None if among_three is None else sum(among_three.values())
            ),
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spawns", type=int, default=200)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument(
        "--worker-user", default=None, help="drop to this user (root only; not a shared account)"
    )
    parser.add_argument("--tree", type=Path, default=None, help="a checkout whose python/ to run")
    parser.add_argument(
        "--rest",
        type=float,
        default=None,
        help="seconds after the last turn before the memory at rest is read"
        " (default: core's quiet spell, core.rest.REST_AFTER_S, and 2 s more)",
    )
    parser.add_argument("--only-spawns", choices=("freeze", "nofreeze"), help=argparse.SUPPRESS)
    parser.add_argument("--at-rest", nargs="+", metavar="NAME=PID", help="running processes only")
    args = parser.parse_args()
    if args.at_rest:
        for item in args.at_rest:
            name, _, pid = item.partition("=")
            print(name, json.dumps(memory_at_rest(int(pid), top=12)))
        return 0
    if args.worker_user:
        try:
            pwd.getpwnam(args.worker_user)
        except KeyError:
            args.worker_user = None
    if args.only_spawns:
        print(
            json.dumps(measure_spawns(args.spawns, args.only_spawns == "freeze", args.worker_user))
        )
        return 0
    results = {}
    for mode in ("freeze", "nofreeze"):
        # A fresh interpreter each: the heap (and what a freeze covers) must not carry over.
        cmd = [sys.executable, __file__, "--spawns", str(args.spawns), "--only-spawns", mode]
        if args.worker_user:
            cmd += ["--worker-user", args.worker_user]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        results[f"spawn_{mode}"] = json.loads(out)
    if args.rest is None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
        from shelldon.core.rest import REST_AFTER_S

        args.rest = REST_AFTER_S + 2.0
    results["turns"] = measure_turns(args.turns, args.worker_user, args.tree, args.rest)
    results["machine"] = {
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "uname": os.uname().machine,
    }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
