"""Storage faults found at start, said in one line that names the file and what to do.

A damaged history.db (garbage pages, a truncated file, a garbage header) or a data root that
cannot be written used to surface as a raw traceback, or worse, as every later turn silently
unrecorded. Core checks both before it opens its stores (`PRAGMA quick_check`, and a real write in
the data root) and refuses to start with a `StorageFault`; `shelldon run` runs the same check
before it starts the processes. The remedies named are `shelldon repair|restore|backup`
(core.backup, docs/reliability.md "storage faults").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Final

QUICK_CHECK_ROWS: Final = 5  # enough to say what is wrong; a damaged file can list thousands


class StorageFault(RuntimeError):
    """The data root cannot be used as it is; the message is one line for the owner."""


def damaged(path: Path, detail: str) -> StorageFault:
    return StorageFault(
        f"{path} is damaged ({detail}); run `shelldon repair` to salvage it into a fresh file "
        "(the damaged one is kept aside), or `shelldon restore BACKUP`"
    )


def quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """StorageFault unless sqlite's quick_check says "ok" (it reads every page, not the indexes'
    agreement: seconds on a Pi for a large file, once per start)."""
    try:
        rows = conn.execute(f"PRAGMA quick_check({QUICK_CHECK_ROWS})").fetchall()
    except sqlite3.DatabaseError as exc:  # "file is not a database", "disk image is malformed"
        raise damaged(path, str(exc)) from None
    problems = [str(row[0]) for row in rows if str(row[0]) != "ok"]
    if problems:
        raise damaged(path, "; ".join(problems)[:300])


def check_history(path: Path) -> None:
    """Open the file read-write (as core will) and quick_check it; nothing when it is absent."""
    if not path.exists():
        return
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise damaged(path, str(exc)) from None
    try:
        quick_check(conn, path)
    finally:
        conn.close()


def check_writable(directory: Path) -> None:
    """StorageFault when nothing can be written in `directory` (a read-only mount, a wrong
    owner): found by writing, since access() lies about read-only mounts under some setups."""
    probe = directory / f".shelldon-write-probe-{os.getpid()}"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"x")
    except OSError as exc:
        raise StorageFault(
            f"{directory} cannot be written ({exc.strerror or exc}); the pet stores everything "
            "there: remount it read-write or give it to the pet's user, or use --home elsewhere"
        ) from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()


def check_data_root(home: Path, history_db: Path) -> None:
    """Both checks, in the order a fault is most useful to hear: the root, then the file."""
    if home.is_dir():
        check_writable(home)
    check_history(history_db)
