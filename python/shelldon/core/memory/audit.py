"""The audit log of curated memory: `memory/history.jsonl`, one JSON line per decision, and undo.

Every decision the gate takes (accepted or refused) is one line: when, which unit of work
("turn-<id>", "dream-<n>", "cli", "owner-rule"), the op, the action, the reason, the target, and
sha256 of the target before and after. What undo needs is kept beside it: the prior content of a
replaced or deleted file as a content-addressed blob in `memory/.undo/` (core.memory.blobs: 0700,
so a worker cannot read what the owner asked to forget), and for an append only the prior size.

Nothing secret is written here: a refused text is never stored, only a redacted preview that the
caller blanked, and reasons carry rule ids, not matches.

A decision taken while applying a journaled turn's op (core.turn.journal) carries that op's journal
id (`"journal": "<row>.<item>"`): at core start, a replay skips the ids already here.

The log is appended with one fsync per line (the Rust `durable_append`; while core applies a
turn's items, one fsync for the log at the end with its files': core.storage.durability) and
rotated at 1 MB into `history.1.jsonl` … `history.<KEEP>.jsonl`; blobs no kept line refers to are
dropped at rotation.
A line torn by a killed writer is skipped by the reader and cut at core's next start
(core.upkeep.recovery); the appender never glues a line onto one.

Over 400 lines: the record format, the writer (lock, rotation, blob bookkeeping) and undo all
work on the same lines and blobs; undo needs the writer's lock and rotation's view of which blobs
are kept, so they are one module around one AuditLog.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from shelldon import _native, digests
from shelldon.clock import compact, iso, utc_now
from shelldon.core.memory.blobs import BlobDamaged, BlobMissing, BlobStore
from shelldon.core.memory.blobs import sha256_hex as sha256_hex  # its home is blobs
from shelldon.core.reasons import ReasonCode, reason_code
from shelldon.core.storage import durability, layout
from shelldon.paths import AUDIT_LOCK, AUDIT_LOG, UNDO_DIR

log = logging.getLogger(__name__)

ROTATE_BYTES = 1_000_000
KEEP_ROTATED = 4
PREVIEW_CHARS = 80
BLOB_GRACE_S = 3600.0

# Files an undo may touch, relative to the memory root. DIRECTIVE.md, vault/, MEMORY.md, the log
# and the blob store are deliberately absent: a tampered log line cannot aim undo at them.
_UNDOABLE = re.compile(
    r"(?:about|summary|episodes)\.md"
    r"|(?:archive/)?(?:facts|people|preferences|capabilities)/[^/\x00]+\.md"
)
_SHA256 = re.compile(r"[0-9a-f]{64}")

# The journal id of the op being applied on this thread (core.turn.journal), stamped on every line
# written meanwhile, whoever writes it (the gate's writer, core.turn.apply): see journal_scope.
_JOURNAL_ID: ContextVar[str | None] = ContextVar("shelldon_audit_journal_id", default=None)


@contextlib.contextmanager
def journal_scope(journal_id: str) -> Iterator[None]:
    """Every audit line written inside carries `journal_id`."""
    token = _JOURNAL_ID.set(journal_id)
    try:
        yield
    finally:
        _JOURNAL_ID.reset(token)


class UndoError(Exception):
    """An undo that cannot be done as asked; the message says why and what to do."""


def redacted_preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """One line, at most `limit` characters. The caller blanks secrets first; this only trims."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class FileChange:
    """One file's change inside a decision. `before_size` is set for appends (undo truncates)."""

    target: str
    before_sha256: str | None
    after_sha256: str | None
    before_size: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "target": self.target,
            "before_sha256": self.before_sha256,
            "after_sha256": self.after_sha256,
        }
        if self.before_size is not None:
            out["before_size"] = self.before_size
        return out

    @classmethod
    def from_json(cls, raw: Any) -> FileChange:
        if not isinstance(raw, dict) or not isinstance(raw.get("target"), str):
            raise ValueError("file change without a target")
        size = raw.get("before_size")
        return cls(
            target=raw["target"],
            before_sha256=_opt_sha(raw.get("before_sha256")),
            after_sha256=_opt_sha(raw.get("after_sha256")),
            before_size=size if isinstance(size, int) and size >= 0 else None,
        )


def _opt_sha(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and _SHA256.fullmatch(value):
        return value
    raise ValueError("not a sha256")


@dataclass(frozen=True)
class AuditRecord:
    """One line of history.jsonl."""

    id: str
    ts: str
    unit: str
    op: str
    action: str
    reason_code: ReasonCode
    reason: str
    target: str | None
    before_sha256: str | None
    after_sha256: str | None
    provenance: str | None = None
    preview: str | None = None
    flags: tuple[str, ...] = ()
    # Secondary files the same decision changed (a superseded entry marked), first is `target`.
    changes: tuple[FileChange, ...] = ()
    undoes: str | None = None
    journal: str | None = None  # the journaled op this decision applied (core.turn.journal)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "ts": self.ts,
            "unit": self.unit,
            "op": self.op,
            "action": self.action,
            "reason_code": self.reason_code,
            "reason": self.reason,
            "target": self.target,
            "before_sha256": self.before_sha256,
            "after_sha256": self.after_sha256,
        }
        if self.provenance is not None:
            out["provenance"] = self.provenance
        if self.preview is not None:
            out["preview"] = self.preview
        if self.flags:
            out["flags"] = list(self.flags)
        if self.changes:
            out["changes"] = [c.to_json() for c in self.changes]
        if self.undoes is not None:
            out["undoes"] = self.undoes
        if self.journal is not None:
            out["journal"] = self.journal
        return out

    @classmethod
    def from_json(cls, raw: Any) -> AuditRecord:
        if not isinstance(raw, dict):
            raise ValueError("not an object")
        text = {k: raw.get(k) for k in ("id", "ts", "unit", "op", "action", "reason_code")}
        if not all(isinstance(v, str) for v in text.values()):
            raise ValueError("missing a required field")
        target = raw.get("target")
        flags = raw.get("flags") or []
        return cls(
            id=raw["id"],
            ts=raw["ts"],
            unit=raw["unit"],
            op=raw["op"],
            action=raw["action"],
            reason_code=reason_code(str(raw["reason_code"])),
            reason=str(raw.get("reason") or ""),
            target=target if isinstance(target, str) else None,
            before_sha256=_opt_sha(raw.get("before_sha256")),
            after_sha256=_opt_sha(raw.get("after_sha256")),
            provenance=raw.get("provenance") if isinstance(raw.get("provenance"), str) else None,
            preview=raw.get("preview") if isinstance(raw.get("preview"), str) else None,
            flags=tuple(str(f) for f in flags) if isinstance(flags, list) else (),
            changes=tuple(FileChange.from_json(c) for c in raw.get("changes") or []),
            undoes=raw.get("undoes") if isinstance(raw.get("undoes"), str) else None,
            journal=raw.get("journal") if isinstance(raw.get("journal"), str) else None,
        )

    @property
    def file_changes(self) -> tuple[FileChange, ...]:
        """Every file this decision changed (empty for skip/reject)."""
        if self.changes:
            return self.changes
        if self.target is not None and self.before_sha256 != self.after_sha256:
            return (FileChange(self.target, self.before_sha256, self.after_sha256),)
        return ()


@dataclass
class _Restore:
    target: str
    before_sha256: str | None
    before_size: int | None
    expected_now: str | None
    undone: list[str] = field(default_factory=list)


def rotated_path(path: Path, n: int) -> Path:
    """The `n`th rotation of an append-only log: history.jsonl → history.1.jsonl."""
    return path.with_name(f"{path.stem}.{n}{path.suffix}")


def rotate(path: Path, keep: int) -> None:
    """`path` → its first rotation → … ; the oldest beyond `keep` is dropped. How every
    append-only file of the project is bounded (this audit, the skills ledger)."""
    oldest = rotated_path(path, keep)
    if oldest.exists():
        oldest.unlink()
    for n in range(keep - 1, 0, -1):
        src = rotated_path(path, n)
        if src.exists():
            src.rename(rotated_path(path, n + 1))
    path.rename(rotated_path(path, 1))
    _native.fsync_dir(path.parent)


class AuditLog:
    """history.jsonl and the undo blob store under one memory root. Core is the only writer."""

    def __init__(
        self,
        memory_root: Path,
        *,
        rotate_bytes: int = ROTATE_BYTES,
        keep_rotated: int = KEEP_ROTATED,
    ) -> None:
        self.root = Path(memory_root)
        self.path = self.root / AUDIT_LOG
        self.undo_dir = self.root / UNDO_DIR
        self.blobs = BlobStore(self.undo_dir, self._locked)
        self.rotate_bytes = rotate_bytes
        self.keep_rotated = keep_rotated

    # --- writing -------------------------------------------------------------------------

    def new_id(self, now: datetime) -> str:
        """Sortable by time, unique enough for one writer: 20261129T213000-3f9a1c."""
        return f"{compact(now)}-{digests.token_hex(3)}"

    def keep_blob(self, data: bytes) -> str:
        """Store `data` content-addressed (for undo); returns its sha256."""
        return self.blobs.keep(data)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The log's own lock (not the memory write lock, which a caller may hold on another
        fd): a size check, a rotation and an append, or a blob's append, are one step for every
        process. Not reentrant: nothing that holds it takes it again."""
        durability.ensure_dir(self.root, layout.DIR_MODE)
        fd = os.open(
            self.root / AUDIT_LOCK,
            os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
            layout.PRIVATE_FILE_MODE,
        )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def record(
        self,
        *,
        unit: str,
        op: str,
        action: str,
        reason_code: ReasonCode,
        reason: str,
        target: str | None = None,
        changes: Sequence[FileChange] = (),
        provenance: str | None = None,
        preview: str | None = None,
        flags: Sequence[str] = (),
        undoes: str | None = None,
        journal: str | None = None,
        now: datetime | None = None,
    ) -> AuditRecord:
        """Append one decision. The caller has already kept blobs for the before states.
        `journal` defaults to the enclosing journal_scope's id."""
        now = now or utc_now()
        primary = changes[0] if changes else None
        rec = AuditRecord(
            id=self.new_id(now),
            ts=iso(now),
            unit=unit,
            op=op,
            action=action,
            reason_code=reason_code,
            reason=reason,
            target=target if target is not None else (primary.target if primary else None),
            before_sha256=primary.before_sha256 if primary else None,
            after_sha256=primary.after_sha256 if primary else None,
            provenance=provenance,
            preview=preview,
            flags=tuple(flags),
            changes=tuple(changes),
            undoes=undoes,
            journal=journal if journal is not None else _JOURNAL_ID.get(),
        )
        line = (json.dumps(rec.to_json(), ensure_ascii=False, sort_keys=True) + "\n").encode()
        with self._locked():
            try:
                size = self.path.stat().st_size
            except FileNotFoundError:
                size = 0
            if size and size + len(line) > self.rotate_bytes:
                self._rotate()
            durability.append_record(self.path, line, layout.FILE_MODE)
        return rec

    def note(self, fields: Mapping[str, Any]) -> AuditRecord:
        """One line from a mapping (unit, op, action, reason_code, reason, target): for writers
        outside the memory tree, like the dream's learning resolutions. Changes no file."""
        target = fields.get("target")
        return self.record(
            unit=str(fields.get("unit") or "core"),
            op=str(fields.get("op") or "?"),
            action=str(fields.get("action") or "?"),
            reason_code=reason_code(str(fields.get("reason_code") or "")),
            reason=str(fields.get("reason") or ""),
            target=str(target) if target else None,
        )

    def rotated_path(self, n: int) -> Path:
        return rotated_path(self.path, n)

    def _rotate(self) -> None:
        """history.jsonl → history.1.jsonl → … ; the oldest beyond KEEP is dropped."""
        rotate(self.path, self.keep_rotated)
        self._collect_blobs()
        log.info("audit log rotated at %d bytes", self.rotate_bytes)

    def _collect_blobs(self) -> None:
        """Drop undo blobs that no kept log line refers to any more (under the log's lock)."""
        wanted: set[str] = set()
        for rec in self.records():
            for change in rec.file_changes:
                if change.before_sha256:
                    wanted.add(change.before_sha256)
        # A blob younger than the grace period may belong to a write whose line is not yet
        # appended (another process, between keeping the prior content and auditing).
        self.blobs.collect(wanted, BLOB_GRACE_S)

    # --- reading -------------------------------------------------------------------------

    def log_files(self) -> list[Path]:
        """Oldest first."""
        files = [self.rotated_path(n) for n in range(self.keep_rotated, 0, -1)]
        return [p for p in [*files, self.path] if p.is_file()]

    def records(self) -> Iterator[AuditRecord]:
        """Every readable line, oldest first. A torn or edited line is logged and skipped, and so
        is a last line without its newline: a record still being written, or torn by a killed
        writer (core.upkeep.recovery settles it at the next start)."""
        for path in self.log_files():
            with path.open("rb") as fh:
                for number, raw in enumerate(fh, 1):
                    if not raw.endswith(b"\n"):
                        log.info("%s:%d: incomplete last line skipped", path.name, number)
                        continue
                    if not raw.strip():
                        continue
                    try:
                        yield AuditRecord.from_json(json.loads(raw))
                    except (ValueError, TypeError) as exc:
                        log.warning(
                            "%s:%d: unreadable audit line skipped (%s)", path.name, number, exc
                        )

    def journal_ids(self) -> set[str]:
        """The journal ids of every decision in the kept logs (a replay skips these)."""
        return {rec.journal for rec in self.records() if rec.journal is not None}

    def surviving_journal_ids(self, rows: Iterable[int]) -> set[str]:
        """After a power cut (core.storage.durability): the journal ids of `rows`' items whose
        decisions are in the log *and* whose files are as the log says. A line can outlive the file
        it describes when neither was synced, so such an item is applied again: each file an item
        changed must hold what the last decision touching it (from the rows' first line on, by
        any unit) left there. A file the cut left empty where the log expects content is removed,
        so the replay writes it afresh."""
        prefixes = tuple(f"{row}." for row in rows)
        if not prefixes:
            return set()
        recs = list(self.records())
        first = next(
            (n for n, rec in enumerate(recs) if (rec.journal or "").startswith(prefixes)), None
        )
        if first is None:
            return set()
        expected: dict[str, str | None] = {}
        touched: dict[str, set[str]] = {}
        for rec in recs[first:]:
            for change in rec.file_changes:
                expected[change.target] = change.after_sha256
            if rec.journal is not None and rec.journal.startswith(prefixes):
                touched.setdefault(rec.journal, set()).update(c.target for c in rec.file_changes)
        intact: dict[str, bool] = {}
        for target, want in expected.items():
            if not _UNDOABLE.fullmatch(target):  # only memory files are checked (or removed)
                intact[target] = True
                continue
            path = self.root / target
            data = read_or_none(path)
            intact[target] = (sha256_hex(data) if data is not None else None) == want
            if not intact[target] and data == b"":
                log.warning("%s was left empty by a power cut; the replay writes it again", target)
                path.unlink()
        kept = {jid for jid, targets in touched.items() if all(intact[t] for t in targets)}
        for jid in sorted(set(touched) - kept):
            log.warning("journal item %s: its line outlived its files; applying it again", jid)
        return kept

    def find(self, change_id: str) -> AuditRecord | None:
        found = None
        for rec in self.records():
            if rec.id == change_id:
                found = rec
        return found

    def unit_records(self, unit: str) -> list[AuditRecord]:
        return [rec for rec in self.records() if rec.unit == unit]

    def read_blob(self, digest: str) -> bytes:
        try:
            return self.blobs.read(digest)
        except BlobMissing:
            raise UndoError(f"the prior content ({digest[:12]}) is no longer kept") from None
        except BlobDamaged:
            raise UndoError(f"the kept prior content {digest[:12]} is damaged") from None

    # --- undo ----------------------------------------------------------------------------

    def plan_undo(self, recs: Sequence[AuditRecord]) -> list[_Restore]:
        """Per file, the state before the first of `recs` and the state the last left behind.

        Raises UndoError when `recs` changed nothing, or when a target's path is not one undo may
        touch (a hand-edited log line).
        """
        plans: dict[str, _Restore] = {}
        for rec in recs:
            for change in rec.file_changes:
                if not _UNDOABLE.fullmatch(change.target) or ".." in change.target.split("/"):
                    raise UndoError(f"change {rec.id} names a file undo may not touch")
                plan = plans.get(change.target)
                if plan is None:
                    plan = plans[change.target] = _Restore(
                        change.target, change.before_sha256, change.before_size, change.after_sha256
                    )
                plan.expected_now = change.after_sha256
                plan.undone.append(rec.id)
        if not plans:
            raise UndoError("nothing to undo: no file was changed by it")
        return [plans[t] for t in sorted(plans)]

    def later_changes(self, after: AuditRecord, target: str) -> list[str]:
        """Ids of changes to `target` recorded after `after`."""
        seen = False
        out: list[str] = []
        for rec in self.records():
            if rec.id == after.id:
                seen = True
                continue
            if seen and any(c.target == target for c in rec.file_changes):
                out.append(rec.id)
        return out

    def restore(self, plan: _Restore) -> FileChange:
        """Put one file back to its planned prior state. The caller holds the write lock."""
        path = self.root / plan.target
        current = read_or_none(path)
        current_sha = sha256_hex(current) if current is not None else None
        if current is not None:
            # Kept so the undo itself can be undone.
            self.keep_blob(current)
        if plan.before_sha256 is None:
            if current is not None:
                path.unlink()
                durability.sync_dir(path.parent)
            return FileChange(plan.target, current_sha, None)
        if plan.before_size is not None and current is not None:
            prefix = current[: plan.before_size]
            if sha256_hex(prefix) == plan.before_sha256:
                durability.replace_file(path, prefix, layout.FILE_MODE)
                return FileChange(plan.target, current_sha, plan.before_sha256)
        data = self.read_blob(plan.before_sha256)
        durability.ensure_dir(path.parent, layout.DIR_MODE)
        durability.replace_file(path, data, layout.FILE_MODE)
        return FileChange(plan.target, current_sha, plan.before_sha256)

    def undo(
        self,
        recs: Sequence[AuditRecord],
        *,
        label: str,
        unit: str = "cli",
        force: bool = False,
    ) -> AuditRecord:
        """Restore every file `recs` changed to its state before the first of them; audited.

        A file changed again since (by something outside `recs`) is a conflict: UndoError names
        the later changes, unless `force`, which overwrites them (they stay undoable in turn).
        The caller holds the write lock and rebuilds the index afterwards.
        """
        plans = self.plan_undo(recs)
        if not force:
            conflicts = [
                plan.target for plan in plans if self.current_sha(plan.target) != plan.expected_now
            ]
            if conflicts:
                undone = set(rec.id for rec in recs)
                later = sorted(
                    {
                        cid
                        for target in conflicts
                        for cid in self.later_changes(recs[-1], target)
                        if cid not in undone
                    }
                )
                raise UndoError(
                    f"{', '.join(conflicts)} changed since {label}"
                    + (f" (by {', '.join(later)})" if later else " (edited by hand)")
                    + "; undo those first or pass --force"
                )
        # Read every blob before touching anything, so a missing one fails with nothing changed.
        for plan in plans:
            if plan.before_sha256 is not None and plan.before_size is None:
                self.read_blob(plan.before_sha256)
        changes = [self.restore(plan) for plan in plans]
        return self.record(
            unit=unit,
            op="undo",
            action="restore",
            reason_code="undo",
            reason=f"restored the state before {label}",
            changes=changes,
            provenance="owner",
            undoes=label,
        )

    def current_sha(self, target: str) -> str | None:
        data = read_or_none(self.root / target)
        return sha256_hex(data) if data is not None else None


def read_or_none(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist (other errors raise)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
