"""What a killed core (or a full disk) leaves in the data root, settled at core's next start.

Core runs `recover` before it opens its stores, so before the journal's replay and before any
turn. It settles two kinds of leftovers:

- Temp files of an interrupted atomic write, in every directory the pet writes that way
  (`core.storage.layout.sweep_temp_files`): only the Rust writer's names, only of dead processes.
- A torn record at the end of an append-only file: the audit log (`memory/history.jsonl`) and
  `episodes.md`. The kernel ends a large write early when its writer is killed, and a full disk
  leaves a prefix; the Rust appender cuts back its own failed writes and starts a new record on a
  line of its own, but a killed writer cannot cut its own tail. So at start:
  - the audit log: a last line without its newline that still parses as a decision is kept and
    given its newline (only the newline was lost); anything else after the last newline is cut;
  - episodes.md: a last record that does not end with its blank line is cut from its header.
    The cut bytes are kept as an undo blob and the cut is an audit line (`op: repair`), so
    `shelldon memory undo` brings them back should they have been a hand edit, not a tear.
  A torn op's audit line is missing, so the journal's replay applies it again, whole.
- Torn entry files (empty, half an entry): set aside in the quarantine folder with their bytes,
  recovered from the audit log's last good version where it holds one (core.upkeep.torn_entries).

Every cut takes the file's flock first, as the appender does (rust/src/append.rs).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shelldon.core.memory.audit import AuditLog, AuditRecord, FileChange, sha256_hex
from shelldon.core.memory.reader import whole_episodes_length
from shelldon.core.storage import layout
from shelldon.core.upkeep.torn_entries import TornEntry, settle_torn_entries
from shelldon.paths import EPISODES, DataRoot

log = logging.getLogger(__name__)


@dataclass
class Recovered:
    """What `recover` settled (each list empty when there was nothing to do)."""

    temp_files: list[Path] = field(default_factory=list)
    cut: dict[str, int] = field(default_factory=dict)  # file name -> bytes cut
    completed: list[str] = field(default_factory=list)  # files whose last line got its newline
    torn_entries: list[TornEntry] = field(default_factory=list)  # set aside (and recovered)


def recover(root: DataRoot) -> Recovered:
    """Sweep temp files and settle torn tails. Never raises for a file it cannot fix (logged)."""
    done = Recovered(temp_files=layout.sweep_temp_files(root))
    audit = AuditLog(root.memory)
    try:
        _settle_audit_tail(audit, done)
        _settle_episodes_tail(audit, done)
    except OSError as exc:
        log.error("recovery: could not settle a torn tail: %s", exc)
    done.torn_entries = settle_torn_entries(root, audit)  # after the log's tail: it is read
    return done


def _locked_tail(path: Path, settle: Callable[[int, bytes], None]) -> None:
    """Open `path` and call `settle(fd, data)` under its flock; nothing when it is absent."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with open(fd, "rb", closefd=False) as fh:
            data = fh.read()
        settle(fd, data)
    finally:
        os.close(fd)


def _settle_audit_tail(audit: AuditLog, done: Recovered) -> None:
    def settle(fd: int, data: bytes) -> None:
        if not data or data.endswith(b"\n"):
            return
        whole = data.rfind(b"\n") + 1
        tail = data[whole:]
        if _parses(tail):
            os.write(fd, b"\n")  # O_APPEND is not set: the offset is the end after the read
            os.fsync(fd)
            done.completed.append(audit.path.name)
            log.warning("%s: the last decision had lost its newline; restored", audit.path.name)
            return
        os.ftruncate(fd, whole)
        os.fsync(fd)
        done.cut[audit.path.name] = len(tail)
        log.warning("%s: cut a torn last line (%d bytes)", audit.path.name, len(tail))

    _locked_tail(audit.path, settle)


def _parses(line: bytes) -> bool:
    try:
        AuditRecord.from_json(json.loads(line))
    except (ValueError, TypeError):
        return False
    return True


def _settle_episodes_tail(audit: AuditLog, done: Recovered) -> None:
    path = audit.root / EPISODES

    def settle(fd: int, data: bytes) -> None:
        whole = whole_episodes_length(data)
        if whole == len(data):
            return
        # Kept first, so the cut is undoable before it happens.
        audit.keep_blob(data)
        os.ftruncate(fd, whole)
        os.fsync(fd)
        cut = len(data) - whole
        done.cut[EPISODES] = cut
        log.warning("%s: cut a torn last record (%d bytes)", EPISODES, cut)
        audit.record(
            unit="core",
            op="repair",
            action="update",
            reason_code="torn",
            reason=f"cut a torn last record ({cut} bytes) an interrupted append left",
            changes=(FileChange(EPISODES, sha256_hex(data), sha256_hex(data[:whole])),),
        )

    _locked_tail(path, settle)
