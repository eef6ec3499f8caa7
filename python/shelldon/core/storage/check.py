"""Storage faults found at start, said in one line that names the file and what to do.

A damaged history.db (garbage pages, a truncated file, a garbage header) or a data root that
cannot be written used to surface as a raw traceback, or worse, as every later turn silently
unrecorded. Core checks both before it opens its stores (`PRAGMA quick_check`, and a real write in
the data root) and refuses to start with a `StorageFault`; `shelldon run` runs the same check
before it starts the processes. The remedies named are `shelldon repair|restore|backup`
(core.upkeep.backup, docs/reliability.md "storage faults").
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from shelldon.clock import utc_now
from shelldon.paths import (
    ARCHIVE_DIR,
    ARCHIVE_INDEX,
    AUDIT_LOCK,
    AUDIT_LOG,
    BOOT_MARK,
    EPISODES,
    MEMORY_INDEX,
    WRITE_LOCK,
)

if TYPE_CHECKING:
    from shelldon.paths import DataRoot

log = logging.getLogger(__name__)

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
    # One row may hold several lines ("*** in database main ***\nPage 140: ..."): one line out.
    problems = [" ".join(str(row[0]).split()) for row in rows if str(row[0]) != "ok"]
    if problems:
        raise damaged(path, "; ".join(problems)[:300])


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a file"


def check_history_paths(path: Path) -> None:
    """StorageFault when history.db or its -wal/-shm is not a regular file in the data root: a
    link (sqlite would follow it and keep the pet's history, its WAL and its locks outside the
    data root, where core's watch, backup and restore do not look), a folder (sqlite's "unable to
    open database file", which read as damage and sent the owner to `shelldon repair`). By lstat,
    never by opening: nothing is moved, the owner decides."""
    try:
        st = path.lstat()
    except OSError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise StorageFault(
            f"{path} is a link (to {os.readlink(path)}); the pet keeps its history in the data "
            "root itself: put the file there in place of the link, or point --home at the "
            "other place"
        )
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise StorageFault(
            f"{path} is {_kind(st.st_mode)}, not the pet's history; move it away (the pet then "
            "starts a new history) or `shelldon restore BACKUP`"
        )
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        try:
            mode = side.lstat().st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            raise StorageFault(
                f"{side} is {_kind(mode)}, not sqlite's own file beside history.db; move it away, "
                "then start the pet again"
            )


def check_history(path: Path) -> None:
    """Open the file read-write (as core will) and quick_check it; nothing when it is absent."""
    check_history_paths(path)
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


def check_memory_path(memory: Path) -> None:
    """StorageFault when memory/ is a link (every fact would be written where it leads, outside
    the data root, where backup and restore do not look) or is not a folder, or a collection's
    folder is a file (mkdir's bare "File exists" was the line before). A collection's folder that
    is a link is left to the write path: each write through it fails and is said."""
    try:
        mode = memory.lstat().st_mode
    except OSError:
        return
    if stat.S_ISLNK(mode):
        raise StorageFault(
            f"{memory} is a link (to {os.readlink(memory)}); the pet keeps its memory in the data "
            "root itself: put the folder there in place of the link, or point --home at the "
            "other place"
        )
    from shelldon.contracts.ops import COLLECTION_NAMES

    folders = [memory, memory / ARCHIVE_DIR, *(memory / c for c in COLLECTION_NAMES)]
    folders.extend(memory / ARCHIVE_DIR / c for c in COLLECTION_NAMES)
    for folder in folders:
        try:
            mode = folder.lstat().st_mode
        except OSError:
            continue
        if not stat.S_ISDIR(mode) and not stat.S_ISLNK(mode):
            raise StorageFault(
                f"{folder} is a file, not the pet's memory folder; move it away (the pet then "
                "makes the folder again), then start the pet again"
            )


# The files of the memory tree core alone writes (its index, its audit log, its episode log, its
# locks, the archive's search index): a directory, a symlink, a fifo at one of these paths is
# nobody's file core may write through (a symlink leads out of the data root; a directory made
# core's start fail on EISDIR, every start, and every fact after it unaudited).
CORE_FILES = (
    MEMORY_INDEX,
    AUDIT_LOG,
    EPISODES,
    WRITE_LOCK,
    AUDIT_LOCK,
    f"{ARCHIVE_DIR}/{ARCHIVE_INDEX}",
)


def set_aside_strays(memory: Path) -> list[str]:
    """Whatever is at one of `CORE_FILES` and is not a regular file, moved aside whole (renamed
    `<name>.aside-<UTC stamp>` beside it, never followed nor deleted: it may be the owner's) so
    that core makes its own file there again. One lstat each. The sentences for the owner."""
    said = []
    for name in CORE_FILES:
        path = memory / name
        try:
            st = path.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            continue
        kind = (
            "a link"
            if stat.S_ISLNK(st.st_mode)
            else "a folder"
            if stat.S_ISDIR(st.st_mode)
            else "not a file"
        )
        aside = path.with_name(f"{path.name}.aside-{utc_now().strftime('%Y%m%dT%H%M%SZ')}")
        try:
            os.replace(path, aside)
        except OSError as exc:
            log.error("%s is %s and could not be moved aside: %s", path, kind, exc)
            said.append(
                f"my memory folder's {name} is {kind}, not my file, and I could not move it aside "
                f"({exc.strerror}); what I write there fails until it is moved"
            )
            continue
        log.warning("%s was %s, not core's file; moved aside as %s", path, kind, aside.name)
        said.append(
            f"my memory folder's {name} was {kind}, not my file; I moved it aside as "
            f"{aside.name} and keep my own there again"
        )
    return said


def gone_at_start(root: DataRoot) -> list[str]:
    """What a pet that ran here before (state/core.boot, written at each start) finds gone at this
    start: history.db missing or emptied, memory/ missing (removed while it was stopped: a cleanup
    script, a card restored from the wrong image). The stores make new, empty ones, as on a first
    start; before, that was all, and the owner found out by the pet not remembering. Said once in
    the next reply, the paired chat and status (core.upkeep.store_watch.tell). A few stats."""
    if not (root.state / BOOT_MARK).exists():
        return []  # a first start: nothing was lost
    said = []
    try:
        empty = root.history_db.stat().st_size == 0
    except FileNotFoundError:
        empty = None
    except OSError:
        empty = False
    if empty is None or empty:
        what = "missing" if empty is None else "empty"
        said.append(
            f"history.db was {what} when I started, so I began a new one: what we said before "
            "is gone unless you `shelldon restore` a backup"
        )
    if _memory_gone(root.memory):
        said.append(
            "my memory folder was missing or emptied when I started, so I made a new, empty one: "
            "what you told me before is gone unless you `shelldon restore` a backup"
        )
    return said


def _memory_gone(memory: Path) -> bool:
    """No MEMORY.md (core writes it at every start) and no entry in any collection. By MEMORY.md,
    not by memory/ itself: `shelldon run` makes the folders before core starts."""
    from shelldon.contracts.ops import COLLECTION_NAMES
    from shelldon.paths import MEMORY_INDEX

    if os.path.lexists(memory / MEMORY_INDEX):
        return False
    for collection in COLLECTION_NAMES:
        with contextlib.suppress(OSError), os.scandir(memory / collection) as listing:
            if any(d.name.endswith(".md") for d in listing):
                return False
    return True


def check_data_root(home: Path, history_db: Path, memory: Path | None = None) -> None:
    """The checks, in the order a fault is most useful to hear: the root, then the files."""
    if home.is_dir():
        check_writable(home)
    check_history(history_db)
    if memory is not None:
        check_memory_path(memory)


# --- faults while running: a write that failed after the reply ----------------------------------

LOW_SPACE_BYTES: Final = 64 * 1024 * 1024  # below this `doctor` warns: a turn writes kilobytes
WRITE_FAILED: Final = "write_failed"  # core.turn.apply' reason code for an OSError while applying


def free_bytes(path: Path) -> int | None:
    """Free space for an unprivileged writer on the filesystem holding `path` (statvfs)."""
    try:
        stats = os.statvfs(path)
    except OSError:
        return None
    return stats.f_bavail * stats.f_frsize


def describe_free(path: Path) -> str:
    free = free_bytes(path)
    if free is None:
        return f"free space on {path}: unknown"
    return f"free space on {path}: {free / (1024 * 1024):.1f} MB"


class _Verdict(Protocol):  # core.turn.apply.OpVerdict, without importing the turn
    @property
    def op(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def reason_code(self) -> str: ...
    @property
    def reason(self) -> str: ...


class WriteFaults:
    """The last write that failed after a reply (ENOSPC, EIO, EROFS while applying an op).

    Core observes each applied turn: a failed write is told once in the next reply and once in the
    paired Telegram chat (the owner may not write again for hours), and shown in `status` until a
    later turn writes again (the pet never stops: each turn simply tries, so it resumes by itself
    when space returns). A Telegram turn's reply does not repeat what the chat was already sent."""

    def __init__(self, home: Path, *more: Path) -> None:
        self.home = home
        self.paths = (home, *more)  # each one's filesystem is reported once (memory/ may differ)
        self._lock = threading.Lock()
        self._fault: str | None = None
        self._unsaid = False  # owed to the next reply
        self._chat_owed = False  # owed to the paired chat (not yet queued for it)
        self._chat_queued = False  # queued for the paired chat

    def observe(self, verdicts: Iterable[_Verdict], at: str) -> None:
        verdicts = list(verdicts)
        failed = [v for v in verdicts if v.reason_code == WRITE_FAILED]
        with self._lock:
            if failed:
                first = failed[0]
                self._fault = f"{at}: {first.op} could not be written ({first.reason})"
                self._unsaid = self._chat_owed = True
                self._chat_queued = False
            elif any(v.action != "reject" for v in verdicts):
                # A write went through: resumed.
                self._fault, self._unsaid, self._chat_owed = None, False, False

    def take_unsaid(self, *, in_chat: bool = False) -> str | None:
        """The sentence for the next reply, once per fault. `in_chat`: the reply goes to the
        paired Telegram chat, which says nothing twice when the notice was queued for it."""
        with self._lock:
            if not self._unsaid:
                return None
            self._unsaid = False
            if in_chat and self._chat_queued:
                return None
        return self.sentence()

    def take_for_chat(self) -> str | None:
        """The notice for the paired chat, once per fault; `chat_not_told` if it could not be
        queued, so a later turn tries again."""
        with self._lock:
            if not self._chat_owed:
                return None
            self._chat_owed, self._chat_queued = False, True
        return self.sentence()

    def chat_not_told(self) -> None:
        with self._lock:
            if self._fault is not None:
                self._chat_owed, self._chat_queued = True, False

    def sentence(self) -> str:
        return (
            "Something you told me earlier could not be stored: writing to my data failed "
            f"({self.free_text()}); I will keep trying."
        )

    def free_text(self) -> str:
        seen: set[int] = set()
        parts: list[str] = []
        for path in self.paths:
            try:
                device = os.stat(path).st_dev
            except OSError:
                continue
            if device not in seen:
                seen.add(device)
                parts.append(describe_free(path))
        return "; ".join(parts) or describe_free(self.home)

    def status_lines(self) -> list[str]:
        with self._lock:
            fault = self._fault
        lines = [f"storage: {self.free_text()}"]
        if fault is not None:
            lines.append(f"storage: last write failed at {fault}")
        return lines
