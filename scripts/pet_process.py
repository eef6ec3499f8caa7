"""The real pet for the measuring scripts: `shelldon run --no-chat` started in an environment
(its home and run directory set there), returned once it has said it is up, with its log drained
so it never blocks on a full pipe. Used by measure_processes.py and measure_telegram.py.

The tree it runs is byte-compiled first, as the card's image is (image/layer.sh runs compileall):
the services run with PYTHONDONTWRITEBYTECODE=1, so without a `__pycache__` every process would
compile every shelldon module from source at start, which the card never does (2.8 MB more PSS
across the three processes on x86, docs/performance.md). Both optimisation levels, as the image:
the three run at -OO (PYTHONOPTIMIZE=2) where the tree's `shelldon run` asks for it."""

from __future__ import annotations

import subprocess
import sys
import threading


def compile_tree(env: dict[str, str]) -> None:
    """Byte-compile the shelldon package that `env` imports (PYTHONPATH's, or the installed one)."""
    where = subprocess.run(
        [sys.executable, "-c", "import os, shelldon; print(os.path.dirname(shelldon.__file__))"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Both levels, as image/layer.sh: the services run at -OO where the tree asks for it.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j0", "-o", "0", "-o", "2", where],
        env=env,
        check=True,
    )


def start_run(env: dict[str, str]) -> subprocess.Popen[str]:
    compile_tree(env)
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
