"""Torn entry files found at core's start: set aside with their bytes, recovered where the audit log
can, and said.

An entry is replaced whole, by rename (core.storage.durability), so a torn one is a power cut before
the data reached the card, a full disk under a hand edit, or a copy cut short. Read as it is, it
became an inferred entry with default fields ("read as inferred with defaults"): an owner entry
lost its owner provenance that way, and stayed torn across restarts.

At start (core.upkeep.recovery, before the stores open), each collection's `*.md` is looked at: it
is torn when it is empty, not UTF-8, opens a front matter it never closes (or whose lines do not
parse), or is a pet-written entry (its front matter has the format key) cut short of the final
newline every rendered entry ends with. A torn file is:

1. copied as found to `<data root>/quarantine/<UTC stamp>/<collection>/<name>` (0700 / 0600), and
   kept as an undo blob, so `shelldon memory undo` can put it back;
2. replaced by the newest version the audit log still holds the bytes of (a version the log
   records for that file as written, whose content a later change kept in `memory/.undo/`), or,
   when there is none, removed from the tree so no defaulted entry stands in for it;
3. one audit line (`op: repair`, `reason_code: torn_entry`), a WARNING in the log, and a sentence
   for the owner's next reply, the paired chat and `status` (core.upkeep.store_watch carries it).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from shelldon.clock import compact, utc_now
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.memory.audit import AuditLog, FileChange, UndoError, sha256_hex
from shelldon.core.memory.entry import FENCE, FORMAT_KEY, parse_entry
from shelldon.core.storage import durability, layout
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TornEntry:
    target: str  # "<collection>/<name>.md", as the audit log names it
    size: int
    why: str
    kept_at: Path
    recovered_from: str | None  # the audit change whose version was put back, or None

    def sentence(self) -> str:
        where = f"quarantine/{self.kept_at.parent.parent.name}/{self.target}"
        if self.recovered_from is not None:
            return (
                f"the memory file {self.target} was torn ({self.why}); I put back its last good "
                f"version from my audit log and kept the torn bytes in {where}"
            )
        return (
            f"the memory file {self.target} was torn ({self.why}) and my audit log holds no good "
            f"version of it; I set it aside in {where}, so tell me again what it said"
        )


def torn_reason(data: bytes) -> str | None:
    """Why these bytes are not a whole entry, or None when they are (or are a hand-written one)."""
    if not data:
        return "0 bytes"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    if not text.startswith(FENCE):
        return None  # no front matter at all: a hand-written note, read as inferred
    entry = parse_entry(text, source="<torn check>")
    if entry.defaulted:
        return "its front matter is cut or unreadable"
    block = text.split(f"\n{FENCE}", 1)[0]
    if f"\n{FORMAT_KEY}:" in block and not text.endswith("\n"):
        return f"cut short at {len(data)} bytes"
    return None


def _candidates(memory: Path) -> Iterator[tuple[str, Path]]:
    for collection in COLLECTION_NAMES:
        directory = memory / collection
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.md")):
            if path.is_file() and not path.is_symlink():
                yield f"{collection}/{path.name}", path


def last_good_version(audit: AuditLog, target: str, torn_sha: str) -> tuple[str, bytes] | None:
    """(change id, bytes) of the newest version the log records for `target` whose bytes are kept
    and make a whole entry; None when there is none."""
    versions: list[tuple[str, str]] = []
    for rec in audit.records():
        for change in rec.file_changes:
            if change.target == target and change.after_sha256 is not None:
                versions.append((rec.id, change.after_sha256))
    for change_id, digest in reversed(versions):
        if digest == torn_sha:
            continue
        try:
            data = audit.read_blob(digest)
        except UndoError:
            continue
        if torn_reason(data) is None:
            return change_id, data
    return None


def settle_torn_entries(
    root: DataRoot, audit: AuditLog, now: datetime | None = None
) -> list[TornEntry]:
    """Set aside and recover every torn entry under `root.memory`. Never raises for one file it
    cannot settle (logged; the others are still settled)."""
    now = now or utc_now()
    found: list[TornEntry] = []
    for target, path in _candidates(root.memory):
        try:
            data = path.read_bytes()
        except OSError as exc:
            log.error("recovery: cannot read %s: %s", target, exc)
            continue
        why = torn_reason(data)
        if why is None:
            continue
        try:
            found.append(_settle(root, audit, target, path, data, why, now))
        except OSError as exc:
            log.error("recovery: could not set the torn %s aside: %s", target, exc)
    return found


def _settle(
    root: DataRoot,
    audit: AuditLog,
    target: str,
    path: Path,
    data: bytes,
    why: str,
    now: datetime,
) -> TornEntry:
    stamp = compact(now) + "Z"
    kept_at = root.quarantine / stamp / target
    layout.ensure_dir(root.quarantine, layout.PRIVATE_MODE)
    layout.ensure_dir(root.quarantine / stamp, layout.PRIVATE_MODE)
    layout.ensure_dir(kept_at.parent, layout.PRIVATE_MODE)
    durability.replace_file(kept_at, data, layout.PRIVATE_FILE_MODE)
    torn_sha = audit.keep_blob(data)  # undoable: `memory undo` puts the torn bytes back
    good = last_good_version(audit, target, torn_sha)
    if good is not None:
        change_id, content = good
        durability.replace_file(path, content, layout.FILE_MODE)
        after: str | None = sha256_hex(content)
        reason = f"torn ({why}); restored the version of change {change_id}"
    else:
        change_id = None
        os.unlink(path)
        durability.sync_dir(path.parent)
        after = None
        reason = f"torn ({why}); no good version kept: set aside"
    audit.record(
        unit="core",
        op="repair",
        action="update" if good is not None else "delete",
        reason_code="torn_entry",
        reason=reason,
        changes=(FileChange(target, torn_sha, after),),
    )
    log.warning("recovery: %s: %s; the torn bytes are in %s", target, reason, kept_at)
    return TornEntry(target, len(data), why, kept_at, change_id)
