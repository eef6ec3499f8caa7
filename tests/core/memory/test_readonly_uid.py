"""A reader that is another uid (the worker) and may write nothing: real setuid in a forked child.

Root only (CI runs as root). The data lives in a fresh directory made like the data root's
(core.storage.layout: 2750, setgid, in the readers' group, the worker's primary group), because
pytest's own tmp tree is 0700 and the dropped child could not even reach it. The worker is this
run's throwaway `worker_user`; `stranger_user`, a third uid, must be refused everything.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shelldon import _native
from shelldon.contracts.ops import RewriteAbout
from shelldon.core.history.store import HistoryStore, open_readonly
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.reader import MemoryReader
from shelldon.core.storage import layout
from support.marks import needs_root
from support.users import TestUser as User

pytestmark = needs_root("a drop to another uid")
NOW = datetime(2026, 11, 29, 22, 0, tzinfo=UTC)
Worker = Callable[[Callable[[], dict[str, Any]]], dict[str, Any]]


def as_uid(user: User, probe: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `probe` in a forked child dropped to `user` (as the worker drops: no supplementary
    group); return what it reported."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            os.setgroups([])
            os.setgid(user.gid)
            os.setuid(user.uid)
            assert os.getresuid() == (user.uid, user.uid, user.uid)
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
def as_worker(worker_user: User) -> Callable[[Callable[[], dict[str, Any]]], dict[str, Any]]:
    return lambda probe: as_uid(worker_user, probe)


@pytest.fixture
def shared_dir(worker_user: User) -> Iterator[Path]:
    directory = Path(tempfile.mkdtemp(prefix="shelldon-ro-"))
    os.chown(directory, -1, worker_user.gid)
    directory.chmod(layout.DIR_MODE)  # the worker traverses it through the group, writes nothing
    try:
        yield directory
    finally:
        shutil.rmtree(directory)


def _refused_to(user: User, paths: list[Path]) -> dict[str, str]:
    """What `user` got opening each path for reading: the errno's name, or "opened"."""

    def probe() -> dict[str, Any]:
        out = {}
        for path in paths:
            try:
                os.close(os.open(path, os.O_RDONLY))
                out[path.name] = "opened"
            except OSError as exc:
                out[path.name] = errno.errorcode.get(exc.errno or 0, str(exc))
        return out

    return {str(k): str(v) for k, v in as_uid(user, probe).items()}


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


def test_worker_reads_while_the_writer_is_open(shared_dir: Path, as_worker: Worker) -> None:
    db = shared_dir / "history.db"
    store = HistoryStore.open(db)
    store.record_turn("t1", "I have two cats", "cats are lovely", NOW)
    report = as_worker(_read_probe(db))
    assert report == {
        "recent": ["I have two cats", "cats are lovely"],
        "search": ["t1", "t1"],
        "sql_write": "refused",
        "os_write": "refused",
    }
    store.record_turn("t2", "the cats sleep", "zzz", NOW)  # a commit after: visible to the next
    assert as_worker(_read_probe(db))["recent"][-1] == "zzz"
    store.close()


def test_worker_reads_after_the_writer_closed(shared_dir: Path, as_worker: Worker) -> None:
    db = shared_dir / "history.db"
    store = HistoryStore.open(db)
    store.record_turn("t1", "cats", "meow", NOW)
    store.close()
    assert not (shared_dir / "history.db-wal").exists()
    report = as_worker(_read_probe(db))
    assert report["recent"] == ["cats", "meow"] and report["sql_write"] == "refused"


def test_worker_reads_committed_turns_after_the_writer_was_killed(
    shared_dir: Path, as_worker: Worker
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
    report = as_worker(_read_probe(db))
    assert report.get("recent") == ["cats before the crash", "ok"], report


def test_worker_cannot_open_the_vault_or_write_memory(shared_dir: Path, as_worker: Worker) -> None:
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

    assert as_worker(probe) == {"about": "I am shelldon.\n", "vault": "denied", "write": "denied"}
    assert memory.read_about() == "I am shelldon.\n"


def test_a_wal_reset_keeps_the_worker_in_and_the_stranger_out(
    shared_dir: Path, as_worker: Worker, worker_user: User, stranger_user: User
) -> None:
    """-wal and -shm are made again after every clean close; sqlite gives them the db's mode
    and, in the setgid directory, its group: the worker reads on, a third uid gets EACCES."""
    db = shared_dir / "history.db"
    sides = [db, db.with_name("history.db-wal"), db.with_name("history.db-shm")]
    store = HistoryStore.open(db)
    store.record_turn("t1", "cats", "meow", NOW)
    store.close()  # the last connection: checkpointed, -wal and -shm removed
    assert not sides[1].exists() and not sides[2].exists()
    store = HistoryStore.open(db)  # made again
    store.record_turn("t2", "more cats", "purr", NOW)
    try:
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        store.record_turn("t3", "cats at night", "zzz", NOW)
        for path in sides:
            st = path.stat()
            assert (stat.S_IMODE(st.st_mode), st.st_gid) == (0o640, worker_user.gid), path
        assert as_worker(_read_probe(db))["recent"][-1] == "zzz"
        assert _refused_to(stranger_user, [shared_dir, *sides]) == {
            p.name: "EACCES" for p in [shared_dir, *sides]
        }
    finally:
        store.close()
