"""history.db across core's life as real processes: migrations at start, the WAL gone after a clean
stop, the turn journal across kills (docs/storage.md, docs/turn.md)."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import sys
from pathlib import Path

from shelldon import ipc
from shelldon.core.history import migrations
from shelldon.core.history.store import open_readonly
from shelldon.paths import DataRoot
from support.pet import Pet, Units, start_pet

sys.path.insert(0, str(Path(__file__).parent))
from support import journal_child

FIXTURES = Path(__file__).with_name("fixtures")


def _journal_rows(root: DataRoot) -> int:
    conn = sqlite3.connect(root.history_db)
    try:
        return int(conn.execute("SELECT count(*) FROM turn_journal").fetchone()[0])
    finally:
        conn.close()


def _journal_ids(root: DataRoot) -> collections.Counter[str]:
    path = root.memory / "history.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return collections.Counter(r["journal"] for r in lines if "journal" in r)


def _tree(root: DataRoot) -> dict[str, bytes]:
    return {
        str(p.relative_to(root.memory)): p.read_bytes()
        for p in sorted(root.memory.rglob("*.md"))
        if ".undo" not in p.parts
    }


def test_history_holds_each_turn_as_soon_as_its_reply_is_back(pet: Pet) -> None:
    for n, text in enumerate(("hello", "my sister is called Ana", "who is Ana?", "bye"), 1):
        said = pet.cli("say", text)
        assert said.returncode == 0, said.stderr
        # No waiting: the reply is out, so the turn is stored.
        reader = open_readonly(pet.root.history_db)
        try:
            rows = reader.recent(50)
        finally:
            reader.close()
        assert len(rows) == 2 * n and rows[-2]["content"] == text
        counts = json.loads(pet.cli("status", "--json").stdout)["memory_counts"]
        assert counts["messages"] == 2 * n


def test_a_clean_stop_closes_history_db_while_a_client_is_still_connected(pet: Pet) -> None:
    """The last clean close checkpoints the WAL and removes -wal and -shm, even when a client (a
    chat left open) still holds a connection to core as it stops: core closes history.db itself,
    rather than leaving it to the exit, where the connection's thread kept it from ever closing."""
    assert pet.say("my sister is called Ana")
    pet.settled()
    wal = pet.root.history_db.with_name(pet.root.history_db.name + "-wal")
    shm = pet.root.history_db.with_name(pet.root.history_db.name + "-shm")
    assert wal.is_file() and shm.is_file()
    client = ipc.connect(pet.root.socket("core"), timeout=5.0)
    try:
        assert pet.stop() == 0, pet.log
    finally:
        client.close()
    assert not wal.exists() and not shm.exists(), pet.log
    conn = sqlite3.connect(f"{pet.root.history_db.as_uri()}?mode=ro", uri=True)
    try:  # and the turn is in the main file
        rows = conn.execute("SELECT content FROM messages WHERE role = 'owner'").fetchall()
    finally:
        conn.close()
    assert rows == [("my sister is called Ana",)]


def test_core_killed_right_after_a_reply_keeps_the_turn_and_applies_it_once(
    run_dir: Path,
) -> None:
    pet = start_pet()
    pids = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    said = pet.cli("say", "my sister is called Ana")
    assert said.returncode == 0, said.stderr
    # SIGKILL at once, core first: wherever it lands, the owner already has the reply.
    for pid in (pids["core"], pet.proc.pid, pids["broker"], pids["forkserver"]):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    pet.proc.wait(timeout=60)
    again = start_pet()
    try:
        reader = open_readonly(again.root.history_db)
        rows = reader.recent(10)
        reader.close()
        assert len(rows) == 2 and rows[0]["content"] == "my sister is called Ana"
        assert _journal_rows(again.root) == 0  # applied at start, then cleared
        people = [n for n in _tree(again.root) if n.startswith("people/")]
        assert len(people) == 1  # the offline brain's remember, applied once
        assert set(_journal_ids(again.root).values()) == {1}
    finally:
        assert again.stop() == 0, again.log


def test_a_core_unit_applies_a_killed_turns_journal_before_ready_and_once(
    run_dir: Path,
) -> None:
    root = DataRoot.resolve()
    crashed = journal_child.run(root.home, "reply")
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert _journal_rows(root) == 1 and _journal_ids(root) == {}
    for start in (1, 2):
        units = Units(root)
        try:
            units.start("core")  # READY=1: the journal is applied by then
            assert _journal_rows(root) == 0
            tree = _tree(root)
            assert "people/sister.md" in tree and "facts/key.md" not in tree
            ids = _journal_ids(root)
            assert len(ids) == 5 and set(ids.values()) == {1}, start
        finally:
            assert set(units.stop_all().values()) == {0}
            units.notify_path.unlink()  # the next start binds it again
        if start == 1:
            first = (tree, ids)
    assert (tree, ids) == first  # the second start changed nothing


def test_a_core_unit_with_a_large_old_store_extends_its_start_timeout_before_migrating(
    run_dir: Path,
) -> None:
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURES / "history_release_v1.db", root.history_db)  # made by the release
    conn = sqlite3.connect(root.history_db)
    conn.executemany(
        "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, 'owner', ?, ?)",
        (
            ("t", f"message {n} about tea", "2026-11-29T21:00:00+00:00")
            for n in range(migrations.LONG_MIGRATION_ROWS)
        ),
    )
    conn.commit()
    conn.close()
    units = Units(root)
    try:
        pid = units.start("core")
        said = [m for p, m in units.messages if p == pid]
    finally:
        assert set(units.stop_all().values()) == {0}
    usec = int(migrations.MIGRATION_EXTEND_S * 1_000_000)
    extend = f"EXTEND_TIMEOUT_USEC={usec}"
    ready = next(n for n, m in enumerate(said) if "READY=1" in m.split("\n"))
    assert extend in said[:ready]  # asked for before READY=1, i.e. before or while migrating
    conn = sqlite3.connect(root.history_db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == migrations.LATEST
    conn.close()
