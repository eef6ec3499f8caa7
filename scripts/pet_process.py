"""The real pet for the measuring scripts: `shelldon run --no-chat` started in an environment
(its home and run directory set there), returned once it has said it is up, with its log drained
so it never blocks on a full pipe. Used by measure_processes.py and measure_telegram.py."""

from __future__ import annotations

import subprocess
import sys
import threading


def start_run(env: dict[str, str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shelldon", "run", "--no-chat"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if "shelldon is up" in line:
            break
    else:
        proc.kill()
        proc.wait()
        raise RuntimeError("the pet did not come up")
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    return proc
