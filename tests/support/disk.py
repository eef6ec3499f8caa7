"""A real full disk for the storage-fault tests: a small tmpfs mounted over a directory of the data
root (root only; skipped with the reason otherwise), and a filler written until ENOSPC."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_tmpfs(directory: Path, size: str = "256k") -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs for the memory tree needs root")
    directory.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", os.fspath(directory)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", os.fspath(directory)], check=False)


def fill(mount: Path) -> Path:
    """Write until the filesystem says ENOSPC; the filler file is returned to free it later."""
    filler = mount / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as handle:
        while True:
            handle.write(b"x" * 4096)
            handle.flush()
    return filler


def memory_files(mount: Path) -> str:
    return "\n".join(
        p.read_text() for p in mount.rglob("*.md") if ".undo" not in p.parts and p.is_file()
    )
