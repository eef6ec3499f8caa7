"""Stores removed or swapped under the real running pet (core.upkeep.store_watch): never silent.

`rm -rf memory/`: every fact after it is stored in the rebuilt tree (and audited), and the owner is
told once; `rm history.db`: rebuilt from the copy core has open, so no acknowledged turn is lost
after the stop; history.db replaced by another file: turns are refused as not saved until a restart,
what core had is copied aside; `rm history.db-wal` and history.db emptied in place: rebuilt from
core's copy when it is whole, else refused and said; `status` and `doctor` show each.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from shelldon.core.history.store import open_readonly
from shelldon.core.turn.apply import NOT_SAVED_TEXT
from support.disk import memory_files
from support.pet import Pet


def _owner_rows(db: Path) -> list[str]:
    store = open_readonly(db)
    try:
        return [r["content"] for r in store.recent(200) if r["role"] == "owner"]
    finally:
        store.close()


def test_facts_after_the_memory_tree_is_removed_are_stored_in_a_rebuilt_tree_and_it_is_said(
    pet: Pet,
) -> None:
    memory = pet.root.memory
    pet.say("remember that my bike is green")
    pet.say("hello")  # one turn at a time: the previous one's ops are applied by now
    assert "bike is green" in memory_files(memory), pet.log[-3000:]

    shutil.rmtree(memory)
    facts = [
        "remember that my car is red",
        "remember that my boat is blue",
        "remember that my kite is yellow",
    ]
    first = pet.say(facts[0])
    assert "memory folder was deleted" in first, first
    for fact in facts[1:]:
        reply = pet.say(fact)
        assert "memory folder" not in reply  # told once
    pet.say("thanks")
    stored = memory_files(memory)
    for thing in ("car is red", "boat is blue", "kite is yellow"):
        assert thing in stored, (thing, pet.log[-3000:])
    audit = [json.loads(line) for line in (memory / "history.jsonl").read_text().splitlines()]
    written = [r for r in audit if r.get("action") == "create"]
    assert len(written) >= 3, audit  # each fact audited again, in the rebuilt tree's log

    status = pet.cli("status")
    assert "storage: store changed: my memory folder was deleted" in status.stdout, status.stdout
    doctor = pet.cli("doctor")
    assert "memory folder was deleted" in doctor.stdout, doctor.stdout


def test_facts_after_a_collection_folder_is_removed_are_stored_and_it_is_said(pet: Pet) -> None:
    """`rm -rf memory/facts memory/people`: the tree is the same directory, so only the folders
    tell. Before: every fact after it was refused as an invalid op, with no audit line, under the
    reply's "I'll remember that"."""
    memory = pet.root.memory
    pet.say("remember that my bike is green")
    pet.say("hello")
    for folder in ("facts", "people", "preferences"):
        shutil.rmtree(memory / folder)
    first = pet.say("remember that my car is red")
    assert "facts/" in first and "was deleted while I was running" in first, first
    assert "was deleted" not in pet.say("my brother Joe lives in Paris")  # told once
    pet.say("thanks")
    stored = memory_files(memory)
    assert "car is red" in stored and "Joe" in stored, (stored, pet.log[-3000:])
    audit = (memory / "history.jsonl").read_text()
    assert audit.count('"action": "create"') >= 3, audit
    status = pet.cli("status")
    assert "storage: store changed: my memory folder's facts/" in status.stdout, status.stdout


def test_a_collection_folder_made_a_symlink_is_a_failed_write_that_is_said(
    pet: Pet, tmp_path: Path
) -> None:
    """facts/ pointed elsewhere: core writes nothing through it, and the owner hears so in the next
    reply, as for any failed write (it was an "invalid op": unaudited, unsaid)."""
    memory = pet.root.memory
    pet.say("hello")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(memory / "facts")
    (memory / "facts").symlink_to(elsewhere)
    pet.say("remember that my car is red")
    told = pet.say("hello again")  # a write fails after its reply: the next one says so
    assert "could not be stored" in told, told
    assert list(elsewhere.iterdir()) == []
    audit = [json.loads(line) for line in (memory / "history.jsonl").read_text().splitlines()]
    assert any(r.get("reason_code") == "write_failed" for r in audit), audit


def test_an_unlinked_history_db_is_rebuilt_from_the_open_copy_and_no_turn_is_lost(
    pet: Pet,
) -> None:
    db = pet.root.history_db
    before = [f"before the unlink {i}" for i in range(3)]
    for text in before:
        pet.say(text)
    db.unlink()
    told = pet.say("after the unlink 0")
    assert "history.db was deleted" in told and "nothing we said is lost" in told, told
    after = [f"after the unlink {i}" for i in range(1, 4)]
    for text in after:
        assert "history.db" not in pet.say(text)  # told once
    status = pet.cli("status")
    assert "storage: store changed: history.db was deleted" in status.stdout, status.stdout
    assert pet.stop() == 0, pet.log[-3000:]
    rows = _owner_rows(db)
    for text in [*before, "after the unlink 0", *after]:
        assert text in rows, (text, rows)


def test_a_replaced_history_db_refuses_turns_until_a_restart_and_keeps_what_core_had(
    pet: Pet,
) -> None:
    db = pet.root.history_db
    pet.say("a turn before the swap")
    foreign = db.with_name("other.db")
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    foreign.replace(db)
    told = pet.say("a turn after the swap")
    assert NOT_SAVED_TEXT in told and "history.db was replaced" in told, told
    again = pet.say("and another")
    assert NOT_SAVED_TEXT in again  # refused, every turn, until a restart
    with sqlite3.connect(db) as check:  # the file put there was not written into by core
        assert check.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]
    kept = list(db.parent.glob("history.db.detached-*Z"))
    assert len(kept) == 1, kept
    assert "a turn before the swap" in _owner_rows(kept[0])
    status = pet.cli("status")
    assert "storage: store changed: turns are not saved" in status.stdout, status.stdout
    doctor = pet.cli("doctor")
    assert "history.db was replaced" in doctor.stdout, doctor.stdout


def test_a_deleted_wal_is_rebuilt_from_the_open_copy_and_no_turn_is_lost(pet: Pet) -> None:
    """`rm history.db-wal`: every turn since the last checkpoint lives only in the WAL core still
    has open (before the fix all of them were gone after the stop, the file left unreadable)."""
    db = pet.root.history_db
    before = [f"before the wal went {i}" for i in range(3)]
    for text in before:
        pet.say(text)
    db.with_name("history.db-wal").unlink()
    told = pet.say("after the wal went 0")
    assert "history.db-wal was deleted" in told and "nothing we said is lost" in told, told
    after = [f"after the wal went {i}" for i in range(1, 3)]
    for text in after:
        assert "history.db" not in pet.say(text)  # told once
    status = pet.cli("status")
    assert "storage: store changed: history.db-wal was deleted" in status.stdout, status.stdout
    assert pet.stop() == 0, pet.log[-3000:]
    rows = _owner_rows(db)
    for text in [*before, "after the wal went 0", *after]:
        assert text in rows, (text, rows)


def _checkpoint(db: Path) -> None:
    """Every page into the database file, the WAL emptied (as sqlite's own checkpoint does)."""
    conn = sqlite3.connect(db)
    try:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0
    finally:
        conn.close()


def test_a_history_db_emptied_in_place_with_its_pages_in_the_wal_is_rebuilt(pet: Pet) -> None:
    """`: > history.db` (the same file, no byte left) while every page is still in core's WAL."""
    db = pet.root.history_db
    pet.say("before the emptying")
    with open(db, "r+b") as f:
        f.truncate(0)
    told = pet.say("after the emptying")
    assert "history.db was emptied" in told and "nothing we said is lost" in told, told
    assert pet.stop() == 0, pet.log[-3000:]
    rows = _owner_rows(db)
    assert "before the emptying" in rows and "after the emptying" in rows, rows


def test_a_history_db_emptied_after_a_checkpoint_refuses_turns_and_is_said(pet: Pet) -> None:
    """The pages were in the database file only: core's copy cannot hold them, so it must not
    claim it does. Turns are refused as not saved until the owner repairs."""
    db = pet.root.history_db
    pet.say("a turn before the checkpoint")
    _checkpoint(db)
    with open(db, "r+b") as f:
        f.truncate(0)
    told = pet.say("a turn after the emptying")
    assert "nothing we said is lost" not in told, told
    assert NOT_SAVED_TEXT in told and "history.db was emptied" in told, told
    assert "shelldon restore" in told or "shelldon repair" in told, told
    assert NOT_SAVED_TEXT in pet.say("and another")
    status = pet.cli("status")
    assert "storage: store changed: turns are not saved" in status.stdout, status.stdout


def test_an_emptied_history_db_whose_copy_lost_pages_is_put_back_for_repair(home: Path) -> None:
    """Some pages in the WAL, the rest only in the emptied file: core's copy reads but is damaged.
    It is not adopted as whole (quick_check), turns are refused, and the copy is left at the path
    for `shelldon repair` (which salvages what rows it can read)."""
    from datetime import UTC, datetime

    from shelldon.core.history.store import HistoryStore
    from shelldon.core.storage import layout
    from shelldon.core.upkeep import backup
    from shelldon.core.upkeep.store_watch import StoreWatch
    from shelldon.paths import DataRoot

    root = DataRoot.resolve(str(home))
    layout.prepare(root)
    history = HistoryStore.open(root.history_db)
    now = datetime(2026, 12, 6, 7, 0, tzinfo=UTC)
    try:
        watch = StoreWatch(root, history, None)
        for i in range(40):
            history.record_turn(None, f"old message {i} " + "words " * 40, "ok", now)
        _checkpoint(root.history_db)
        history.record_turn(None, "the newest message", "ok", now)
        with open(root.history_db, "r+b") as f:
            f.truncate(0)
        [event] = watch.check()
        assert "emptied" in event and "damaged" in event and "shelldon repair" in event, event
        assert "nothing we said is lost" not in event
        assert watch.history_refused
    finally:
        history.close()
    assert root.history_db.stat().st_size > 0  # the copy, not the emptied file, is at the path
    report = backup.repair(root, use_cli=False)  # what the sentence tells the owner to run
    assert report.damaged_kept.exists()
    with sqlite3.connect(root.history_db) as fresh:
        assert fresh.execute("PRAGMA quick_check").fetchone() == ("ok",)


def test_the_watch_leaves_core_s_locks_so_another_reader_s_close_keeps_the_wal(
    home: Path,
) -> None:
    """The watch looks at history.db without opening it: closing any descriptor of a file drops
    the process's POSIX locks on it, sqlite's too, and a CLI reader's close then took core's WAL
    and -shm as the last connection's (the first version of the emptied-file check did so)."""
    import subprocess
    import sys
    from datetime import UTC, datetime

    from shelldon.core.history.store import HistoryStore
    from shelldon.core.storage import layout
    from shelldon.core.upkeep.store_watch import StoreWatch
    from shelldon.paths import DataRoot

    root = DataRoot.resolve(str(home))
    layout.prepare(root)
    history = HistoryStore.open(root.history_db)
    try:
        watch = StoreWatch(root, history, None)
        history.record_turn(None, "a turn", "ok", datetime(2026, 12, 6, tzinfo=UTC))
        assert watch.check() == []
        reader = (
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('SELECT count(*) FROM messages').fetchall(); c.close()"
        )
        subprocess.run([sys.executable, "-c", reader, str(root.history_db)], check=True)
        assert root.history_db.with_name("history.db-wal").exists()
        assert watch.check() == []
    finally:
        history.close()


def test_each_event_is_owed_once_to_the_reply_and_once_to_the_paired_chat(home: Path) -> None:
    """The watch on real stores, without the processes: what the reply and the chat are owed."""
    from shelldon.core.history.store import HistoryStore
    from shelldon.core.memory.lifecycle import CuratedMemory
    from shelldon.core.storage import layout
    from shelldon.core.upkeep.store_watch import StoreWatch
    from shelldon.paths import DataRoot

    root = DataRoot.resolve(str(home))
    layout.prepare(root)
    history = HistoryStore.open(root.history_db)
    memory = CuratedMemory(root.memory)
    try:
        watch = StoreWatch(root, history, memory)
        assert watch.check() == []  # nothing changed: nothing said
        shutil.rmtree(root.memory)
        [event] = watch.check()
        assert root.memory.is_dir() and "memory folder was deleted" in event
        assert watch.check() == []  # noticed once
        reply = watch.take_unsaid()
        assert reply is not None and event in reply
        assert watch.take_unsaid() is None
        chat = watch.take_for_chat()
        assert chat is not None and event in chat
        watch.chat_not_told(chat)  # the queue was full: owed again
        assert watch.take_for_chat() == chat
        assert watch.take_for_chat() is None
        assert watch.status_lines() == [f"storage: store changed: {event}"]
    finally:
        history.close()


def test_a_wal_emptied_in_place_is_rebuilt_from_the_open_copy_and_no_turn_is_lost(
    pet: Pet,
) -> None:
    """`: > history.db-wal` (the same file, cut to nothing) under the running pet. Before: not
    noticed; core's next commits went past the hole, the stop's checkpoint copied pages of zeros
    into history.db, and every turn since the start was gone (the file malformed), none said."""
    db = pet.root.history_db
    before = [f"before the wal was cut {i}" for i in range(3)]
    for text in before:
        pet.say(text)
    # The last turn's writes after its reply done first: a write of core's between the cut and
    # the next turn's look grows the WAL back past the hole, and the cut is not seen (said in
    # docs/reliability.md).
    pet.settled()
    wal = db.with_name("history.db-wal")
    with open(wal, "r+b") as f:
        f.truncate(0)
    told = pet.say("after the wal was cut 0")
    assert "history.db-wal was emptied or cut short" in told, told
    assert "nothing we said is lost" in told, told
    assert "history.db" not in pet.say("after the wal was cut 1")  # told once
    status = pet.cli("status")
    assert "storage: store changed: history.db-wal was emptied" in status.stdout, status.stdout
    assert pet.stop() == 0, pet.log[-3000:]
    rows = _owner_rows(db)
    for text in [*before, "after the wal was cut 0", "after the wal was cut 1"]:
        assert text in rows, (text, rows)


def test_a_wal_replaced_by_a_directory_is_rebuilt_and_no_turn_is_lost(pet: Pet) -> None:
    """A directory where core's -wal was: the rebuild used to fail on it (unlink of a directory)
    and leave core's history handle closed, every later write a traceback. Now the directory is
    moved aside, whole, and the rebuilt file adopted."""
    db = pet.root.history_db
    pet.say("before the wal became a folder")
    wal = db.with_name("history.db-wal")
    wal.unlink()
    wal.mkdir()
    (wal / "someone's.txt").write_text("kept\n")
    told = pet.say("after the wal became a folder")
    assert "nothing we said is lost" in told, told
    aside = list(db.parent.glob("history.db-wal.aside-*"))
    assert len(aside) == 1 and (aside[0] / "someone's.txt").read_text() == "kept\n", aside
    assert pet.stop() == 0, pet.log[-3000:]
    assert "Traceback" not in pet.log, pet.log[-3000:]
    rows = _owner_rows(db)
    assert "before the wal became a folder" in rows and "after the wal became a folder" in rows


def test_an_audit_log_made_a_link_out_of_the_root_is_set_aside_and_nothing_written_there(
    pet: Pet, tmp_path: Path
) -> None:
    """memory/history.jsonl a symlink to a file outside the data root. Before: every audit line
    was appended there, unsaid. Now the link is moved aside before the turn writes, a fresh audit
    log takes the facts, and the owner is told once."""
    memory = pet.root.memory
    pet.say("remember that my bike is green")
    pet.say("hello")
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes(b"someone else's\n")
    (memory / "history.jsonl").unlink()
    (memory / "history.jsonl").symlink_to(outside)
    told = pet.say("remember that my car is red")
    assert "history.jsonl was a link, not my file" in told, told
    assert "history.jsonl" not in pet.say("remember that my boat is blue")  # told once
    pet.settled()
    assert outside.read_bytes() == b"someone else's\n"
    log = memory / "history.jsonl"
    assert not log.is_symlink(), log
    assert log.read_text().count('"action": "create"') >= 2, log.read_text()
    [aside] = memory.glob("history.jsonl.aside-*")
    assert aside.is_symlink()
    status = pet.cli("status")
    assert "storage: store changed: my memory folder's history.jsonl" in status.stdout


def test_a_core_file_made_a_folder_between_a_stop_and_a_start_is_set_aside_and_said(
    pet: Pet,
) -> None:
    """MEMORY.md and the write lock made directories while the pet was stopped. Before: core's
    start failed on EISDIR (exit 2, every start: a crash loop under systemd)."""
    from support.pet import start_pet

    memory = pet.root.memory
    pet.say("remember that my bike is green")
    assert pet.stop() == 0
    for name in ("MEMORY.md", ".write.lock"):
        (memory / name).unlink()
        (memory / name).mkdir()
    (memory / "MEMORY.md" / "notes.txt").write_text("mine\n")
    again = start_pet()
    try:
        told = again.say("remember that my car is red")
        assert "MEMORY.md was a folder" in told and ".write.lock was a folder" in told, told
        again.settled()
        assert "car is red" in memory_files(memory)
        assert (memory / "MEMORY.md").is_file()
        [aside] = memory.glob("MEMORY.md.aside-*")
        assert (aside / "notes.txt").read_text() == "mine\n"
    finally:
        assert again.stop() == 0, again.log[-3000:]


def test_stores_removed_while_the_pet_was_stopped_are_said_at_the_next_start(pet: Pet) -> None:
    """`rm -rf history.db memory/` between a stop and a start (a cleanup script, a card restored
    from the wrong image). Before: the start made new, empty stores and said nothing; the owner
    found out by the pet not remembering. A first start says nothing (no state/core.boot)."""
    from support.pet import start_pet

    assert "Careful" not in pet.say("remember that my bike is green")  # a first start: nothing
    assert pet.stop() == 0
    pet.root.history_db.unlink()
    shutil.rmtree(pet.root.memory)
    again = start_pet()
    try:
        told = again.say("hello")
        assert "history.db was missing when I started" in told, told
        assert "memory folder was missing or emptied when I started" in told, told
        assert "Careful" not in again.say("hello again")  # told once
        status = again.cli("status")
        assert "storage: store changed: history.db was missing" in status.stdout, status.stdout
    finally:
        assert again.stop() == 0, again.log[-3000:]


def test_a_history_db_emptied_while_the_pet_was_stopped_is_said_at_the_next_start(
    pet: Pet,
) -> None:
    from support.pet import start_pet

    pet.say("a turn before the stop")
    assert pet.stop() == 0
    with open(pet.root.history_db, "r+b") as f:
        f.truncate(0)
    again = start_pet()
    try:
        told = again.say("hello")
        assert "history.db was empty when I started" in told, told
        assert "memory folder" not in told, told
    finally:
        assert again.stop() == 0, again.log[-3000:]


def test_a_memory_folder_replaced_by_a_link_out_of_the_root_gets_nothing_written_through_it(
    pet: Pet, tmp_path: Path
) -> None:
    """`mv memory elsewhere && ln -s elsewhere memory` under the running pet. Before: the watch
    rebuilt the tree through the link and every later fact (and audit line) was written outside
    the data root."""
    memory = pet.root.memory
    pet.say("remember that my bike is green")
    pet.say("hello")
    outside = tmp_path / "elsewhere"
    shutil.move(memory, outside)
    before = sorted(str(p.relative_to(outside)) for p in outside.rglob("*"))
    memory.symlink_to(outside)
    told = pet.say("remember that my car is red")
    assert "memory folder was replaced by a link" in told, told
    pet.settled()
    assert sorted(str(p.relative_to(outside)) for p in outside.rglob("*")) == before
    assert not memory.is_symlink() and "car is red" in memory_files(memory)
    [aside] = memory.parent.glob("memory.aside-*")
    assert aside.is_symlink()


def test_a_memory_folder_that_is_a_link_is_refused_at_start_in_one_line(
    pet: Pet, tmp_path: Path
) -> None:
    from support.pet import start_to_exit

    memory = pet.root.memory
    pet.say("remember that my bike is green")
    assert pet.stop() == 0
    outside = tmp_path / "elsewhere"
    shutil.move(memory, outside)
    memory.symlink_to(outside)
    before = sorted(str(p.relative_to(outside)) for p in outside.rglob("*"))
    done = start_to_exit()
    assert done.returncode == 1, done.stderr
    assert "memory is a link" in done.stderr.strip().splitlines()[-1], done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(str(p.relative_to(outside)) for p in outside.rglob("*")) == before


def test_a_history_db_replaced_by_a_link_out_of_the_root_gets_nothing_written_there(
    pet: Pet, tmp_path: Path
) -> None:
    """history.db made a link to a copy outside the data root under the running pet. Core calls it
    replaced (turns refused, what it had kept aside); before, the next turn's worker, `memory
    learnings` and `backup` opened it through the link and sqlite made its -wal and -shm there."""
    db = pet.root.history_db
    pet.say("a turn before the link")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(db, outside / "history.db")
    db.unlink()
    db.symlink_to(outside / "history.db")
    told = pet.say("a turn after the link")
    assert NOT_SAVED_TEXT in told and "history.db was replaced" in told, told
    for args in (("memory", "learnings"), ("backup", str(tmp_path / "bk")), ("reminders",)):
        done = pet.cli(*args)
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    pet.say("and another")
    assert sorted(p.name for p in outside.iterdir()) == ["history.db"]
    assert pet.stop() == 0, pet.log[-3000:]
    assert list(db.parent.glob("history.db.detached-*Z")), list(db.parent.iterdir())


def test_a_memory_folder_replaced_by_a_file_is_said_once_and_mended_when_it_goes(
    pet: Pet,
) -> None:
    """memory/ replaced by a plain file: the tree cannot be made there. Said once (it was said in
    every reply after), every fact after it a failed write told as such; once the file is moved
    away the tree is made again and facts are stored."""
    memory = pet.root.memory
    pet.say("remember that my bike is green")
    memory.rename(memory.with_name("memory-old"))
    memory.write_text("someone's file\n")
    first = pet.say("remember that my car is red")
    assert "memory folder was replaced and could not be made again" in first, first
    second = pet.say("hello")
    assert "memory folder was replaced" not in second, second
    assert "could not be stored" in second, second  # the failed write, told
    assert memory.read_text() == "someone's file\n"
    memory.unlink()
    assert "memory folder was deleted" in pet.say("remember that my boat is blue")
    pet.settled()
    assert "boat is blue" in memory_files(memory)
    assert pet.stop() == 0, pet.log[-3000:]
