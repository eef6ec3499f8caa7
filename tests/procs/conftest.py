"""Fixtures for the process tests: a running pet, a data root the worker's uid can reach."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from procs_support import Pet, start_pet


@pytest.fixture
def pet(run_dir: Path) -> Iterator[Pet]:
    pet = start_pet()
    try:
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()


@pytest.fixture
def world_home(monkeypatch: pytest.MonkeyPatch, run_dir: Path) -> Iterator[Path]:
    """SHELLDON_HOME under /tmp, 0755: a dropped worker (`nobody`) can traverse it, which it
    cannot do under pytest's tmp dirs (0700)."""
    home = Path(tempfile.mkdtemp(prefix="shelldon-home-", dir="/tmp"))
    os.chmod(home, 0o755)
    monkeypatch.setenv("SHELLDON_HOME", str(home))
    yield home
    shutil.rmtree(home, ignore_errors=True)
