"""A reader that is another uid (the worker) and may write nothing: real setuid in a forked child.

Root only (CI runs as root); the worker is the run's throwaway worker user (`worker_user`). The data
root lives in a fresh world-traversable directory, because pytest's own tmp tree is 0700 and the
dropped child could not even reach it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shelldon import _native
from shelldon.contracts.ops import RewriteAbout
from shelldon.core.history import HistoryStore, open_readonly
from shelldon.core.memory import CuratedMemory, MemoryReader
from support.marks import needs_root
from support.users import TestUser

pytestmark = needs_root("a drop to another uid")
NOW = datetime(2026, 11, 29, 22, 0, tzinfo=UTC)


def as_worker(user: TestUser, probe: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `probe` in a forked child dropped to the worker uid; return what it reported."""
    uid, gid = user.uid, user.gid
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            assert os.getresuid() == (uid, uid, uid)
            try:
                report = probe()
            except Exception as exc:
                report = {"error": f"{type(exc).__name__}: {exc}"}
            os.write(write_fd, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        raw = pipe.read()
    os.waitpid(pid, 0)
    result: dict[str, Any] = json.loads(raw)
    return result


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    directory = Path(tempfile.mkdtemp(prefix="shelldon-ro-"))
    directory.chmod(0o755)  # traversable, not writable, by the worker
    try:
        yield directory
    finally:
        shutil.rmtree(directory)


def _read_probe(db: Path) -> Callable[[], dict[str, Any]]:
    def probe() -> dict[str, Any]:
        reader = open_readonly(db)
        report: dict[str, Any] = {
            "recent": [r["content"] for r in reader.recent(10)],
            "search": [r["turn_id"] for r in reader.search("cats", 5)],
        }
        try:
            reader._conn.execute(
                "INSERT INTO messages (turn_id, role, content, ts) VALUES ('x', 'owner', 'y', 'z')"
            )
            report["sql_write"] = "allowed"
        except sqlite3.OperationalError:
            report["sql_write"] = "refused"
        try:
            with open(db, "r+b"):
                report["os_write"] = "allowed"
        except PermissionError:
            report["os_write"] = "refused"
        return report

    return probe


def test_worker_reads_while_the_writer_is_open(shared_dir: Path, worker_user: TestUser) -> None:
    db = shared_dir / "history.db"
    store = HistoryStore.open(db)
    store.record_turn("t1", "I have two cats", "cats are lovely", NOW)
    report = as_worker(worker_user, _read_probe(db))
    assert report == {
        "recent": ["I have two cats", "cats are lovely"],
        "search": ["t1", "t1"],
        "sql_write": "refused",
        "os_write": "refused",
    }
    store.record_turn("t2", "the cats sleep", "zzz", NOW)  # a commit after: visible to the next
    assert as_worker(worker_user, _read_probe(db))["recent"][-1] == "zzz"
    store.close()


def test_worker_reads_after_the_writer_closed(shared_dir: Path, worker_user: TestUser) -> None:
    db = shared_dir / "history.db"
    store = HistoryStore.open(db)
    store.record_turn("t1", "cats", "meow", NOW)
    store.close()
    assert not (shared_dir / "history.db-wal").exists()
    report = as_worker(worker_user, _read_probe(db))
    assert report["recent"] == ["cats", "meow"] and report["sql_write"] == "refused"


def test_worker_reads_committed_turns_after_the_writer_was_killed(
    shared_dir: Path, worker_user: TestUser
) -> None:
    db = shared_dir / "history.db"
    pid = os.fork()
    if pid == 0:
        try:
            store = HistoryStore.open(db)
            store.record_turn("t1", "cats before the crash", "ok", NOW)
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    assert (shared_dir / "history.db-wal").stat().st_size > 0  # nothing checkpointed
    report = as_worker(worker_user, _read_probe(db))
    assert report.get("recent") == ["cats before the crash", "ok"], report


def test_worker_cannot_open_the_vault_or_write_memory(
    shared_dir: Path, worker_user: TestUser
) -> None:
    root = shared_dir / "memory"
    memory = CuratedMemory(root)
    memory.apply_memory_op(RewriteAbout(content="I am shelldon."))
    (root / "vault" / "pin.md").write_text("1234")

    def probe() -> dict[str, Any]:
        reader = MemoryReader(root)
        report: dict[str, Any] = {"about": reader.read_about()}
        try:
            os.listdir(root / "vault")
            report["vault"] = "listed"
        except PermissionError:
            report["vault"] = "denied"
        try:
            _native.atomic_write(root / "about.md", b"pwned")
            report["write"] = "allowed"
        except PermissionError:
            report["write"] = "denied"
        return report

    assert as_worker(worker_user, probe) == {
        "about": "I am shelldon.\n",
        "vault": "denied",
        "write": "denied",
    }
    assert memory.read_about() == "I am shelldon.\n"
