"""Fixtures for the process tests: a short run dir and a running pet."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from procs_support import Pet, start_pet


@pytest.fixture
def run_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short run dir: AF_UNIX paths are limited to 108 bytes and pytest's tmp paths are long."""
    path = Path(tempfile.mkdtemp(prefix="shd-", dir="/tmp"))
    os.chmod(path, 0o755)
    monkeypatch.setenv("SHELLDON_RUN_DIR", str(path))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def pet(run_dir: Path) -> Iterator[Pet]:
    pet = start_pet()
    try:
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()
