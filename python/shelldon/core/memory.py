"""The curated markdown tree: core is its only writer, and DIRECTIVE.md has no write path at all.

Every op is validated (types, sizes, the filename stem, the path check) before any disk access;
the gate then decides (`_decide`, the one seam); only then is anything written, atomically and
durably through the Rust writer (`shelldon._native.atomic_write` / `durable_append`).

Write targets are a closed set: `about.md`, `summary.md`, `episodes.md` (fixed names in the root)
and `<collection>/<stem>.md` whose parent must be the collection directory. `DIRECTIVE.md` is
read by `read_directive` and named nowhere else.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Literal

from shelldon import _native
from shelldon.clock import iso, utc_now
from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    LogEpisode,
    MemoryOp,
    Remember,
    RewriteAbout,
    RewriteSummary,
    op_name,
)
from shelldon.contracts.provenance import PROVENANCES, Provenance, most_trusted
from shelldon.core import gate
from shelldon.core.audit import (
    AuditLog,
    AuditRecord,
    FileChange,
    UndoError,
    fsync_dir,
    read_or_none,
    redacted_preview,
)
from shelldon.core.audit import sha256_hex as _sha256
from shelldon.core.entry import Entry, EntryMeta, parse_entry
from shelldon.core.entry import render_entry as _render_entry
from shelldon.core.index import INDEX_NAME, render_index
from shelldon.core.records import screen_record

log = logging.getLogger(__name__)

DIR_MODE = 0o755  # the worker (another uid) reads the tree
FILE_MODE = 0o644
VAULT_MODE = 0o700  # the worker may not even traverse it
MAX_CONTENT_CHARS = 64_000  # hard ceiling before the gate's own, tighter limits
MAX_NAME_CHARS = 200
MAX_READ_BYTES = 1_000_000  # a hand-edited giant file is skipped, not loaded on a 416 MB Pi
MAX_TAGS = 16
LOCK_NAME = ".write.lock"
# Confidence a new entry starts with when the writer gives none: what the owner said is certain,
# what a command showed nearly so, what a model inferred is a guess.
DEFAULT_CONFIDENCE: dict[str, float] = {"owner": 1.0, "observed": 0.8, "inferred": 0.5}


class MemoryOpError(ValueError):
    """An op refused by validation, before any disk access. The message never echoes content."""


@dataclass(frozen=True)
class PlannedWrite:
    """A validated op resolved to its target: what the gate sees before anything is written."""

    op: MemoryOp
    kind: Literal["replace", "append"]
    target: Path
    content: str
    provenance: Provenance
    turn_id: str | None
    collection: str | None = None  # set for `remember`
    stem: str | None = None


@dataclass(frozen=True)
class EntryExtras:
    """What a writer knows beyond the op: the owner-rule capture and CLI edits set these."""

    title: str | None = None
    tags: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    confidence: float | None = None
    # Addresses an existing entry (the gate's Candidate.stem): "this revises that one".
    stem: str | None = None


@dataclass(frozen=True)
class Applied:
    """What apply_memory_op did: the gate's decision, resolved to files, and its audit line.

    `target` is the file the action applies to (for a skip, the entry that made it redundant when
    there is one); `stem` its entry stem; `change_id` the history.jsonl line."""

    action: Literal["create", "update", "append", "skip", "reject"]
    target: Path
    reason: str = ""
    reason_code: str = ""
    stem: str | None = None
    supersedes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()
    change_id: str = ""
    decision: gate.Decision | None = field(default=None, compare=False)


def unit_for(turn_id: str | None) -> str:
    """The audit unit of a write: "dream-<n>" as given, "turn-<id>" for a turn, else "core"."""
    if not turn_id:
        return "core"
    if turn_id.startswith(("dream-", "turn-", "cli", "owner-rule")):
        return turn_id
    return f"turn-{turn_id}"


class CuratedMemory:
    """The memory tree under `root` (`<data root>/memory`)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        readonly: bool = False,
        clock: Callable[[], datetime] = utc_now,
        limits: gate.Limits = gate.DEFAULT_LIMITS,
    ) -> None:
        self._root = Path(root).absolute()
        self._readonly = readonly
        self._clock = clock
        self._limits = limits
        self._parsed: dict[Path, tuple[tuple[int, int, int, int], Entry]] = {}
        self.audit = AuditLog(self._root)
        if not readonly:
            self._create_tree()
            self._sweep_temp_files()
            # A writer killed between an entry and the index leaves the index behind: catch up.
            with self._write_lock():
                self._refresh_index()

    # --- the tree -------------------------------------------------------------------------

    @property
    def root(self) -> Path:
        return self._root

    @property
    def limits(self) -> gate.Limits:
        """The gate's thresholds this memory applies by default."""
        return self._limits

    @property
    def vault(self) -> Path:
        return self._root / "vault"

    def collection_dir(self, collection: str) -> Path:
        if collection not in COLLECTION_NAMES:
            raise MemoryOpError(f"unknown collection {collection[:40]!r}")
        return self._root / collection

    def _create_tree(self) -> None:
        for directory in (self._root, *(self._root / c for c in COLLECTION_NAMES)):
            if not directory.is_dir():
                directory.mkdir(parents=True, exist_ok=True)
                directory.chmod(DIR_MODE)  # explicit: the umask must not decide
        self.vault.mkdir(exist_ok=True)
        self.vault.chmod(VAULT_MODE)  # every open, not just the first: the vault must stay shut

    def _sweep_temp_files(self) -> None:
        """Remove temp files a killed writer left behind (only names our writer makes)."""
        for directory in (self._root, *(self._root / c for c in COLLECTION_NAMES)):
            for path in directory.glob(f".*{_native.TEMP_MARKER}*"):
                try:
                    path.unlink()
                    log.info("removed leftover temp file %s", path.name)
                except OSError as exc:
                    log.warning("could not remove leftover temp file %s: %s", path.name, exc)

    # --- writing ----------------------------------------------------------------------------

    def apply_memory_op(
        self,
        op: MemoryOp,
        *,
        provenance: Provenance = "inferred",
        turn_id: str | None = None,
        unit: str | None = None,
        extras: EntryExtras | None = None,
        limits: gate.Limits | None = None,
    ) -> Applied:
        """Validate, let the gate decide, write atomically, audit, keep MEMORY.md in step.

        Every decision, accepted or refused, is one line in history.jsonl under `unit` (default
        from `turn_id`: "turn-<id>", or "dream-<n>" as given). Raises MemoryOpError (invalid op,
        nothing touched; audited as a reject) or OSError (a write failed, old files untouched)."""
        if self._readonly:
            raise PermissionError("this CuratedMemory was opened read-only")
        audit_unit = unit or unit_for(turn_id)
        with self._write_lock():
            try:
                plan = self._plan(op, provenance, turn_id)
            except MemoryOpError as exc:
                self.audit.record(
                    unit=audit_unit,
                    op=op_name(op),
                    action="reject",
                    reason_code="invalid",
                    reason=str(exc),
                    provenance=str(provenance)[:20],
                )
                raise
            if plan.collection is None:
                return self._apply_document(plan, audit_unit)
            return self._apply_entry(
                plan, audit_unit, extras or EntryExtras(), limits or self._limits
            )

    def _plan(self, op: object, provenance: str, turn_id: str | None) -> PlannedWrite:
        """All validation, no disk access. Structs built in code skip msgspec's checks, so the
        types are checked again here."""
        if provenance not in PROVENANCES:
            raise MemoryOpError(f"unknown provenance {str(provenance)[:20]!r}")
        if turn_id is not None and (not isinstance(turn_id, str) or len(turn_id) > 200):
            raise MemoryOpError("turn_id must be a short string")
        prov: Provenance = provenance  # narrowed by the membership check above
        if isinstance(op, RewriteAbout):
            content = _checked_text(op.content, "content")
            return PlannedWrite(op, "replace", self._root / "about.md", content, prov, turn_id)
        if isinstance(op, RewriteSummary):
            content = _checked_text(op.content, "content")
            return PlannedWrite(op, "replace", self._root / "summary.md", content, prov, turn_id)
        if isinstance(op, LogEpisode):
            content = _checked_text(op.content, "content")
            tags = op.tags
            if not isinstance(tags, tuple | list) or len(tags) > MAX_TAGS:
                raise MemoryOpError(f"tags must be at most {MAX_TAGS} strings")
            for tag in tags:
                _checked_text(tag, "tag", max_chars=64)
            return PlannedWrite(op, "append", self._root / "episodes.md", content, prov, turn_id)
        if isinstance(op, Remember):
            if not isinstance(op.collection, str) or op.collection not in COLLECTION_NAMES:
                raise MemoryOpError("remember: unknown collection")
            name = _checked_text(op.name, "name", max_chars=MAX_NAME_CHARS)
            content = _checked_text(op.content, "content")
            try:
                stem = _native.safe_stem(name)
            except ValueError:
                raise MemoryOpError("remember: name has no usable filename characters") from None
            directory = self.collection_dir(op.collection)
            target = directory / f"{stem}.md"
            # Belt and braces: the stem cannot contain a separator, and this makes it structural.
            if target.parent != directory or target.name.casefold() == "directive.md":
                raise MemoryOpError("remember: target escapes its collection")
            return PlannedWrite(
                op, "replace", target, content, prov, turn_id, collection=op.collection, stem=stem
            )
        raise MemoryOpError(f"not a memory op: {type(op).__name__}")

    # --- the gate, applied -------------------------------------------------------------------

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        """One writer at a time across processes (core, and the CLI when core is not running)."""
        fd = os.open(self._root / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    @staticmethod
    def _existing(entries: Sequence[Entry]) -> list[gate.ExistingEntry]:
        return [
            gate.ExistingEntry(
                stem=e.stem,
                collection=e.collection,
                title=_entry_title(e),
                body=e.body,
                provenance=e.meta.provenance,
                status=e.meta.status,
                confidence=e.meta.confidence,
            )
            for e in entries
        ]

    def _refuse(
        self, plan: PlannedWrite, unit: str, decision: gate.Decision, target: Path | None = None
    ) -> Applied:
        """Audit a skip or reject. Nothing of a refused text is kept but a blanked preview."""
        preview = None
        if decision.action == "reject" and decision.reason_code != gate.SECRET:
            preview = redacted_preview(gate.blank_secrets(plan.content))
        rec = self.audit.record(
            unit=unit,
            op=op_name(plan.op),
            action=decision.action,
            reason_code=decision.reason_code,
            reason=decision.reason,
            target=self._rel(target) if target is not None else None,
            provenance=plan.provenance,
            preview=preview,
            flags=(*decision.flags, *(f"rule:{r}" for r in decision.rule_ids)),
        )
        log.info(
            "%s: %s %s refused (%s): %s",
            unit,
            op_name(plan.op),
            decision.action,
            decision.reason_code,
            decision.reason,
        )
        return Applied(
            decision.action,
            target if target is not None else plan.target,
            decision.reason,
            decision.reason_code,
            stem=decision.target,
            flags=decision.flags,
            rule_ids=decision.rule_ids,
            change_id=rec.id,
            decision=decision,
        )

    def _apply_document(self, plan: PlannedWrite, unit: str) -> Applied:
        """about.md and summary.md (knowledge: refused when unsafe) and episodes.md (a record:
        secrets blanked, instruction-shaped text still refused)."""
        content = plan.content
        if plan.kind == "append":
            verdict = screen_record(content)
            content = verdict.text if verdict.text is not None else content
            plan = replace(plan, content=content)
            refusal = verdict.refusal
        else:
            refusal = gate.screen_text(content)
        if refusal is not None:
            decision = gate.Decision(
                action="reject",
                reason_code=refusal.code,
                reason=refusal.message,
                rule_ids=refusal.rule_ids,
            )
            return self._refuse(plan, unit, decision)
        before = read_or_none(plan.target)
        if plan.kind == "append":
            record = self._episode_record(plan)
            _native.durable_append(plan.target, record, FILE_MODE)
            after = (before or b"") + record
            change = FileChange(
                self._rel(plan.target),
                _sha256(before) if before is not None else None,
                _sha256(after),
                before_size=len(before) if before is not None else None,
            )
            action: Literal["create", "update", "append"] = "append"
            code, reason = "recorded", "appended to the episode log"
        else:
            text = (content if content.endswith("\n") else content + "\n").encode("utf-8")
            if before == text:
                decision = gate.Decision(
                    action="skip", reason_code=gate.DUPLICATE, reason="the same text is there"
                )
                return self._refuse(plan, unit, decision, plan.target)
            if before is not None:
                self.audit.keep_blob(before)
            _native.atomic_write(plan.target, text, FILE_MODE)
            change = FileChange(
                self._rel(plan.target),
                _sha256(before) if before is not None else None,
                _sha256(text),
            )
            action = "update" if before is not None else "create"
            code, reason = (
                ("revised", "rewritten") if before is not None else ("created", "written")
            )
        rec = self.audit.record(
            unit=unit,
            op=op_name(plan.op),
            action=action,
            reason_code=code,
            reason=reason,
            changes=[change],
            provenance=plan.provenance,
        )
        return Applied(action, plan.target, reason, code, change_id=rec.id)

    def _apply_entry(
        self, plan: PlannedWrite, unit: str, extras: EntryExtras, limits: gate.Limits
    ) -> Applied:
        assert isinstance(plan.op, Remember) and plan.collection is not None
        directory = self.collection_dir(plan.collection)
        if directory.is_symlink() or not directory.is_dir():
            raise MemoryOpError(f"{plan.collection}/ is not a plain directory; refusing")
        title = " ".join((extras.title or plan.op.name).split())
        candidate = gate.Candidate(
            collection=plan.collection,
            title=title,
            body=plan.content,
            provenance=plan.provenance,
            stem=extras.stem or plan.stem,
            confidence=extras.confidence,
        )
        entries = self.entries()
        decision = gate.decide(candidate, self._existing(entries), limits)
        if decision.action in ("skip", "reject"):
            found = _find(entries, decision.target, plan.collection)
            where = self._entry_path(found) if found is not None else None
            return self._refuse(plan, unit, decision, where)

        now = iso(self._clock())
        changes: list[FileChange] = []
        if decision.action == "update":
            old = _find(entries, decision.target, plan.collection)
            if old is None:  # the gate names only entries it was shown
                raise MemoryOpError(f"the gate named an unknown entry {decision.target!r}")
            path = self._entry_path(old)
            keep_title = decision.reason_code != gate.REVISED and old.meta.title.strip()
            provenance = most_trusted(old.meta.provenance, plan.provenance)
            confidence = max(
                old.meta.confidence,
                extras.confidence
                if extras.confidence is not None
                else DEFAULT_CONFIDENCE[plan.provenance],
            )
            meta = replace(
                old.meta,
                title=old.meta.title if keep_title else title,
                collection=old.collection,
                provenance=provenance,
                confidence=confidence,
                created=old.meta.created or now,
                modified=now,
                last_confirmed=now,
                status="active",
                depends_on=_merged(old.meta.depends_on, extras.depends_on),
                tags=_merged(old.meta.tags, extras.tags),
            )
            changes.append(self._put(path, _render_entry(meta, plan.content)))
            stem = old.stem
        else:
            stem = self._free_stem(directory, plan.stem or "entry", decision.supersedes)
            path = directory / f"{stem}.md"
            meta = EntryMeta(
                title=title,
                collection=plan.collection,
                provenance=plan.provenance,
                confidence=extras.confidence
                if extras.confidence is not None
                else DEFAULT_CONFIDENCE[plan.provenance],
                created=now,
                modified=now,
                last_confirmed=now,
                supersedes=tuple(decision.supersedes),
                depends_on=extras.depends_on,
                tags=extras.tags,
            )
            changes.append(self._put(path, _render_entry(meta, plan.content)))
        for old_stem in decision.supersedes:
            old = _find(entries, old_stem, plan.collection)
            if old is None or old.stem == stem:
                continue
            marked = replace(old.meta, status="superseded", superseded_by=stem, modified=now)
            changes.append(self._put(self._entry_path(old), _render_entry(marked, old.body)))
        rec = self.audit.record(
            unit=unit,
            op=op_name(plan.op),
            action=decision.action,
            reason_code=decision.reason_code,
            reason=decision.reason,
            changes=changes,
            provenance=plan.provenance,
            flags=decision.flags,
        )
        self._refresh_index()
        return Applied(
            decision.action,
            path,
            decision.reason,
            decision.reason_code,
            stem=stem,
            supersedes=tuple(decision.supersedes),
            flags=decision.flags,
            change_id=rec.id,
            decision=decision,
        )

    def _put(self, path: Path, text: str) -> FileChange:
        """Write one file atomically, keeping its prior content for undo."""
        before = read_or_none(path)
        if before is not None:
            self.audit.keep_blob(before)
        data = text.encode("utf-8")
        _native.atomic_write(path, data, FILE_MODE)
        return FileChange(
            self._rel(path), _sha256(before) if before is not None else None, _sha256(data)
        )

    def _free_stem(self, directory: Path, stem: str, taken: Sequence[str]) -> str:
        """`stem`, or `stem-2`, `stem-3`… when a file (a superseded entry, say) holds it."""
        candidate, n = stem, 1
        while candidate in taken or (directory / f"{candidate}.md").exists():
            n += 1
            candidate = f"{stem}-{n}"
        return candidate

    def _entry_path(self, entry: Entry) -> Path:
        return self._root / entry.collection / f"{entry.stem}.md"

    def _rel(self, path: Path) -> str:
        return path.relative_to(self._root).as_posix()

    def _refresh_index(self) -> None:
        """Rewrite MEMORY.md from the entries when it changed (bounded; see core.index)."""
        path = self._root / INDEX_NAME
        text = render_index(self.entries()).encode("utf-8")
        if read_or_none(path) != text:
            _native.atomic_write(path, text, FILE_MODE)

    # --- owner's edits: forget, retire, undo -----------------------------------------------

    def find_entry(self, name: str) -> Entry:
        """An entry by "<collection>/<stem>" or by a stem unique across collections.
        Raises LookupError naming the candidates when it is absent or ambiguous."""
        want = name.strip().removesuffix(".md")
        collection, _, stem = want.rpartition("/")
        matches = [
            e
            for e in self.entries()
            if e.stem == stem and (not collection or e.collection == collection)
        ]
        if not matches:
            raise LookupError(f"no entry named {name!r}")
        if len(matches) > 1:
            names = ", ".join(f"{e.collection}/{e.stem}" for e in matches)
            raise LookupError(f"{name!r} is ambiguous: {names}")
        return matches[0]

    def forget(self, name: str, *, unit: str = "cli") -> AuditRecord:
        """Delete one entry (the owner's "forget"). Not gated, always audited, undoable."""
        if self._readonly:
            raise PermissionError("this CuratedMemory was opened read-only")
        with self._write_lock():
            entry = self.find_entry(name)
            path = self._entry_path(entry)
            before = path.read_bytes()
            self.audit.keep_blob(before)
            path.unlink()
            fsync_dir(path.parent)
            rec = self.audit.record(
                unit=unit,
                op="forget",
                action="delete",
                reason_code="forgotten",
                reason=f"the owner asked to forget {entry.collection}/{entry.stem}",
                changes=[FileChange(self._rel(path), _sha256(before), None)],
                provenance="owner",
            )
            self._refresh_index()
            return rec

    def retire_entry(
        self,
        collection: str,
        stem: str,
        *,
        superseded_by: str,
        turn_id: str | None = None,
        unit: str | None = None,
    ) -> AuditRecord | None:
        """Mark an entry superseded (kept, never deleted), as a merge does. Audited."""
        if self._readonly:
            raise PermissionError("this CuratedMemory was opened read-only")
        with self._write_lock():
            entry = _find(self.entries(), stem, collection)
            if entry is None or entry.collection != collection:
                return None
            now = iso(self._clock())
            marked = replace(
                entry.meta, status="superseded", superseded_by=superseded_by, modified=now
            )
            change = self._put(self._entry_path(entry), _render_entry(marked, entry.body))
            rec = self.audit.record(
                unit=unit or unit_for(turn_id),
                op="retire",
                action="update",
                reason_code="superseded",
                reason=f"{collection}/{stem} superseded by {collection}/{superseded_by}",
                changes=[change],
                provenance=entry.meta.provenance,
            )
            self._refresh_index()
            return rec

    def undo_change(self, change_id: str, *, force: bool = False, unit: str = "cli") -> AuditRecord:
        """Restore the files one change touched to their state before it. Raises UndoError."""
        with self._write_lock():
            rec = self.audit.find(change_id)
            if rec is None:
                raise UndoError(f"no change {change_id!r} in the kept history")
            done = self.audit.undo([rec], label=change_id, unit=unit, force=force)
            self._refresh_index()
            return done

    def undo_unit(self, unit_name: str, *, force: bool = False, unit: str = "cli") -> AuditRecord:
        """Restore every file a unit ("dream-3", "turn-…") touched to its state before the unit."""
        with self._write_lock():
            recs = self.audit.unit_records(unit_name)
            if not recs:
                raise UndoError(f"no change recorded for {unit_name}")
            done = self.audit.undo(recs, label=unit_name, unit=unit, force=force)
            self._refresh_index()
            return done

    def _episode_record(self, plan: PlannedWrite) -> bytes:
        assert isinstance(plan.op, LogEpisode)
        header = f"## {iso(self._clock())}"
        if plan.op.tags:
            header += " [" + ", ".join(" ".join(t.split()) for t in plan.op.tags) + "]"
        if plan.turn_id:
            header += f" (turn {' '.join(plan.turn_id.split())})"
        body = plan.content.strip("\n")
        return f"{header}\n{body}\n\n".encode()

    # --- reading (also what the worker uses, read-only) ------------------------------------

    def read_directive(self) -> str | None:
        """The owner's DIRECTIVE.md. Read-only: no write path to this file exists anywhere."""
        return self._read_text(self._root / "DIRECTIVE.md")

    def read_about(self) -> str | None:
        return self._read_text(self._root / "about.md")

    def read_summary(self) -> str | None:
        return self._read_text(self._root / "summary.md")

    def read_episodes(self) -> str | None:
        return self._read_text(self._root / "episodes.md")

    def entries(self) -> list[Entry]:
        """Every curated entry, parsed, ordered by collection then stem (deterministic)."""
        found: list[Entry] = []
        for collection in COLLECTION_NAMES:
            directory = self._root / collection
            try:
                with os.scandir(directory) as listing:
                    items = sorted((d.name, d) for d in listing)
            except OSError:
                continue
            for name, dirent in items:
                if name.startswith(".") or not name.endswith(".md"):
                    continue
                entry = self._read_entry(directory / name, collection, dirent)
                if entry is not None:
                    found.append(entry)
        return found

    def read_all_collections(self) -> dict[str, dict[str, str]]:
        """{collection: {stem: body}} for the prompt, every collection present (maybe empty)."""
        out: dict[str, dict[str, str]] = {c: {} for c in COLLECTION_NAMES}
        for entry in self.entries():
            out[entry.collection][entry.stem] = entry.body
        return out

    def _read_entry(
        self, path: Path, collection: str, dirent: os.DirEntry[str] | None = None
    ) -> Entry | None:
        # Parsed entries are kept while the file's identity and mtime are unchanged: every
        # write replaces the file (a new inode), so a stale hit needs a same-inode edit within
        # the same nanosecond and size. (memint: the gate reads every entry on every write.)
        try:
            st = dirent.stat(follow_symlinks=False) if dirent is not None else path.lstat()
            key: tuple[int, int, int, int] | None = (
                st.st_dev,
                st.st_ino,
                st.st_mtime_ns,
                st.st_size,
            )
        except OSError:
            key = None
        cached = self._parsed.get(path)
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        text = self._read_text(path)
        if text is None:
            self._parsed.pop(path, None)
            return None
        entry = parse_entry(text, source=f"{collection}/{path.name}")
        entry = replace(entry, stem=path.name.removesuffix(".md"), collection=collection)
        if key is not None:
            self._parsed[path] = (key, entry)
        return entry

    def _read_text(self, path: Path) -> str | None:
        """File text, or None when absent or unreadable (logged). Symlinks are not followed:
        a link planted in the tree must not pull another file (the vault) into a prompt."""
        try:
            if path.is_symlink():
                log.warning("%s is a symlink; not read", path.name)
                return None
            if not path.is_file():
                return None
            if path.stat().st_size > MAX_READ_BYTES:
                log.warning("%s is over %d bytes; not read", path.name, MAX_READ_BYTES)
                return None
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            log.warning("could not read %s: %s", path.name, exc)
            return None


def _checked_text(value: object, what: str, *, max_chars: int = MAX_CONTENT_CHARS) -> str:
    if not isinstance(value, str):
        raise MemoryOpError(f"{what} must be a string")
    if not value.strip():
        raise MemoryOpError(f"{what} is empty")
    if len(value) > max_chars:
        raise MemoryOpError(f"{what} is over {max_chars} characters")
    if "\x00" in value:
        raise MemoryOpError(f"{what} contains NUL")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MemoryOpError(f"{what} is not valid text (lone surrogate)") from None
    return value


def _entry_title(entry: Entry) -> str:
    if entry.meta.title.strip():
        return " ".join(entry.meta.title.split())
    first = next((line for line in entry.body.splitlines() if line.strip()), entry.stem)
    return " ".join(first.lstrip("#").split())[:120]


def _find(entries: Sequence[Entry], stem: str | None, prefer: str) -> Entry | None:
    """The active entry with `stem`, from `prefer`'s collection first (the gate names stems
    only, and only of active entries)."""
    if stem is None:
        return None
    found = [e for e in entries if e.stem == stem]
    # The gate only names active entries: an active one anywhere beats a superseded namesake.
    found.sort(key=lambda e: (e.meta.status != "active", e.collection != prefer, e.collection))
    return found[0] if found else None


def _merged(old: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*old, *new]))
