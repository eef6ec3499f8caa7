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

Over 400 lines: each class of change to the two stores is found and mended here, under one lock,
because the mends share the rebuild from core's open copy and the refusal that keeps it aside.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
import threading
from dataclasses import dataclass
from pathlib import Path

from shelldon.clock import utc_now
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import check as storage_check
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


def _clear(side: Path) -> None:
    """A -wal or -shm path emptied for a rebuilt history.db: a file (or a symlink) unlinked, what
    is no sidecar at all (a directory put there) moved aside whole, for its owner to look at."""
    try:
        st = side.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        stamp = utc_now().strftime("%Y%m%dT%H%M%SZ")
        os.replace(side, side.with_name(f"{side.name}.aside-{stamp}"))
    else:
        side.unlink()


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
        self._sidecar_sizes: dict[Identity, int] = {}  # the largest size seen of core's -wal
        if history is not None:
            self._shrunk_wal(root.history_db)  # from the start: a cut before the first turn too
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
        if self.root.memory.is_symlink():  # even to the very folder core opened, moved away
            return [self._memory_link_aside()]
        now = identity_of(self.root.memory)
        if now == self._memory_id:
            return self._check_folders()
        what = "removed" if now is None else "replaced"
        try:
            left = self.memory.rebuild_tree(layout.readers_gid(self.root))
        except OSError as exc:  # the writes fail too, and are told as failed writes
            self._memory_id = now  # said once (it was said every turn); a later change is new
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

    def _memory_link_aside(self) -> str:
        """memory/ replaced by a link (to a folder inside the data root or out of it): rebuilt in
        place, the tree would be made and every fact written where the link leads, out of the
        data root. The link is moved aside (`memory.aside-<UTC stamp>`, what it points at left
        untouched) and the tree made again, empty, here."""
        assert self.memory is not None
        memory = self.root.memory
        aside = memory.with_name(f"memory.aside-{utc_now().strftime('%Y%m%dT%H%M%SZ')}")
        try:
            os.replace(memory, aside)
            self.memory.rebuild_tree(layout.readers_gid(self.root))
        except OSError as exc:  # the writes fail too, and are told as failed writes
            return (
                f"my memory folder was replaced by a link and could not be made again "
                f"({exc.strerror})"
            )
        self._memory_id = identity_of(memory)
        return (
            f"my memory folder was replaced by a link while I was running; I moved the link aside "
            f"as {aside.name} and made the folder again, empty: I keep what you tell me from now "
            "on here, in my own folder"
        )

    def _check_folders(self) -> list[str]:
        """A collection's folder removed (`rm -rf memory/facts`) is made again, and said: before,
        every fact for it was refused as an invalid op, unaudited, under "I'll remember that"."""
        assert self.memory is not None
        memory = self.root.memory
        folders = [
            *(memory / c for c in COLLECTION_NAMES),
            *(memory / ARCHIVE_DIR / c for c in COLLECTION_NAMES),
        ]
        strays = storage_check.set_aside_strays(memory)
        gone = [f for f in folders if not os.path.lexists(f)]
        if not gone:
            return strays
        names = ", ".join(f"{f.relative_to(memory)}/" for f in gone)
        try:
            self.memory.rebuild_tree(layout.readers_gid(self.root))
        except OSError as exc:  # the writes fail too, and are told as failed writes
            return [
                *strays,
                f"my memory folder's {names} was deleted and could not be made again "
                f"({exc.strerror})",
            ]
        return [
            *strays,
            f"my memory folder's {names} was deleted while I was running; I made it again and "
            "keep what you tell me from now on (what was in it is gone unless you `shelldon "
            "restore` a backup)",
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
        cut = self._shrunk_wal(path)
        if cut:
            log.warning("storage: %s was cut short in place while core had it open", cut)
            return [self._rebuild_history(path, f"{cut} was emptied or cut short", checked=True)]
        return []

    def _shrunk_wal(self, db: Path) -> str | None:
        """The name of core's -wal when it is smaller than it was (`: > history.db-wal`, a cleanup
        script's truncate). While core has the database open its WAL never shrinks: sqlite
        restarts it from the top after a checkpoint but truncates it only at the last close (and
        core sets no journal_size_limit). Once cut, what core committed since the last checkpoint
        lives only in its page cache, and core's next commit would write frames past the hole
        that the checkpoint at the stop copies into history.db as pages of zeros: every turn
        since the last checkpoint gone, none of it said. One stat a turn."""
        wal = db.with_name(db.name + "-wal")
        try:
            st = wal.lstat()
        except OSError:
            return None
        ident = Identity(st.st_dev, st.st_ino)
        seen = self._sidecar_sizes.get(ident)
        self._sidecar_sizes = {ident: max(st.st_size, seen or 0)}
        if seen is None or st.st_size >= seen:
            return None
        return wal.name

    def _rebuild_history(
        self, path: Path, event: str = "history.db was deleted", checked: bool = False
    ) -> str:
        """Core's open copy put back at the path. `checked`: the copy may have lost pages with the
        file (only what was in the WAL, or in core's page cache, is sure), so sqlite's quick_check
        must pass first."""
        assert self.history is not None
        rebuilt = path.with_name(f"{path.name}.rebuild-{os.getpid()}")
        closed = False
        try:
            with contextlib.suppress(FileNotFoundError):
                rebuilt.unlink()
            self.history.copy_to(rebuilt)
            if checked and not _quick_check_ok(rebuilt):
                if event.startswith("history.db-wal"):
                    return self._refuse_cut_wal(path, rebuilt, event)
                return self._refuse_damaged(path, rebuilt, event)

            def swap() -> None:
                nonlocal closed
                closed = True
                for leftover in (path.name + "-wal", path.name + "-shm"):
                    # The deleted file's WAL must not be replayed into the copy.
                    _clear(path.with_name(leftover))
                os.replace(rebuilt, path)

            self.history.reopen(swap)
        except (OSError, RuntimeError, ValueError, sqlite3.Error) as exc:
            self.history_refused = f"{event} and could not be rebuilt ({exc})"
            kept = ""
            if closed and rebuilt.exists():
                # The handle's connection is closed: it moves to the copy aside, so what still
                # writes through it (the poller's state, recall's index) has a file, not an error.
                with contextlib.suppress(OSError, RuntimeError, sqlite3.Error):
                    self.history.reopen(lambda: None, path=rebuilt)
                kept = f"; what I had is kept in {rebuilt.name}"
            if checked and not event.startswith("history.db-wal"):
                # the file is empty: a restart starts a new history on it
                return (
                    f"{self.history_refused}; what it held is gone unless you `shelldon restore` "
                    f"a backup{kept}; I am not saving turns until I am restarted (`shelldon "
                    "restart`)"
                )
            return (
                f"{self.history_refused}{kept}; I am not saving turns until I am restarted "
                "(`shelldon restart`)"
            )
        self._history_id = identity_of(path)
        self._sidecar_sizes = {}  # a new WAL, maybe with the old one's inode number
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

    def _refuse_cut_wal(self, path: Path, copy: Path, event: str) -> str:
        """A WAL cut short whose open copy lost pages too. history.db itself holds every turn up to
        the last checkpoint, and what is left of the WAL sqlite replays up to its last whole commit
        at the next open: both stay. The copy is kept aside (more rows may be read from it by
        `shelldon repair` on it). Turns are refused, so no turn is written into the cut WAL (a
        commit there is what turned it into pages of zeros); the handle stays (a damaged copy
        would not open)."""
        stamp = utc_now().strftime("%Y%m%dT%H%M%SZ")
        kept = path.with_name(f"{path.name}.detached-{stamp}")
        os.replace(copy, kept)
        self.history_refused = f"{event} while I was running and my copy is damaged"
        return (
            f"{self.history_refused}; turns since my last checkpoint may be lost (what I could "
            f"still read is kept in {kept.name}); I am not saving turns until I am restarted "
            "(`shelldon restart`)"
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
