"""Backup, restore and repair on real files and a real running pet.

A backup taken while the pet runs, restored into another data root, gives a pet that remembers;
restore and repair refuse while the pet runs; repair salvages the readable rows of a damaged
history.db into a fresh file that passes the start check, keeping the damaged one aside."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from shelldon import _native
from shelldon.contracts.ops import Remember
from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import layout
from shelldon.core.storage.check import check_history
from shelldon.core.upkeep import backup
from shelldon.paths import DataRoot
from support.damage import TURNS, filled_history, garbage_header, garbage_in_the_middle
from support.pet import Pet, prompt_section, start_pet


def shelldon(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.parametrize("dest_name", ["backup-dir", "backup.tar.gz"])
def test_a_backup_taken_while_the_pet_runs_restores_into_another_root_that_remembers(
    dest_name: str, tmp_path: Path, run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1"})
    try:
        assert pet.cli("say", "my sister is called Ana and she keeps bees").returncode == 0
        marker = pet.root.memory / "backup-marker.md"
        marker.write_text("a file of the memory tree\n")
        dest = tmp_path / dest_name
        done = shelldon("--home", os.fspath(pet.root.home), "backup", os.fspath(dest))
        assert done.returncode == 0, done.stderr
        assert pet.cli("say", "still here after the backup?").returncode == 0
        refused = shelldon("--home", os.fspath(pet.root.home), "restore", os.fspath(dest))
        assert refused.returncode == 1 and "the pet is running" in refused.stderr
    finally:
        assert pet.stop() == 0, pet.log

    # The backup is the service uid's alone (it carries the vault): 0700 / 0600 all the way down.
    if dest.is_dir():
        for path in (dest, *dest.rglob("*")):
            want = 0o700 if path.is_dir() else 0o600
            assert stat.S_IMODE(path.lstat().st_mode) == want, path
    else:
        assert stat.S_IMODE(dest.stat().st_mode) == 0o600

    other = tmp_path / "another-card"
    done = shelldon("--home", os.fspath(other), "restore", os.fspath(dest))
    assert done.returncode == 0, done.stderr
    assert (other / "memory" / "backup-marker.md").read_text() == "a file of the memory tree\n"
    check_history(other / "history.db")
    # Restored, the tree has its data modes again (core.storage.layout: the worker's group reads
    # it).
    assert layout.open_to_others(DataRoot(other)) == []
    assert stat.S_IMODE((other / "memory" / "backup-marker.md").stat().st_mode) == 0o640
    assert stat.S_IMODE((other / "history.db").stat().st_mode) == 0o640

    monkeypatch.setenv("SHELLDON_HOME", os.fspath(other))
    again: Pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1"})
    try:
        assert again.cli("say", "who keeps bees?").returncode == 0
        again.settled()  # the turn's prompt is recorded after its reply
        recent = prompt_section(again.prompts()[-1], "recent")
        assert "my sister is called Ana and she keeps bees" in recent
        assert "still here after the backup?" not in recent  # said after the backup was taken
    finally:
        assert again.stop() == 0, again.log


def test_a_backup_leaves_out_the_temp_files_of_writes_in_flight(home: Path, tmp_path: Path) -> None:
    """A write in flight is its temp file (the atomic writer's name, a live pid: this test's);
    the copy held it, or failed when the rename took it away between the listing and the copy."""
    root = DataRoot.resolve(home)
    filled_history(root.history_db)
    (root.memory / "facts").mkdir(parents=True)
    (root.memory / "facts" / "tea.md").write_text("The owner likes tea.\n")
    in_flight = root.memory / "facts" / f".tea.md{_native.TEMP_MARKER}{os.getpid()}-7"
    in_flight.write_text("The owner likes green t")
    dest = backup.backup(root, tmp_path / "b")
    copied = sorted(p.relative_to(dest).as_posix() for p in (dest / "memory").rglob("*"))
    assert copied == ["memory/facts", "memory/facts/tea.md"]


def test_backups_taken_while_the_tree_is_written_all_succeed(home: Path, tmp_path: Path) -> None:
    """A real writer (the gate's, through CuratedMemory) replaces entries nonstop while backups
    are taken: each one succeeds and holds whole entries only. Before temp files were left out and
    a vanished file skipped, six runs of this test out of six failed (shutil.Error: No such file
    or directory, a temp file renamed away between the listing and the copy)."""
    root = DataRoot.resolve(home)
    layout.prepare(root)
    filled_history(root.history_db)
    memory = CuratedMemory(root.memory)
    stop = threading.Event()
    written: list[int] = []
    failed: list[BaseException] = []
    wrote = threading.Condition()

    def write() -> None:
        try:
            while not stop.is_set():
                n = len(written)
                content = f"The owner's fact number {n} is about tea."
                op = Remember(collection="facts", name=f"fact {n % 4}", content=content)
                memory.apply_memory_op(op, provenance="owner", unit=f"test-{n}")
                with wrote:
                    written.append(n)
                    wrote.notify_all()
        except BaseException as exc:  # said by the test, not lost in the thread
            failed.append(exc)
            with wrote:
                wrote.notify_all()

    def after_a_write(n: int) -> None:
        """Each backup waits for one more write than the last: the two interleave however the
        machine schedules them (a count of writes during 30 backups was a race under load)."""
        with wrote:
            assert wrote.wait_for(lambda: len(written) > n or bool(failed), timeout=120)
        assert not failed, failed

    memory.apply_memory_op(  # an entry there before the first backup
        Remember(collection="facts", name="fact", content="The owner's first fact is about tea."),
        provenance="owner",
        unit="test-start",
    )
    writer = threading.Thread(target=write)
    writer.start()
    try:
        backups = []
        for n in range(30):
            after_a_write(n)
            backups.append(backup.backup(root, tmp_path / f"b{n}"))
    finally:
        stop.set()
        writer.join(timeout=60)
    assert not failed, failed
    assert len(written) >= 30  # the tree was being written all along
    for dest in backups:
        names = [p.name for p in (dest / "memory").rglob("*")]
        assert not [n for n in names if layout.TEMP_NAME.fullmatch(n)], names
        entries = list((dest / "memory" / "facts").glob("*.md"))
        assert entries, names
        for entry in entries:
            assert entry.read_text().rstrip().endswith("is about tea."), entry


def test_restore_keeps_the_current_data_aside(home: Path, tmp_path: Path) -> None:
    root = DataRoot.resolve(home)
    filled_history(root.history_db)
    root.memory.mkdir(parents=True, exist_ok=True)
    (root.memory / "old.md").write_text("old\n")
    dest = backup.backup(root, tmp_path / "b.tar")
    (root.memory / "old.md").write_text("changed after the backup\n")
    aside = backup.restore(root, dest)
    assert (aside / "memory" / "old.md").read_text() == "changed after the backup\n"
    assert (aside / "history.db").is_file()
    assert (root.memory / "old.md").read_text() == "old\n"


def test_a_backup_refuses_an_existing_destination(home: Path, tmp_path: Path) -> None:
    root = DataRoot.resolve(home)
    filled_history(root.history_db)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("x")
    with pytest.raises(backup.BackupError, match="already exists"):
        backup.backup(root, tmp_path / "taken")


def recover_works(probe: Path) -> bool:
    """The sqlite3 CLI is installed and its .recover rebuilds a trivial healthy file."""
    cli = shutil.which("sqlite3")
    if cli is None:
        return False
    subprocess.run(
        [cli, os.fspath(probe), "CREATE TABLE t (x); INSERT INTO t VALUES (1);"], check=True
    )
    dump = subprocess.run([cli, os.fspath(probe), ".recover"], capture_output=True, check=False)
    return dump.returncode == 0 and b"INSERT" in dump.stdout


@pytest.mark.parametrize("use_cli", [True, False], ids=["sqlite3-recover", "row-by-row"])
def test_repair_salvages_the_readable_rows_and_keeps_the_damaged_file(
    use_cli: bool, home: Path, run_dir: Path
) -> None:
    if use_cli and not recover_works(home.parent / "probe.db"):
        pytest.skip("no sqlite3 CLI whose .recover works (Debian 12's 3.40.1 fails on any file)")
    root = DataRoot(home, run_dir)
    filled_history(root.history_db)
    garbage_in_the_middle(root.history_db)
    original = root.history_db.read_bytes()
    done = shelldon("--home", os.fspath(home), "repair", *([] if use_cli else ["--no-cli"]))
    assert done.returncode == 0, done.stderr
    assert ("sqlite3 .recover" if use_cli else "row by row") in done.stdout
    kept = [
        p
        for p in home.iterdir()
        if p.name.startswith("history.db.damaged-") and not p.name.endswith(("-wal", "-shm"))
    ]
    assert len(kept) == 1 and kept[0].read_bytes() == original
    check_history(root.history_db)  # the fresh file passes the start check
    conn = sqlite3.connect(root.history_db)
    try:  # the stem index rebuilt over every salvaged row, its watermark at the newest
        assert recall.unindexed_rows(conn) == 0
        conn.execute("INSERT INTO messages_stem(messages_stem, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()
    store = HistoryStore.open(root.history_db)
    try:
        with store.reading() as conn:
            salvaged = int(conn.execute("SELECT count(*) FROM messages").fetchone()[0])
        hits = store.search("tea", 5)
    finally:
        store.close()
    # Most rows come back; the rows on the garbage pages are gone.
    assert TURNS <= salvaged < 2 * TURNS
    assert hits  # the FTS index was rebuilt over the salvaged messages


def test_repair_of_a_file_with_a_garbage_header_gives_a_fresh_working_history(
    home: Path, run_dir: Path
) -> None:
    root = DataRoot(home, run_dir)
    filled_history(root.history_db)
    garbage_header(root.history_db)
    report = backup.repair(root, use_cli=False)
    assert report.damaged_kept.exists()
    check_history(root.history_db)


def test_repair_refuses_while_the_pet_runs(pet: Pet) -> None:
    done = shelldon("--home", os.fspath(pet.root.home), "repair")
    assert done.returncode == 1
    assert "the pet is running" in done.stderr
