"""Core's start-up recovery (core.upkeep.recovery): interrupted writes, torn tails."""

from __future__ import annotations

import json
import os
from pathlib import Path

from shelldon import _native
from shelldon.core.memory.audit import AuditLog
from shelldon.core.storage import layout
from shelldon.core.upkeep import recovery
from shelldon.paths import DataRoot
from support.pet import start_pet
from support.processes import dead_pid


def _plant(root: DataRoot) -> tuple[list[Path], list[Path]]:
    """In every directory the pet writes atomically: a dead writer's temp file (to go), and
    files that must stay: a live writer's temp file, names that only look alike."""
    layout.prepare(root)
    dead, live = dead_pid(), os.getpid()
    leftovers, kept = [], []
    for directory in layout.atomic_write_dirs(root):
        directory.mkdir(parents=True, exist_ok=True)
        leftovers.append(directory / f".about.md{_native.TEMP_MARKER}{dead}-7")
        kept.append(directory / f".about.md{_native.TEMP_MARKER}{live}-0")  # a live writer's
        kept.append(directory / f"about.md{_native.TEMP_MARKER}{dead}-7")  # no leading dot
        kept.append(directory / f".about.md{_native.TEMP_MARKER}{dead}-x")  # not the shape
        kept.append(directory / ".owner-notes.tmp")
    for path in leftovers + kept:
        path.write_bytes(b"half written")
    return leftovers, kept


def test_every_directory_the_pet_writes_is_swept_of_dead_writers_temp_files_only(
    home: Path,
) -> None:
    root = DataRoot.resolve(str(home))
    leftovers, kept = _plant(root)
    assert {p.parent for p in leftovers} >= {
        root.memory,
        root.memory / "facts",
        root.memory / ".undo",
        root.memory / "vault",
        root.state,
    }
    removed = recovery.recover(root).temp_files
    assert sorted(removed) == sorted(leftovers)
    assert not any(p.exists() for p in leftovers)
    assert all(p.exists() for p in kept)
    assert recovery.recover(root).temp_files == []


def test_a_starting_pet_sweeps_temp_files_and_cuts_torn_tails_before_serving(
    home: Path, run_dir: Path
) -> None:
    root = DataRoot.resolve(str(home))
    leftovers, kept = _plant(root)
    audit = AuditLog(root.memory)
    audit.note({"unit": "test", "op": "note", "action": "skip", "reason": "kept"})
    with audit.path.open("ab") as fh:
        fh.write(b'{"id": "torn-by-a-kill", "ts"')
    (root.memory / "episodes.md").write_bytes(b"## 2026-11-29T21:00:00Z\nwalked\n\n## 2026-11-3")
    pet = start_pet()
    try:
        assert pet.cli("say", "hello").returncode == 0
    finally:
        assert pet.stop() == 0, pet.log
    assert not any(p.exists() for p in leftovers)
    assert all(p.exists() for p in kept)  # a live writer's (this test's pid) included
    lines = audit.path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(json.loads(line) for line in lines[:-1])
    assert (root.memory / "episodes.md").read_bytes() == b"## 2026-11-29T21:00:00Z\nwalked\n\n"


def test_a_zombie_writer_or_a_reused_pid_counts_as_gone(home: Path) -> None:
    """A SIGKILLed writer not yet reaped is a zombie; a pid the system gave to a process that
    started after the temp file was written is not its writer. Both temp files go."""
    root = DataRoot.resolve(str(home))
    layout.prepare(root)
    zombie = os.fork()
    if zombie == 0:
        os._exit(0)
    try:
        # The child is a zombie until waited for: poll its state, bounded, no sleeping.
        stat_path = Path(f"/proc/{zombie}/stat")
        for _ in range(1_000_000):
            if stat_path.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
        unreaped = root.state / f".scheduler.json{_native.TEMP_MARKER}{zombie}-0"
        unreaped.write_text("{")
        reused = root.state / f".corrections.json{_native.TEMP_MARKER}{os.getpid()}-0"
        reused.write_text("{")
        os.utime(reused, (0, 0))  # written in 1970: long before this process (our pid) began
        assert sorted(recovery.recover(root).temp_files) == sorted([unreaped, reused])
    finally:
        os.waitpid(zombie, 0)
