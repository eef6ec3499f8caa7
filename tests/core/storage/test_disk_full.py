"""A real full disk under a running pet: the memory tree on a small tmpfs, filled until ENOSPC.

The turn is journaled (history.db is on another filesystem) and answered; its memory write fails
after the reply. The next reply says so, `status` and `doctor` show the fault with the free
space, and once space returns the next write goes through and the fault clears, with the same core
(no restart). Needs root for the mount; skipped with the reason otherwise (CI runs as root)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.disk import fill, memory_files, small_tmpfs
from support.pet import Pet, start_pet

MEMORY_FS = "256k"


@pytest.fixture
def memory_on_a_small_tmpfs(home: Path) -> Iterator[Path]:
    with small_tmpfs(home / "memory", MEMORY_FS) as memory:
        yield memory


def test_a_full_disk_is_told_shown_and_recovered_from_without_a_restart(
    memory_on_a_small_tmpfs: Path, run_dir: Path
) -> None:
    memory = memory_on_a_small_tmpfs
    pet: Pet = start_pet()
    try:
        core_pid = pet.pid_of("core")
        assert pet.say("my sister is called Ana")
        pet.say("hello")  # one turn at a time: the previous one's ops are applied by now
        assert "sister is called Ana" in memory_files(memory), pet.log[-3000:]

        filler = fill(memory)
        first = pet.say("my brother is called Tom")  # the write fails after this reply
        assert "could not be stored" not in first
        told = pet.say("how are you?")
        assert "brother is called Tom" not in memory_files(memory)
        assert "could not be stored" in told
        assert "free space on" in told
        assert "could not be stored" not in pet.say("and now?")  # told once

        status = pet.cli("status")
        assert status.returncode == 0, status.stderr
        assert "storage: last write failed" in status.stdout
        assert f"free space on {memory}: 0.0 MB" in status.stdout
        doctor = pet.cli("doctor")
        assert "storage" in doctor.stdout and "last write failed" in doctor.stdout, doctor.stdout

        filler.unlink()  # space returns
        pet.say("my mother is called Eva")
        pet.say("thanks")
        assert "mother is called Eva" in memory_files(memory)
        status = pet.cli("status")
        assert "storage: last write failed" not in status.stdout
        assert pet.pid_of("core") == core_pid  # resumed by itself, no restart
    finally:
        pet.stop()
