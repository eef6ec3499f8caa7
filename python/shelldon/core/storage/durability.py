"""One sync for a turn's writes: when the files core writes become durable.

Outside a batch every file core writes is durable on its own: an atomic replace fsyncs the temp
file and then its directory, an append fsyncs the file (rust/src/atomic.rs, append.rs). One memory
op writes the entry, its undo blob, MEMORY.md and an audit line: up to seven fsyncs.

Inside `one_sync(anchor)` the writes made through this module skip their fsyncs and the batch
ends with one syncfs(2) of the filesystem holding `anchor`. core.turn.apply opens one around
applying a journaled turn's items, after the reply, and clears the journal row only once it has
ended (docs/reliability.md, "One sync per turn"). What that costs in safety, and why it is none:

- a killed core: the kernel still holds everything it wrote, in the order it wrote it. The row
  is replayed at the next start and every item whose audit line is there is skipped, as always;
- a power cut before the sync ended: any unsynced write may be lost, an audit line among them
  kept while the file it describes is not. The row is still journaled (its clear comes after the
  sync), and core, which finds that the machine booted since it last started (`booted_since`),
  replays it trusting an item's audit lines only where the files they name are as the lines say
  (core.turn.journal.replay, core.memory.audit.AuditLog.applied_journal_ids).

Only core applying a turn batches: the CLI, the dream and a replay write durably, file by file.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from shelldon import _native
from shelldon.clock import read_boot_id
from shelldon.paths import BOOT_MARK

log = logging.getLogger(__name__)


class SyncFailed(OSError):
    """The syncfs that ends a batch failed: what it covered may not survive a power cut."""


@dataclass
class _Batch:
    anchor: Path
    pending: bool = False


_BATCH: ContextVar[_Batch | None] = ContextVar("shelldon_sync_batch", default=None)


def batching() -> bool:
    """True inside `one_sync`: writes are made durable when the batch ends, not one by one."""
    return _BATCH.get() is not None


@contextlib.contextmanager
def one_sync(anchor: Path) -> Iterator[None]:
    """Writes inside are durable when this exits normally (one syncfs of `anchor`'s filesystem;
    SyncFailed when it fails). A nested batch joins the outer one."""
    if _BATCH.get() is not None:
        yield
        return
    batch = _Batch(Path(anchor))
    token = _BATCH.set(batch)
    try:
        yield
    finally:
        _BATCH.reset(token)
    # Only on a normal exit: a batch cut by an exception leaves its journal row to the replay.
    if batch.pending:
        try:
            _native.sync_filesystem(batch.anchor)
        except OSError as exc:
            raise SyncFailed(exc.errno, exc.strerror, str(batch.anchor)) from exc


def _wrote() -> bool:
    """Note a write for the current batch; True when there is one (the write may skip its fsync)."""
    batch = _BATCH.get()
    if batch is None:
        return False
    batch.pending = True
    return True


def replace_file(path: Path, data: bytes, mode: int) -> None:
    """Replace `path` atomically: durable now, or when the current batch ends."""
    _native.atomic_write(path, data, mode, durable=not _wrote())


def append_record(path: Path, data: bytes, mode: int) -> int:
    """Append one record (ending with a newline): durable now, or when the current batch ends.
    Returns the file's new size."""
    return _native.durable_append(path, data, mode, durable=not _wrote())


def sync_dir(path: Path) -> None:
    """After an unlink or rename in `path`: the directory fsynced now, or when the batch ends."""
    if not _wrote():
        _native.fsync_dir(path)


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
