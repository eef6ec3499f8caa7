"""Nobody but the owner gets in: a real `shelldon run` (core, broker, fork-server; workers dropped
to this run's throwaway worker user) after real turns, a dream, an undo, a backup and a WAL reset
(a stop and a start: the last close removes -wal/-shm, the next open makes them again). Then a
third uid, a real process, tries to read every directory and file of the data root and the
backups and gets EACCES each time, while the worker's uid still reads every file a turn needs.

Root only (CI runs as root): throwaway users and a real uid drop.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.core import layout
from support.access import every_path, history_rows_as, probe_as
from support.marks import needs_root
from support.pet import Pet, prompt_section, start_pet
from support.users import TestUser as User

pytestmark = needs_root("throwaway users and a real uid drop")

TURNS = (
    "my sister is called Ana",
    "My sister lives in Lisbon near the old cathedral",
    "I love green tea with honey in the morning",
    "I usually walk by the river after work",
    "I am allergic to peanuts and cashews",
    "I usually walk by the river after work",
)


@pytest.fixture
def backups_dir() -> Iterator[Path]:
    """Where the owner writes backups outside the data root: a world-traversable directory, so only
    the backup's own modes keep a third uid out."""
    path = Path(tempfile.mkdtemp(prefix="shelldon-backups-", dir="/tmp"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _private(path: Path, home: Path) -> bool:
    """The service uid's alone: the vault, the undo store, locks, what restore set aside."""
    parts = path.relative_to(home).parts
    return (
        any(p in ("vault", layout.UNDO_DIR) for p in parts[:2])
        or path.name.endswith(layout.LOCK_SUFFIX)
        or (bool(parts) and parts[0].startswith(layout.ASIDE_PREFIX))
    )


def _worker_env(worker: User) -> dict[str, str]:
    return {"SHELLDON_WORKER_USER": worker.name, "SHELLDON_RECORD_PROMPTS": "1"}


def test_a_third_uid_reads_nothing_and_the_worker_reads_what_it_needs(
    world_home: Path,
    backups_dir: Path,
    worker_user: User,
    stranger_user: User,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pet: Pet = start_pet(_worker_env(worker_user))
    try:
        assert pet.cli("vault", "set", "probe", stdin="the-secret-value-123\n").returncode == 0
        for text in TURNS:
            pet.say(text)
        dreamt = pet.cli("dream", "--now")
        assert dreamt.returncode == 0 and dreamt.stdout.startswith("dream-1: done"), (
            dreamt.stdout + dreamt.stderr + pet.log
        )
        undone = pet.cli("memory", "undo", "--dream", "1")
        assert undone.returncode == 0, undone.stdout + undone.stderr
        pet.say("I also like oolong tea")  # after the undo: the tree is written again
        for dest in (world_home / "backups" / "b1", backups_dir / "b2", backups_dir / "b3.tgz"):
            made = pet.cli("backup", os.fspath(dest))
            assert made.returncode == 0, made.stdout + made.stderr
    finally:
        assert pet.stop() == 0, pet.log
    root = pet.root
    assert not root.home.joinpath("history.db-wal").exists()  # the clean close removed them

    pet = start_pet(_worker_env(worker_user))  # the WAL reset: -wal/-shm made again
    try:
        reply = pet.say("do you remember the tea I like?")
        sides = [root.home / "history.db-wal", root.home / "history.db-shm"]
        assert all(p.is_file() for p in sides)
        # The data root and the backups, as they are while the pet runs.
        paths = every_path(root.home, skip=[root.run_dir]) + every_path(backups_dir)[1:]
        kinds = {p.name for p in paths}
        for expected in (
            "history.db",
            "history.db-wal",
            "history.db-shm",
            "history.jsonl",  # the audit log
            "MEMORY.md",
            "probe.md",  # the vault's entry
            "scheduler.json",
            ".undo",
            "b1",
            "b2",
            "b3.tgz",
        ):
            assert expected in kinds, (expected, [str(p.relative_to(p.parents[1])) for p in paths])
        assert layout.open_to_others(root) == []

        stranger = probe_as(stranger_user, paths)
        refused = {p: r for p, r in stranger.items() if r == "EACCES"}
        assert refused == stranger, {p: r for p, r in stranger.items() if r != "EACCES"}
        with capsys.disabled():
            print(f"\nthird uid: {len(stranger)} accesses tried, {len(refused)} refused (EACCES)")

        # The worker's uid (primary group only, as after the drop): every file of the tree but
        # the private ones, and history.db through sqlite, while core holds it open.
        readable = [
            p for p in every_path(root.home, skip=[root.run_dir]) if not _private(p, root.home)
        ]
        worker = probe_as(worker_user, readable)
        assert {p: r for p, r in worker.items() if r != "read"} == {}
        private = [p for p in every_path(root.memory) if _private(p, root.home)]
        assert set(probe_as(worker_user, private).values()) == {"EACCES"}
        rows = history_rows_as(worker_user, root.history_db)
        assert int(rows.get("rows", "0")) >= 2 * (len(TURNS) + 2), rows

        # And the turn the worker ran after all of it read the tree and the history.
        last = pet.prompts()[-1]
        assert "tea" in prompt_section(last, "recent") + prompt_section(last, "recall")
        assert prompt_section(last, "memory"), last
        assert "unreadable, left out" not in pet.log, pet.log
        assert reply
    finally:
        assert pet.stop() == 0, pet.log

    # Every file the run made carries the readers' group, every directory too.
    for path in every_path(root.home, skip=[root.run_dir]):
        st = path.stat()
        if not _private(path, root.home) and path.parts[-2:] != ("backups", "b1"):
            assert st.st_gid == worker_user.gid, path
            want = layout.DIR_MODE if stat.S_ISDIR(st.st_mode) else layout.FILE_MODE
            assert stat.S_IMODE(st.st_mode) == want, (path, oct(st.st_mode))
