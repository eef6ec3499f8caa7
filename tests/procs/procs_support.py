"""Running the real pet in tests: `shelldon run --no-chat` in a subprocess, the CLI against it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from shelldon.paths import DataRoot

UP_TIMEOUT_S = 60.0


@dataclass
class Pet:
    root: DataRoot
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    up: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)

    def drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            if "shelldon is up" in line:
                self.up.set()
        self.ended.set()

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def cli(
        self, *args: str, stdin: str | None = None, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "shelldon", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=os.environ.copy(),
            check=False,
        )

    def pid_of(self, name: str) -> int:
        return int((self.root.run_dir / f"{name}.pid").read_text())

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        self.ended.wait(timeout=10)
        return code


def start_pet(extra_env: dict[str, str] | None = None) -> Pet:
    env = os.environ.copy()
    env.update(extra_env or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "shelldon", "run", "--no-chat"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    pet = Pet(DataRoot.resolve(env.get("SHELLDON_HOME")), proc)
    threading.Thread(target=pet.drain, daemon=True).start()
    if not pet.up.wait(UP_TIMEOUT_S):
        proc.kill()
        proc.wait()
        pytest.fail(f"the pet did not come up:\n{pet.log}")
    return pet


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
