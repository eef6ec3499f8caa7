"""`shelldon memory …` as the owner types it: a real process on a given data root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def memory_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`shelldon memory ARGS --home HOME`, its output captured (never raises on a failure)."""
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "memory", *args, "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
