"""A store that vanished or changed under the running pet: noticed at the next write, said, mended.

Core opens history.db and the memory tree once, at start. Removed or swapped while core runs (`rm
-rf memory/`, `rm history.db`, a copy put over it), they used to fail unheard: the pet kept
committing turns into history.db's deleted inode (gone at the stop) and refused every fact after
the first as `invalid`, with no audit line (the audit log went with the tree), while its replies
said "I'll remember that".

`StoreWatch.check()` runs before each turn's writes. It compares each store's identity as core
opened it (device and inode) with what the path names now, and for history.db also reads the open
file's link count (fstat through /proc/self/fd: 0 once unlinked). What it does:

- **memory tree removed or replaced**: rebuilt in place from what is left (its directories, then
  MEMORY.md from the entries found); this turn's facts are stored in it and audited again.
- **a collection's folder removed** (`rm -rf memory/facts`): made again, said.
- **history.db unlinked**: rebuilt from the copy core still has open (sqlite's backup of the
  deleted inode, which holds every acknowledged turn), put back at the path and adopted by the
  open handle: nothing is lost.
- **history.db replaced** by another file: that file is not core's to overwrite, so turns are
  refused (not saved, and the reply says so) until core is restarted on it (`shelldon restart`);
  what core had open is copied beside it first (`history.db.detached-<time>`), so no acknowledged
  turn is lost either, and the open handle moves to that copy (its WAL must not stay beside the
  new file: sqlite would read it as that file's).
- **its -wal or -shm unlinked** (`rm history.db-wal`; or history.db emptied in place, which makes
  the next connection that opens it delete the WAL): every turn since the last checkpoint lives
  only in the WAL core still has open, so it is rebuilt from core's copy like an unlinked
  history.db. Found by the open file's name in /proc/self/fd ("... (deleted)").
- **history.db emptied in place** (same inode; `: > history.db`, smaller than one page): rebuilt
  from core's copy when that copy passes sqlite's quick_check (every page was still in the WAL),
  else put at the path for `shelldon repair` and turns refused. A valid database copied over it in
  place (`cp other.db history.db`) is not noticed: telling it apart would mean reading the file
  each turn, and core must not open its own database outside sqlite (see `emptied`).

Each event is told once in the next reply, once in the paired Telegram chat (through the same
notice path as a failed write), and stays in `status` and `doctor` (`storage: store changed: ...`)
until core restarts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from shelldon.clock import utc_now
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import layout
from shelldon.paths import ARCHIVE_DIR, DataRoot

log = logging.getLogger("shelldon.core.upkeep.store_watch")

STATUS_PREFIX = "storage: store changed: "


@dataclass(frozen=True)
class Identity:
    device: int
    inode: int


def identity_of(path: Path) -> Identity | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return Identity(st.st_dev, st.st_ino)


def open_links(ident: Identity) -> int | None:
    """The link count of the file this process has open as `ident` (fstat of its fd, found in
    /proc/self/fd: a deleted file is still reachable there), or None when none is open."""
    fds = Path("/proc/self/fd")
    with contextlib.suppress(OSError):
        for fd in fds.iterdir():
            with contextlib.suppress(OSError):
                st = os.stat(fd)
                if (st.st_dev, st.st_ino) == (ident.device, ident.inode):
                    return st.st_nlink
    return None


def _our_sidecars(db: Path) -> list[tuple[Path, Identity]]:
    """The -wal and -shm beside `db` that this process has open (so core's, not the new file's)."""
    found = []
    for suffix in ("-wal", "-shm"):
        side = db.with_name(db.name + suffix)
        ident = identity_of(side)
        if ident is not None and open_links(ident) is not None:
            found.append((side, ident))
    return found


def deleted_sidecars(db: Path) -> list[str]:
    """The -wal and -shm of `db` that this process still has open after they were unlinked: what
    core commits goes into a file nobody will open again."""
    gone = {f"{db}{suffix} (deleted)" for suffix in ("-wal", "-shm")}
    found = []
    fds = "/proc/self/fd"
    with contextlib.suppress(OSError):
        for fd in os.listdir(fds):
            with contextlib.suppress(OSError):
                target = os.readlink(f"{fds}/{fd}")
                if target in gone:
                    found.append(target.removesuffix(" (deleted)").rsplit("-", 1)[1])
    return sorted(set(found))


SMALLEST_DATABASE = 512  # sqlite's smallest page: a database file holds at least page 1


def emptied(db: Path) -> bool:
    """Whether the file at `db` lost its pages (`: > history.db`). By stat, never by opening it:
    closing any descriptor of a file drops every POSIX lock this process holds on it, sqlite's
    included, and then another connection's close would take this one's WAL for its own."""
    try:
        return db.stat().st_size < SMALLEST_DATABASE
    except OSError:
        return False


def _remove(files: list[tuple[Path, Identity]]) -> None:
    for path, ident in files:
        if identity_of(path) == ident:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _quick_check_ok(db: Path) -> bool:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return bool(conn.execute("PRAGMA quick_check").fetchone() == ("ok",))
    except sqlite3.Error:
        return False


class StoreWatch:
    """Core's watch on its two stores; thread-safe (turns and the Telegram poller's turns)."""

    def __init__(self, root: DataRoot, history: HistoryStore | None, memory: CuratedMemory | None):
        self.root = root
        self.history = history
        self.memory = memory
        self._lock = threading.Lock()
        self._history_id = identity_of(root.history_db) if history is not None else None
        self._memory_id = identity_of(root.memory) if memory is not None else None
        self.history_refused: str | None = None  # why turns are not saved, until a restart
        self.events: list[str] = []  # for status, until core restarts
        self._unsaid: list[str] = []  # owed to the next reply
        self._chat_owed: list[str] = []  # owed to the paired chat

    def check(self) -> list[str]:
        """Before a turn's writes: what changed since the last look, each already dealt with."""
        with self._lock:
            found = [*self._check_memory(), *self._check_history()]
            for event in found:
                log.error("storage: %s", event)
            self.events.extend(found)
            self._unsaid.extend(found)
            self._chat_owed.extend(found)
            return found

    def _check_memory(self) -> list[str]:
        if self.memory is None or self._memory_id is None:
            return []
        now = identity_of(self.root.memory)
        if now == self._memory_id:
            return self._check_folders()
        what = "removed" if now is None else "replaced"
        try:
            left = self.memory.rebuild_tree(layout.readers_gid(self.root))
        except OSError as exc:  # the writes fail too, and are told as failed writes
            return [f"my memory folder was {what} and could not be made again ({exc.strerror})"]
        self._memory_id = identity_of(self.root.memory)
        if now is None:
            return [
                "my memory folder was deleted while I was running; I made it again, empty, and "
                "keep what you tell me from now on (what was in it is gone unless you "
                "`shelldon restore` a backup)"
            ]
        return [
            f"my memory folder was replaced while I was running; I took it as it is now "
            f"({left} entries in it)"
        ]

    def _check_folders(self) -> list[str]:
        """A collection's folder removed (`rm -rf memory/facts`) is made again, and said: before,
        every fact for it was refused as an invalid op, unaudited, under "I'll remember that"."""
        assert self.memory is not None
        memory = self.root.memory
        folders = [
            *(memory / c for c in COLLECTION_NAMES),
            *(memory / ARCHIVE_DIR / c for c in COLLECTION_NAMES),
        ]
        gone = [f for f in folders if not os.path.lexists(f)]
        if not gone:
            return []
        names = ", ".join(f"{f.relative_to(memory)}/" for f in gone)
        try:
            self.memory.rebuild_tree(layout.readers_gid(self.root))
        except OSError as exc:  # the writes fail too, and are told as failed writes
            return [
                f"my memory folder's {names} was deleted and could not be made again "
                f"({exc.strerror})"
            ]
        return [
            f"my memory folder's {names} was deleted while I was running; I made it again and "
            "keep what you tell me from now on (what was in it is gone unless you `shelldon "
            "restore` a backup)"
        ]

    def _check_history(self) -> list[str]:
        if self.history is None or self._history_id is None or self.history_refused:
            return []
        path = self.root.history_db
        now = identity_of(path)
        if now == self._history_id:
            return self._check_in_place(path)
        links = open_links(self._history_id)
        log.warning(
            "storage: %s now %s; the file core has open has %s links",
            path,
            "absent" if now is None else f"inode {now.inode}",
            "no" if links is None else links,
        )
        if now is None:  # unlinked: nobody else's file is at the path, so ours goes back there
            return [self._rebuild_history(path)]
        return [self._refuse_history(path)]

    def _check_in_place(self, path: Path) -> list[str]:
        """The same file at the path: its sidecars unlinked, or its bytes emptied under core."""
        if emptied(path):
            log.warning("storage: %s was emptied in place", path)
            return [self._rebuild_history(path, "history.db was emptied", checked=True)]
        gone = deleted_sidecars(path)
        if gone:
            log.warning("storage: %s's %s deleted while core had it open", path, "/".join(gone))
            return [self._rebuild_history(path, f"history.db-{gone[0]} was deleted")]
        return []

    def _rebuild_history(
        self, path: Path, event: str = "history.db was deleted", checked: bool = False
    ) -> str:
        """Core's open copy put back at the path. `checked`: the copy may have lost pages with the
        file (only what was in the WAL is sure), so sqlite's quick_check must pass first."""
        assert self.history is not None
        rebuilt = path.with_name(f"{path.name}.rebuild-{os.getpid()}")
        try:
            with contextlib.suppress(FileNotFoundError):
                rebuilt.unlink()
            self.history.copy_to(rebuilt)
            if checked and not _quick_check_ok(rebuilt):
                return self._refuse_damaged(path, rebuilt, event)

            def swap() -> None:
                for leftover in (path.name + "-wal", path.name + "-shm"):
                    # The deleted file's WAL must not be replayed into the copy.
                    with contextlib.suppress(FileNotFoundError):
                        path.with_name(leftover).unlink()
                os.replace(rebuilt, path)

            self.history.reopen(swap)
        except (OSError, RuntimeError, ValueError, sqlite3.Error) as exc:
            self.history_refused = f"{event} and could not be rebuilt ({exc})"
            if checked:  # the file is empty: a restart starts a new history on it
                return (
                    f"{self.history_refused}; what it held is gone unless you `shelldon restore` "
                    "a backup; I am not saving turns until I am restarted (`shelldon restart`)"
                )
            return (
                f"{self.history_refused}; I am not saving turns until I am restarted "
                "(`shelldon restart`)"
            )
        self._history_id = identity_of(path)
        return (
            f"{event} while I was running; I rebuilt it from the copy I still had open, so nothing "
            "we said is lost"
        )

    def _refuse_damaged(self, path: Path, copy: Path, event: str) -> str:
        """An emptied history.db whose open copy lost pages too (those not in the WAL). The copy
        goes at the path, over the emptied file (ours, nothing left in it), without core's
        sidecars: `shelldon repair` salvages its rows there. Turns are refused (not saved, and
        said) until then: the handle is left on the old file, which nobody will open again."""
        _remove(_our_sidecars(path))
        os.replace(copy, path)
        self._history_id = identity_of(path)
        self.history_refused = f"{event} while I was running and my copy is damaged"
        return (
            f"{self.history_refused}; I am not saving turns until it is repaired (stop me, run "
            "`shelldon repair`, then start me again)"
        )

    def _refuse_history(self, path: Path) -> str:
        assert self.history is not None
        stamp = utc_now().strftime("%Y%m%dT%H%M%SZ")
        kept = path.with_name(f"{path.name}.detached-{stamp}")
        try:
            self.history.copy_to(kept)
            # Off the path: the -wal core's connection left there would be read as the new file's
            # (sqlite opens a -wal beside any non-empty database), and a close whose database was
            # replaced leaves it behind. What still writes through this handle (the poller's
            # state, recall's index) goes to the copy aside.
            ours = _our_sidecars(path)
            self.history.reopen(lambda: _remove(ours), path=kept)
            saved = f"what I had is kept in {kept.name}"
        except (OSError, RuntimeError, sqlite3.Error) as exc:
            saved = f"and what I had could not be copied aside ({exc})"
        self.history_refused = "history.db was replaced by another file while I was running"
        return (
            f"{self.history_refused}; I am not saving turns into it until I am restarted on it "
            f"(`shelldon restart`); {saved}"
        )

    def tell(self, events: list[str]) -> None:
        """Events found elsewhere (torn entries at start: core.upkeep.torn_entries), told alike."""
        with self._lock:
            self.events.extend(events)
            self._unsaid.extend(events)
            self._chat_owed.extend(events)

    def take_unsaid(self) -> str | None:
        """The sentence for the next reply, once per event."""
        with self._lock:
            said, self._unsaid = self._unsaid, []
        return " ".join(f"Careful: {event}." for event in said) or None

    def take_for_chat(self) -> str | None:
        with self._lock:
            said, self._chat_owed = self._chat_owed, []
        return " ".join(f"Careful: {event}." for event in said) or None

    def chat_not_told(self, notice: str) -> None:
        with self._lock:
            self._chat_owed.insert(0, notice.removeprefix("Careful: ").rstrip("."))

    def status_lines(self) -> list[str]:
        with self._lock:
            lines = [f"{STATUS_PREFIX}{event}" for event in self.events]
            if self.history_refused:
                lines.append(f"{STATUS_PREFIX}turns are not saved: {self.history_refused}")
            return lines
