"""The pet's memory and SD writes over a long conversation: the curve, every `--every` turns.

`shelldon run` (offline brain) in a temporary home, talked to like `shelldon say` with
scripts/turn_cost.py's realistic mix (40 % statements that write memory, each one new). Before the
first turn and every `--every` turns after it, one row:

- RSS and PSS of core, the broker and the fork-server (/proc/PID/smaps_rollup), the three's PSS
  together;
- core's bytes that reached the block layer since the last row, per turn (/proc/PID/io
  `write_bytes`, less `cancelled_write_bytes`: what the SD card is asked to store; core is the data
  root's only writer), beside the bytes its write calls passed on regular files and sockets
  (`wchar`, per turn; turn_cost.py counts the regular files alone with strace).

    python scripts/soak.py [--turns 2500] [--every 100] [--worker-user NAME] [--json]
    just soak [ARGS]

A row is taken once core has applied the last turn's writes (`status` waits for them) and the
writes have left the page cache (`sync`, so `write_bytes` is what the device got). Figures of
this machine, not tests (docs/performance.md has the curve; tests/test_soak.py runs a short one).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pet_process import start_run
from turn_cost import message

from shelldon import ipc
from shelldon.contracts import wire

PROCESSES = ("core", "broker", "forkserver")


@dataclass
class Row:
    turns: int
    rss_kb: dict[str, int]
    pss_kb: dict[str, int]
    pss_total_kb: int
    device_bytes_per_turn: float  # since the row before
    write_call_bytes_per_turn: float


def _rollup(pid: int) -> dict[str, int]:
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[key] = int(parts[0])
    return fields


def _io(pid: int) -> dict[str, int]:
    found = {}
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        key, _, value = line.partition(":")
        found[key] = int(value)
    return found


def _settled(sock: Path) -> None:
    """Core has applied every turn it answered (status is served after the turn's writes)."""
    answer = ipc.request(sock, wire.StatusRequest(), timeout=60)
    assert isinstance(answer, wire.Status), answer
    os.sync()


def soak(turns: int, every: int, worker_user: str | None) -> list[Row]:
    home = Path(tempfile.mkdtemp(prefix="shelldon-soak-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    if worker_user:
        env["SHELLDON_WORKER_USER"] = worker_user
    proc = start_run(env)
    rows: list[Row] = []
    try:
        sock = home / "run" / "core.sock"
        pids = {name: int((home / "run" / f"{name}.pid").read_text()) for name in PROCESSES}
        _settled(sock)
        last_io, last_turn = _io(pids["core"]), 0
        for turn in range(turns + 1):
            if turn % every == 0:
                if turn:
                    _settled(sock)
                io = _io(pids["core"])
                done = max(1, turn - last_turn)
                device = (io["write_bytes"] - io["cancelled_write_bytes"]) - (
                    last_io["write_bytes"] - last_io["cancelled_write_bytes"]
                )
                mem = {name: _rollup(pid) for name, pid in pids.items()}
                rows.append(
                    Row(
                        turns=turn,
                        rss_kb={name: m["Rss"] for name, m in mem.items()},
                        pss_kb={name: m["Pss"] for name, m in mem.items()},
                        pss_total_kb=sum(m["Pss"] for m in mem.values()),
                        device_bytes_per_turn=round(device / done, 1) if turn else 0.0,
                        write_call_bytes_per_turn=(
                            round((io["wchar"] - last_io["wchar"]) / done, 1) if turn else 0.0
                        ),
                    )
                )
                last_io, last_turn = io, turn
            if turn < turns:
                answer = ipc.request(sock, wire.Say(text=message(turn)), timeout=60)
                assert isinstance(answer, wire.Reply) and not answer.degraded, answer
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)
    return rows


def table(rows: list[Row]) -> str:
    lines = [
        "| turns | core RSS / PSS MB | broker RSS / PSS MB | fork-server RSS / PSS MB "
        "| the three, PSS MB | device KB / turn | write calls KB / turn |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        mb = {n: f"{row.rss_kb[n] / 1024:.1f} / {row.pss_kb[n] / 1024:.1f}" for n in PROCESSES}
        device = f"{row.device_bytes_per_turn / 1024:.1f}" if row.turns else "–"
        calls = f"{row.write_call_bytes_per_turn / 1024:.1f}" if row.turns else "–"
        lines.append(
            f"| {row.turns:,} | {mb['core']} | {mb['broker']} | {mb['forkserver']} "
            f"| {row.pss_total_kb / 1024:.1f} | {device} | {calls} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=2500)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--worker-user", default=None, help="(root) the worker's own system user")
    parser.add_argument("--json", action="store_true", help="the rows as JSON")
    args = parser.parse_args()
    if args.turns < 1 or args.every < 1:
        parser.error("--turns and --every must be at least 1")
    started = time.monotonic()
    rows = soak(args.turns, args.every, args.worker_user)
    if args.json:
        print(json.dumps([asdict(row) for row in rows], indent=2))
    else:
        print(table(rows))
        print(f"({args.turns:,} turns in {time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
