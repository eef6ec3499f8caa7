"""Nobody but the owner gets in: a real `shelldon run` (core, broker, fork-server; workers dropped
to this run's throwaway worker user) after real turns, a dream, an undo, a backup and a WAL reset
(a stop and a start: the last close removes -wal/-shm, the next open makes them again). Then a
third uid, a real process, tries to read every directory and file of the data root and the
backups and gets EACCES each time, while the worker's uid still reads every file a turn needs.

Root only (CI runs as root): throwaway users and a real uid drop.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from shelldon import paths
from shelldon.core.storage import layout
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
        any(p in ("vault", paths.UNDO_DIR) for p in parts[:2])
        or path.name.endswith(layout.LOCK_SUFFIX)
        or (bool(parts) and parts[0].startswith(layout.ASIDE_PREFIX))
    )


def _worker_env(worker: User) -> dict[str, str]:
    return {"SHELLDON_WORKER_USER": worker.name, "SHELLDON_RECORD_PROMPTS": "1"}


@dataclass
class Tally:
    tried: int = 0
    refused: int = 0
    worker_read: int = 0
    worker_refused_private: int = 0
    rounds: int = 0


def _round(n: int, worker_user: User, stranger_user: User, backups: Path, tally: Tally) -> Pet:
    """One start of the pet (from the second on, the WAL reset: the previous clean stop removed
    -wal/-shm and this start makes them again), turns, a dream, its undo, three backups; then the
    third uid and the worker's uid try the data root while the pet runs. Returns the stopped pet."""
    pet: Pet = start_pet(_worker_env(worker_user))
    try:
        root = pet.root
        if n == 1:
            assert pet.cli("vault", "set", "probe", stdin="the-secret-value-123\n").returncode == 0
        for text in (*TURNS, f"my friend number {n} is called Bo"):
            pet.say(text)
        sides = [root.home / "history.db-wal", root.home / "history.db-shm"]
        assert all(p.is_file() for p in sides)
        dreamt = pet.cli("dream", "--now", "--force")
        done = re.match(r"dream-(\d+): done", dreamt.stdout)
        assert dreamt.returncode == 0 and done, dreamt.stdout + dreamt.stderr + pet.log
        undone = pet.cli("memory", "undo", "--dream", done.group(1))
        assert undone.returncode == 0, undone.stdout + undone.stderr
        reply = pet.say("do you remember the tea I like?")  # after the undo: written again
        pet.settled()  # its writes and its prompt come after the reply
        home_backup = root.home / "backups" / f"b{n}"
        for dest in (home_backup, backups / f"b{n}", backups / f"b{n}.tgz"):
            made = pet.cli("backup", os.fspath(dest))
            assert made.returncode == 0, made.stdout + made.stderr

        # The data root and the backups, as they are while the pet runs.
        paths = every_path(root.home, skip=[root.run_dir]) + every_path(backups)[1:]
        kinds = {p.name for p in paths}
        for expected in (
            *("history.db", "history.db-wal", "history.db-shm"),
            *("history.jsonl", "MEMORY.md", "scheduler.json"),  # the audit log, the index, state
            *("probe.md", ".undo", f"b{n}", f"b{n}.tgz"),  # the vault's entry, undo, backups
        ):
            assert expected in kinds, (expected, [str(p) for p in paths])
        assert layout.open_to_others(root) == []
        stranger = probe_as(stranger_user, paths)
        refused = {p: r for p, r in stranger.items() if r == "EACCES"}
        assert refused == stranger, {p: r for p, r in stranger.items() if r != "EACCES"}

        # The worker's uid (primary group only, as after the drop): every file of the tree but
        # the private ones, and history.db through sqlite, while core holds it open.
        tree = every_path(root.home, skip=[root.run_dir, root.home / "backups"])
        readable = [p for p in tree if not _private(p, root.home)]
        worker = probe_as(worker_user, readable)
        assert {p: r for p, r in worker.items() if r != "read"} == {}
        private = [p for p in tree if _private(p, root.home)]
        assert set(probe_as(worker_user, private).values()) == {"EACCES"}
        rows = history_rows_as(worker_user, root.history_db)
        assert int(rows.get("rows", "0")) >= 2 * n * (len(TURNS) + 2), rows

        # And the turn the worker ran after all of it read the tree and the history.
        last = pet.prompts()[-1]
        assert "tea" in prompt_section(last, "recent") + prompt_section(last, "recall")
        assert prompt_section(last, "memory"), last
        assert "unreadable, left out" not in pet.log, pet.log
        assert reply
    finally:
        assert pet.stop() == 0, pet.log
    assert not sides[0].exists()  # the clean close removed them: the next start makes them again
    tally.tried += len(stranger)
    tally.refused += len(refused)
    tally.worker_read += len(worker)
    tally.worker_refused_private += len(private)
    tally.rounds += 1
    return pet


def _drill(rounds: int, worker_user: User, stranger_user: User, backups: Path) -> Tally:
    tally = Tally()
    for n in range(1, rounds + 1):
        pet = _round(n, worker_user, stranger_user, backups, tally)
    root = pet.root
    # Every directory and file the runs made carries the readers' group and its mode.
    for path in every_path(root.home, skip=[root.run_dir, root.home / "backups"]):
        st = path.stat()
        if not _private(path, root.home):
            assert st.st_gid == worker_user.gid, path
            want = layout.DIR_MODE if stat.S_ISDIR(st.st_mode) else layout.FILE_MODE
            assert stat.S_IMODE(st.st_mode) == want, (path, oct(st.st_mode))
    print(
        f"\ndata modes drill: {tally.rounds} starts (each: turns, a dream, its undo, 3 backups; "
        f"a WAL reset between); third uid: {tally.tried} accesses tried, {tally.refused} refused "
        f"(EACCES); worker uid: {tally.worker_read} paths read, "
        f"{tally.worker_refused_private} private ones refused"
    )
    return tally


def test_a_third_uid_reads_nothing_and_the_worker_reads_what_it_needs(
    world_home: Path, backups_dir: Path, worker_user: User, stranger_user: User
) -> None:
    """Short form (`just test`): two starts, so the second round runs after a WAL reset."""
    tally = _drill(2, worker_user, stranger_user, backups_dir)
    assert tally.tried == tally.refused > 0


@pytest.mark.drill
def test_the_long_data_modes_drill(
    world_home: Path, backups_dir: Path, worker_user: User, stranger_user: User
) -> None:
    """Long form (`just drill`): SHELLDON_MODES_ROUNDS starts (10 by default)."""
    tally = _drill(
        int(os.environ.get("SHELLDON_MODES_ROUNDS", "10")), worker_user, stranger_user, backups_dir
    )
    assert tally.tried == tally.refused > 0
