"""`shelldon restart`: restart the pet's processes however they run, and say which way.

- Under systemd (the card): `systemctl restart shelldon.target`.
- Under `shelldon run` (elsewhere): SIGUSR1 to the supervisor named by `<run dir>/run.pid`; it
  stops the three and starts them again. This command waits until a new core answers.
- Neither: the pet is not running; nothing to restart (exit 1).

Use it after changing shelldon.toml (a key stored with `vault set` is picked up without it).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import time
from pathlib import Path

from shelldon.cli.common import CliError, add_run_dir, data_root

TARGET = "shelldon.target"
RESTART_TIMEOUT_S = 90.0


def _systemd_runs_it() -> bool:
    if not Path("/run/systemd/system").is_dir():
        return False
    try:
        done = subprocess.run(
            ["systemctl", "is-active", "--quiet", TARGET], capture_output=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _supervisor(run_dir: Path) -> int | None:
    """The `shelldon run` that wrote run.pid, if it is alive and is shelldon."""
    pid = _read_pid(run_dir / "run.pid")
    if pid is None:
        return None
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    return pid if any(b"shelldon" in part for part in cmdline) else None


def _restart(args: argparse.Namespace) -> int:
    root = data_root(args)
    if _systemd_runs_it():
        done = subprocess.run(["systemctl", "restart", TARGET], capture_output=True, text=True)
        if done.returncode != 0:
            raise CliError(f"systemctl restart {TARGET} failed: {done.stderr.strip()}")
        print(f"restarted {TARGET} (systemd: core, broker and fork-server units)")
        return 0
    supervisor = _supervisor(root.run_dir)
    if supervisor is None:
        raise CliError("shelldon is not running, so there is nothing to restart: `shelldon run`")
    old = {name: _read_pid(root.run_dir / f"{name}.pid") for name in PROCESS_NAMES}
    os.kill(supervisor, signal.SIGUSR1)
    _wait_for_new_processes(root.run_dir, old)
    print(f"restarted core, broker and fork-server under `shelldon run` (pid {supervisor})")
    return 0


# Each answers Ping on its socket with its pid once it is serving.
PROCESS_NAMES = ("core", "broker", "forkserver")


def _wait_for_new_processes(run_dir: Path, old: dict[str, int | None]) -> None:
    """Until each of the three is a new process that answers on its socket: the restart is done
    only when all are up again (core alone answering is not a pet that can take a turn)."""
    from shelldon import ipc
    from shelldon.contracts import wire

    waiting = list(PROCESS_NAMES)
    deadline = time.monotonic() + RESTART_TIMEOUT_S
    while waiting and time.monotonic() < deadline:
        name = waiting[0]
        pid = _read_pid(run_dir / f"{name}.pid")
        pong = None
        if pid is not None and pid != old.get(name):
            try:
                pong = ipc.request(run_dir / f"{name}.sock", wire.Ping(), timeout=2.0)
            except (OSError, ipc.IpcError):
                pong = None
        if isinstance(pong, wire.Pong) and pong.pid == pid:
            waiting.pop(0)
            continue
        time.sleep(0.2)  # polling another process's start-up: there is nothing to wait on
    if waiting:
        raise CliError(
            f"asked for a restart, but {', '.join(waiting)} did not answer as a new process "
            f"within {RESTART_TIMEOUT_S:.0f} s"
        )


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    restart = sub.add_parser(
        "restart",
        parents=[common],
        help="restart the pet's processes (systemd's target, or those of `shelldon run`)",
    )
    add_run_dir(restart)
    restart.set_defaults(func=_restart)
