"""The owner's edits to the tree, beside the gated write path: forget, retire, undo.

Forgetting an entry that superseded others brings those back (active again): forgetting the newest
"call me" rule makes the one it replaced the rule again, in the same audited change.

None of them is gated (the owner asked, or a merge the gate accepted retires what it replaced);
every one is audited and undoable, and MEMORY.md follows each.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from shelldon import _native
from shelldon.clock import iso
from shelldon.core.memory.audit import AuditRecord, FileChange, UndoError
from shelldon.core.memory.audit import sha256_hex as _sha256
from shelldon.core.memory.entry import Entry
from shelldon.core.memory.plan import unit_for
from shelldon.core.memory.reader import find_active
from shelldon.core.memory.writer import MemoryWriter
from shelldon.core.reasons import ReasonCode
from shelldon.core.storage import durability


class CuratedMemory(MemoryWriter):
    """Core's handle on the memory tree under `root` (`<data root>/memory`): every read, the
    gated write path, and the owner's lifecycle edits. Core is the tree's only writer."""

    def forget(self, name: str, *, unit: str = "cli", by: str = "the owner") -> AuditRecord:
        """Delete one entry, archived ones too (the owner's "forget"; `by` names who asked, for
        the audit line: the agent face's memory_delete too). Not gated, always audited, undoable."""
        with self._write_lock():
            entry = self.find_entry(name)
            return self._delete(
                entry, unit=unit, provenance="owner", reason=f"{by} asked to forget"
            )

    def forget_proposed(
        self, collection: str, name: str, *, turn_id: str | None = None, unit: str | None = None
    ) -> AuditRecord:
        """A model's `forget` op: delete an entry it may remove, or refuse (audited either way).

        An owner entry is refused: only the owner forgets what the owner said. `name` is the
        entry's stem (as the prompt shows it) or a title that makes that stem."""
        audit_unit = unit or unit_for(turn_id)
        with self._write_lock():
            stems = {name.strip()}
            with contextlib.suppress(ValueError):  # no word characters: only the name as given
                stems.add(_native.filename_stem(name))
            found = [e for e in self.entries() if e.collection == collection and e.stem in stems]
            code: ReasonCode
            if not found:
                code, reason = "not_found", f"no entry {collection}/{name.strip()[:80]} to forget"
            elif found[0].meta.provenance == "owner":
                code, reason = "owner_entry", "only the owner forgets what the owner said"
            else:
                return self._delete(
                    found[0],
                    unit=audit_unit,
                    provenance="inferred",
                    reason="the model proposed forgetting",
                )
            return self.audit.record(
                unit=audit_unit,
                op="forget",
                action="reject",
                reason_code=code,
                reason=reason,
                target=f"{found[0].collection}/{found[0].stem}.md" if found else None,
                provenance="inferred",
            )

    def _delete(self, entry: Entry, *, unit: str, provenance: str, reason: str) -> AuditRecord:
        """Remove `entry`'s file (kept as an undo blob), revive what it superseded, audit it."""
        path = self.entry_path(entry)
        before = path.read_bytes()
        self.audit.keep_blob(before)
        path.unlink()
        durability.sync_dir(path.parent)
        changes = [FileChange(self._rel(path), _sha256(before), None)]
        now = iso(self._clock())
        for old in [] if entry.archived else self.archived_entries():
            if (
                old.collection == entry.collection
                and old.meta.status == "superseded"
                and old.meta.superseded_by == entry.stem
            ):
                revived = replace(old.meta, status="active", superseded_by="", modified=now)
                changes.extend(self._restore_from_archive(old, revived))
        rec = self.audit.record(
            unit=unit,
            op="forget",
            action="delete",
            reason_code="forgotten",
            reason=f"{reason} {entry.collection}/{entry.stem}",
            changes=changes,
            provenance=provenance,
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
        """Mark an entry superseded and move it to the archive (kept, never deleted), as a merge
        does. Audited."""
        with self._write_lock():
            entry = find_active(self.entries(), stem, collection)
            if entry is None or entry.collection != collection:
                return None
            now = iso(self._clock())
            marked = replace(
                entry.meta, status="superseded", superseded_by=superseded_by, modified=now
            )
            changes = self._move_to_archive(entry, marked)
            rec = self.audit.record(
                unit=unit or unit_for(turn_id),
                op="retire",
                action="update",
                reason_code="superseded",
                reason=f"{collection}/{stem} superseded by {collection}/{superseded_by}",
                target=changes[0].target,
                changes=changes,
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
