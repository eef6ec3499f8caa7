"""One sync for a turn's writes: when the files core writes become durable.

Outside a batch every file core writes is durable on its own: an atomic replace fsyncs the temp
file and then its directory, an append fsyncs the file (rust/src/atomic.rs, append.rs). One memory
op writes the entry, its undo blob, MEMORY.md and an audit line: up to seven fsyncs.

Inside `one_sync()` the writes made through this module skip their fsyncs and are noted; the
batch ends by fsyncing what it wrote, each once: every file still there, then every directory
whose entries it changed (a replace's rename, an append that made its file, an unlink, a
directory made by `ensure_dir`). Only those: a syncfs(2) of the whole file system, which this
used to be, also wrote back every other dirty page on it (sqlite's mmapped -shm above all) and
forced a full journal commit once per turn; on the card that was wear for nothing
(docs/performance.md, "What reaches the SD card"). core.turn.apply opens one around applying a
journaled turn's items, after the reply, and clears the journal row only once it has ended
(docs/reliability.md, "One sync per turn"). What that costs in safety, and why it is none:

- a killed core: the kernel still holds everything it wrote, in the order it wrote it. The row
  is replayed at the next start and every item whose audit line is there is skipped, as always;
- a power cut before the sync ended: any unsynced write may be lost, an audit line among them
  kept while the file it describes is not. The row is still journaled (its clear comes after the
  sync), and core, which finds that the machine booted since it last started (`booted_since`),
  replays it trusting an item's audit lines only where the files they name are as the lines say
  (core.turn.journal.replay, core.memory.audit.AuditLog.applied_journal_ids).

A write inside a batch that does not go through this module is not covered: core's memory and
audit writers use only these calls (tests/core/storage/test_durability.py reads the fsyncs a
batch makes with strace). Only core applying a turn batches: the CLI, the dream and a replay write
durably, file by file.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from shelldon import _native
from shelldon.clock import read_boot_id
from shelldon.core.storage import layout
from shelldon.paths import BOOT_MARK

log = logging.getLogger(__name__)


class SyncFailed(OSError):
    """An fsync that ends a batch failed: what it covered may not survive a power cut."""


@dataclass
class _Batch:
    # Insertion-ordered sets: the files in the order first written, then the directories.
    files: dict[Path, None] = field(default_factory=dict)
    dirs: dict[Path, None] = field(default_factory=dict)

    def sync(self) -> None:
        for file in self.files:
            try:
                fd = os.open(file, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                continue  # unlinked later in the batch: its directory's fsync covers that
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        for directory in self.dirs:
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


_BATCH: ContextVar[_Batch | None] = ContextVar("shelldon_sync_batch", default=None)


def batching() -> bool:
    """True inside `one_sync`: writes are made durable when the batch ends, not one by one."""
    return _BATCH.get() is not None


@contextlib.contextmanager
def one_sync() -> Iterator[None]:
    """Writes inside are durable when this exits normally (each file written and each directory
    changed fsynced once; SyncFailed when one fails). A nested batch joins the outer one."""
    if _BATCH.get() is not None:
        yield
        return
    batch = _Batch()
    token = _BATCH.set(batch)
    try:
        yield
    finally:
        _BATCH.reset(token)
    # Only on a normal exit: a batch cut by an exception leaves its journal row to the replay.
    try:
        batch.sync()
    except OSError as exc:
        raise SyncFailed(exc.errno, exc.strerror, exc.filename) from exc


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def replace_file(path: Path, data: bytes, mode: int) -> None:
    """Replace `path` atomically: durable now, or when the current batch ends."""
    path = _absolute(path)
    batch = _BATCH.get()
    _native.atomic_write(path, data, mode, durable=batch is None)
    if batch is not None:
        batch.files[path] = None
        batch.dirs[path.parent] = None  # the rename


def append_record(path: Path, data: bytes, mode: int) -> int:
    """Append one record (ending with a newline): durable now, or when the current batch ends
    (with its directory when the append made the file). Returns the file's new size."""
    path = _absolute(path)
    batch = _BATCH.get()
    if batch is None:
        return _native.durable_append(path, data, mode, durable=True)
    made = not path.exists()  # core is the only writer of what it batches
    size = _native.durable_append(path, data, mode, durable=False)
    batch.files[path] = None
    if made:
        batch.dirs[path.parent] = None
    return size


def sync_dir(path: Path) -> None:
    """After an unlink or rename in `path`: the directory fsynced now, or when the batch ends."""
    path = _absolute(path)
    batch = _BATCH.get()
    if batch is None:
        _native.fsync_dir(path)
    else:
        batch.dirs[path] = None


def ensure_dir(path: Path, mode: int) -> None:
    """`layout.ensure_dir`, and each directory it made durable in its parent: now, or when the
    current batch ends."""
    path = _absolute(path)
    missing = []
    here = path
    while not here.is_dir():
        missing.append(here)
        here = here.parent
    layout.ensure_dir(path, mode)
    for made in reversed(missing):  # the outermost first, as they were made
        sync_dir(made.parent)


def current_boot() -> str | None:
    """This boot's id (Linux), or None when it cannot be read."""
    return read_boot_id() or None


def booted_since(state_dir: Path, file_mode: int) -> bool:
    """Whether the machine may have booted since core last started with this data root: then a
    write it left unsynced may be lost. True when that cannot be told (no mark, no boot id).
    Records this boot for the next start (durably, so a cut cannot bring back an older mark)."""
    current = current_boot()
    mark = state_dir / BOOT_MARK
    try:
        last: str | None = mark.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        last = None
    if current is not None and current != last:
        try:
            _native.atomic_write(mark, current.encode("ascii"), file_mode)
        except OSError as exc:  # the next start checks files again: safe, only slower
            log.warning("could not record this boot in %s: %s", mark, exc)
    return current is None or current != last
