"""Storage faults at start: real damaged history.db files and a real read-only data root are
found before core opens its stores, and refused in one line that names the file and the remedy."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shelldon.core import server
from shelldon.core.history.store import HistoryStore
from shelldon.core.storage.check import StorageFault, check_data_root
from shelldon.paths import DataRoot
from support.damage import filled_history, garbage_header, garbage_in_the_middle, truncated

DAMAGE: dict[str, Callable[[Path], None]] = {
    "garbage in the middle": garbage_in_the_middle,
    "truncated": truncated,
    "garbage header": garbage_header,
}


@pytest.fixture(params=sorted(DAMAGE))
def damaged_root(request: pytest.FixtureRequest, home: Path) -> DataRoot:
    root = DataRoot.resolve(home)
    filled_history(root.history_db)
    DAMAGE[request.param](root.history_db)
    return root


def test_a_healthy_history_passes_the_check(home: Path) -> None:
    root = DataRoot.resolve(home)
    filled_history(root.history_db)
    check_data_root(root.home, root.history_db)
    HistoryStore.open(root.history_db).close()


def test_opening_a_damaged_history_refuses_naming_the_file_and_the_remedy(
    damaged_root: DataRoot,
) -> None:
    with pytest.raises(StorageFault) as caught:
        HistoryStore.open(damaged_root.history_db)
    message = str(caught.value)
    assert str(damaged_root.history_db) in message
    assert "shelldon repair" in message and "\n" not in message


def test_core_refuses_to_start_on_a_damaged_history(
    damaged_root: DataRoot, run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = DataRoot(damaged_root.home, run_dir)
    assert server.main(root) == 2
    assert any(str(root.history_db) in r.getMessage() for r in caplog.records)


def _refused_start(*argv: str) -> str:
    """`shelldon ARGV` that must not start: a non-zero exit and one line on stderr, returned."""
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_shelldon_run_exits_with_one_line_on_a_damaged_history(
    damaged_root: DataRoot, run_dir: Path
) -> None:
    line = _refused_start("run", "--no-chat")
    assert line.startswith("shelldon run: ")
    assert f"{damaged_root.history_db} is damaged" in line
    assert "shelldon repair" in line
    assert not (run_dir / "core.sock").exists()  # nothing was started


@pytest.fixture
def read_only_root(tmp_path: Path) -> Iterator[DataRoot]:
    """A data root whose filesystem is mounted read-only (as root: chmod does not stop root)."""
    mount = tmp_path / "ro-mount"
    mount.mkdir()
    if os.geteuid() != 0:
        filled_history(mount / "history.db")
        mount.chmod(0o555)
        yield DataRoot.resolve(mount)
        mount.chmod(0o755)
        return
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", os.fspath(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        filled_history(mount / "history.db")
        subprocess.run(["mount", "-o", "remount,ro", os.fspath(mount)], check=True)
        yield DataRoot.resolve(mount)
    finally:
        subprocess.run(["umount", "-l", os.fspath(mount)], check=False)


def test_a_read_only_data_root_is_refused_in_one_line(
    read_only_root: DataRoot, run_dir: Path
) -> None:
    with pytest.raises(StorageFault, match="cannot be written"):
        check_data_root(read_only_root.home, read_only_root.history_db)
    line = _refused_start("--home", os.fspath(read_only_root.home), "run")
    assert line.startswith(f"shelldon run: {read_only_root.home} cannot be written")
    assert "remount it read-write" in line
