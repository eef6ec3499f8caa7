"""Core's write path into the memory tree: validated, gated, written, audited once.

Every op is validated (`plan.plan_write`: types, sizes, the filename stem, the path check) before
any disk access; the gate then decides (the safety screen for the documents, `gate.decide` for
entries); only then is anything written, atomically and durably through the Rust writer
(core.storage.durability: at once, or at the end of a turn's batch). Each branch returns an
`_Outcome`, and
`apply_memory_op` writes the audit line for it in one place (`_audit`), accepted or refused.

A full collection makes room instead of refusing (`core.memory.room`: route, consolidate, retire
the stalest inference to the archive, or keep the new fact in the archive). Superseded and
retired entries move to `memory/archive/<collection>/`, off the worker's hot path; the move is a
file written and a file removed in one audited change, so undo brings them back.

Over 400 lines: the write path is one sequence under one lock (validate, route, decide, make
room, write, archive, audit, index); making room reuses the entry write and the audit in the
middle of it, and split apart each half would need the other's private steps.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import fcntl
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import msgspec

from shelldon.clock import iso, utc_now
from shelldon.contracts.ops import COLLECTION_NAMES, LogEpisode, MemoryOp, Remember, op_name
from shelldon.contracts.provenance import Provenance, most_trusted
from shelldon.core import gate
from shelldon.core.gate import pieces as gate_pieces
from shelldon.core.gate.authority import ROLE_CLAIM_RULE, role_claim
from shelldon.core.gate.records import record_body, screen_record
from shelldon.core.memory import room
from shelldon.core.memory.archive import sync_archive_index
from shelldon.core.memory.audit import (
    AuditLog,
    AuditRecord,
    FileChange,
    read_or_none,
)
from shelldon.core.memory.audit import sha256_hex as _sha256
from shelldon.core.memory.entry import (
    UNVERIFIED_TAG,
    Entry,
    EntryMeta,
    parse_entry,
    render_entry,
)
from shelldon.core.memory.index import render_index
from shelldon.core.memory.plan import (
    Action,
    Applied,
    EntryExtras,
    MemoryOpError,
    PlannedWrite,
    check_extras,
    collection_dir,
    entry_key,
    plan_write,
    unit_for,
)
from shelldon.core.memory.reader import MemoryReader, find_active
from shelldon.core.reasons import ReasonCode
from shelldon.core.storage import durability, layout
from shelldon.paths import ARCHIVE_DIR, MEMORY_INDEX, WRITE_LOCK

_HEADER_MARKS = str.maketrans("", "", "[]()")
log = logging.getLogger(__name__)

FILE_MODE = layout.FILE_MODE  # the service uid writes, the readers' group (the worker) reads
# Confidence a new entry starts with when the writer gives none: what the owner said is certain,
# what a command showed nearly so, what a model inferred is a guess.
DEFAULT_CONFIDENCE: dict[str, float] = {"owner": 1.0, "observed": 0.8, "inferred": 0.5}


def _same_entry(plan: PlannedWrite) -> tuple[PlannedWrite, str | None]:
    """`plan` aimed at the entry its name names (`plan.entry_key`: case and separators aside),
    and what to tell the writer when that entry is spelt otherwise; (plan, None) otherwise. The
    gate then decides the write as an update of that entry, by its usual rules."""
    op = plan.op
    if plan.stem is None or not isinstance(op, Remember):
        return plan, None
    key = entry_key(plan.stem)
    target = plan.target
    redirected = False
    if not target.exists() and not target.is_symlink():
        same = sorted(
            p
            for p in target.parent.glob("*.md")
            if key and entry_key(p.stem) == key and not p.is_symlink()
        )
        if not same:
            return plan, None
        target, redirected = same[0], True
        plan = replace(plan, target=target, stem=target.stem)
    try:
        text = "" if target.is_symlink() else target.read_text(encoding="utf-8")
        title = parse_entry(text).meta.title if text else ""
    except (OSError, ValueError):
        title = ""
    name = op.name
    if " ".join(name.split()) == title or (not title and not redirected):
        return plan, None
    shown = title or target.stem
    return plan, (
        f"{name[:80]!r} names the entry {shown[:80]!r}: names that differ only in case or "
        "separators are one entry"
    )


@dataclass(frozen=True)
class _Outcome:
    """What one branch of the write path did, before its audit line is written."""

    action: Action
    reason_code: ReasonCode
    reason: str
    target: Path | None = None  # None: a refusal with no file to name
    changes: tuple[FileChange, ...] = ()
    preview: str | None = None  # never set for a refused op (its text stays out of the audit)
    text_sha256: str | None = None  # a refused op's text, as its hash
    stem: str | None = None
    supersedes: tuple[str, ...] = ()
    decision: gate.Decision | None = None

    def applied(self, planned: Path, change_id: str) -> Applied:
        decision = self.decision
        return Applied(
            self.action,
            self.target if self.target is not None else planned,
            self.reason,
            self.reason_code,
            stem=self.stem,
            supersedes=self.supersedes,
            flags=decision.flags if decision is not None else (),
            rule_ids=decision.rule_ids if decision is not None else (),
            change_id=change_id,
            decision=decision,
        )


class MemoryWriter(MemoryReader):
    """The reader plus the write path. Opening it prepares the tree (`core.storage.layout`), sweeps
    a killed writer's temp files and brings MEMORY.md up to date."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        clock: Callable[[], datetime] = utc_now,
        limits: gate.Limits = gate.DEFAULT_LIMITS,
        make_room: bool = True,
    ) -> None:
        super().__init__(root)
        self._clock = clock
        self._limits = limits
        # False: a full collection refuses (`collection_full`) as before step 11 (the eval's
        # "before" figures).
        self._make_room = make_room
        # The last accepted pieces of text (gate.pieces): a secret or instruction cut across
        # writes is refused where its pieces meet. Filled from the newest entries on first use.
        self._recent: collections.deque[str] | None = None
        # What each recent piece holds alone, asked once while it is recent (gate.pieces).
        self._piece_facts = gate_pieces.PieceFacts()
        self.audit = AuditLog(self._root)
        # Owner rules removed by someone other than the owner (the agent face's memory_delete):
        # a lower-provenance write is still refused for contradicting them, so a delete and a
        # write in two calls do not replace an owner rule. None: nothing is kept in their place.
        self.removed_owner_rules: Callable[[], Sequence[gate.ExistingEntry]] | None = None
        layout.prepare_memory(self._root)
        self._sweep_temp_files()
        with self._write_lock():
            # Superseded entries a release before the archive left in their collections move out
            # of the worker's hot path, once, in one audited change.
            self._archive_superseded_in_place()
            # A writer killed between an entry and the index leaves the index behind: catch up.
            self._refresh_index()

    @property
    def limits(self) -> gate.Limits:
        """The gate's thresholds this memory applies by default."""
        return self._limits

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
        audit_unit = unit or unit_for(turn_id)
        with self._write_lock():
            extras = extras or EntryExtras()
            try:
                plan = plan_write(self._root, op, provenance, turn_id)
                check_extras(extras)
            except MemoryOpError as exc:
                invalid = _Outcome("reject", "invalid", str(exc))
                self._audit(audit_unit, op, str(provenance)[:20], invalid)
                raise
            plan, spelt = _same_entry(plan)
            pieces = self._pieces_refusal(plan, extras)
            if pieces is not None:
                outcome = _refused(plan, pieces)
            elif plan.collection is None:
                outcome = self._write_document(plan, extras)
            else:
                try:
                    outcome = self._write_entry(plan, extras, limits or self._limits, audit_unit)
                except MemoryOpError as exc:  # refused past the plan: audited all the same
                    invalid = _Outcome("reject", "invalid", str(exc))
                    self._audit(audit_unit, plan.op, plan.provenance, invalid)
                    raise
            if spelt is not None:  # the same entry under another spelling: said, never silent
                outcome = replace(outcome, reason=f"{outcome.reason} ({spelt})")
            if outcome.action not in ("skip", "reject"):
                self._remember_pieces(plan, extras)
            rec = self._audit(audit_unit, plan.op, plan.provenance, outcome)
            if outcome.action in ("skip", "reject"):
                log.info(
                    "%s: %s %s refused (%s): %s",
                    audit_unit,
                    op_name(plan.op),
                    outcome.action,
                    outcome.reason_code,
                    outcome.reason,
                )
            elif plan.collection is not None:
                self._refresh_index()
        return outcome.applied(plan.target, rec.id)

    def _fields(self, plan: PlannedWrite, extras: EntryExtras) -> list[tuple[str, str]]:
        fields = gate_pieces.op_fields(plan.op)
        if extras.title:
            fields.append(("title", extras.title))
        fields += [(f"extras.tags[{i}]", tag) for i, tag in enumerate(extras.tags)]
        # The agent face's and reflection's `depends_on` come as extras, not in the op: they land
        # in the entry's front matter all the same.
        fields += [(f"depends_on[{i}]", path) for i, path in enumerate(extras.depends_on)]
        return fields

    def _pieces_refusal(self, plan: PlannedWrite, extras: EntryExtras) -> gate.Decision | None:
        """Every field screened as the content is, and each field where it meets the last
        accepted writes (gate.pieces). The content itself is the gate's as before (an
        episode's secrets are blanked, not refused)."""
        fields = self._fields(plan, extras)
        if plan.provenance != "owner":  # only core writes as the owner (gate.authority)
            for name, text in fields:
                claim = role_claim(text)
                if claim is not None:
                    return gate.Decision(
                        action="reject",
                        reason_code=gate.INSTRUCTION,
                        reason=f"{name}: claims a role it does not have ({claim!r}): only core "
                        "writes as the owner, and nothing in memory is the directive",
                        rule_ids=(ROLE_CLAIM_RULE,),
                    )
        found = gate_pieces.screen_fields(fields, skip=("content",))
        if found is None:
            recent = self._recent_pieces()
            for _, text in fields:
                found = gate_pieces.screen_junctions(text, recent, self._piece_facts)
                if found is not None:
                    break
            self._piece_facts.keep(recent)
        if found is None:
            return None
        refusal = found.refusal
        return gate.Decision(
            action="reject",
            reason_code=refusal.code,
            reason=f"{found.field}: {refusal.message}",
            rule_ids=refusal.rule_ids,
        )

    def _recent_pieces(self) -> list[str]:
        """The last accepted pieces of text, oldest first; after a restart, the newest entries."""
        if self._recent is None:
            newest = sorted(self.entries(), key=lambda e: e.meta.modified or "")
            self._recent = collections.deque(
                (e.body for e in newest[-gate_pieces.RECENT_PIECES :]),
                maxlen=gate_pieces.RECENT_PIECES,
            )
        return list(self._recent)

    def _remember_pieces(self, plan: PlannedWrite, extras: EntryExtras) -> None:
        self._recent_pieces()
        assert self._recent is not None
        for _, text in self._fields(plan, extras):
            if text.strip():
                self._recent.append(gate.blank_secrets(text))

    def _audit(self, unit: str, op: object, provenance: str, outcome: _Outcome) -> AuditRecord:
        """The write path's one audit line. Of a refused text, only its sha256 (a flag)."""
        decision = outcome.decision
        flags = (*decision.flags, *(f"rule:{r}" for r in decision.rule_ids)) if decision else ()
        if outcome.text_sha256 is not None:
            flags = (*flags, f"text-sha256:{outcome.text_sha256}")
        return self.audit.record(
            unit=unit,
            op=op_name(op),
            action=outcome.action,
            reason_code=outcome.reason_code,
            reason=outcome.reason,
            target=self._rel(outcome.target) if outcome.target is not None else None,
            changes=outcome.changes,
            provenance=provenance,
            preview=outcome.preview,
            flags=flags,
        )

    def _write_document(self, plan: PlannedWrite, extras: EntryExtras) -> _Outcome:
        """about.md and summary.md (knowledge: refused when unsafe) and episodes.md (a record:
        secrets blanked, instruction-shaped text still refused). about.md names the owner and
        the pet only as the owner did (`gate.document_names_unheard`)."""
        if plan.kind == "append":
            verdict = screen_record(plan.content)
            if verdict.text is not None:
                plan = replace(plan, content=verdict.text)
            refusal = verdict.refusal
        else:
            refusal = gate.screen_text(plan.content)
        if refusal is not None:
            decision = gate.Decision(
                action="reject",
                reason_code=refusal.code,
                reason=refusal.message,
                rule_ids=refusal.rule_ids,
            )
            return _refused(plan, decision)
        before = read_or_none(plan.target)
        if plan.target.name == "about.md":
            named = gate.document_names_unheard(
                plan.content,
                provenance=plan.provenance,
                heard=extras.heard,
                active=_existing(self.entries()),
                before=(before or b"").decode("utf-8", "replace"),
                limits=self._limits,
            )
            if named is not None:
                return _refused(plan, named)
        if plan.kind == "append":
            record = self._episode_record(plan)
            durability.append_record(plan.target, record, FILE_MODE)
            change = FileChange(
                self._rel(plan.target),
                _sha256(before) if before is not None else None,
                _sha256((before or b"") + record),
                before_size=len(before) if before is not None else None,
            )
            return _Outcome(
                "append", "recorded", "appended to the episode log", plan.target, (change,)
            )
        content = plan.content
        text = (content if content.endswith("\n") else content + "\n").encode("utf-8")
        if before == text:
            duplicate = gate.Decision(
                action="skip", reason_code=gate.DUPLICATE, reason="the same text is there"
            )
            return _refused(plan, duplicate, plan.target)
        change = self._put(plan.target, text, before)
        if before is None:
            return _Outcome("create", "created", "written", plan.target, (change,))
        return _Outcome("update", "revised", "rewritten", plan.target, (change,))

    def _write_entry(
        self,
        plan: PlannedWrite,
        extras: EntryExtras,
        limits: gate.Limits,
        unit: str = "core",
        *,
        making_room: bool = True,
    ) -> _Outcome:
        assert isinstance(plan.op, Remember) and plan.collection is not None
        directory = collection_dir(self._root, plan.collection)
        if directory.is_symlink() or not directory.is_dir():
            # The store's fault, not the op's: a failed write (audited, told to the owner).
            raise NotADirectoryError(
                errno.ENOTDIR, f"{plan.collection}/ is not a plain directory; refusing", directory
            )
        title = " ".join((extras.title or plan.op.name).split())
        if plan.op.depends_on:  # the model's own declaration, beside what the caller knows
            extras = replace(extras, depends_on=_merged(extras.depends_on, plan.op.depends_on))
        candidate = gate.Candidate(
            collection=plan.collection,
            title=title,
            body=plan.content,
            provenance=plan.provenance,
            stem=extras.stem or plan.stem,
            confidence=extras.confidence,
            heard=extras.heard,
        )
        entries = self.entries()
        decision = gate.decide(candidate, _existing(entries), limits)
        if decision.action != "reject" and candidate.provenance != "owner":
            decision = self._removed_rule_refusal(candidate, entries, limits) or decision
        if (
            making_room
            and self._make_room
            and decision.reason_code in (gate.COLLECTION_FULL, gate.INDEX_FULL)
        ):
            return self._make_room_for(plan, extras, limits, unit, entries, decision)
        if decision.action in ("skip", "reject"):
            found = find_active(entries, decision.target, plan.collection)
            return _refused(plan, decision, self.entry_path(found) if found else None)

        now = iso(self._clock())
        confidence = (
            extras.confidence
            if extras.confidence is not None
            else DEFAULT_CONFIDENCE[plan.provenance]
        )
        changes: list[FileChange] = []
        if decision.action == "update":
            old = find_active(entries, decision.target, plan.collection)
            if old is None:  # the gate names only entries it was shown
                raise MemoryOpError(f"the gate named an unknown entry {decision.target!r}")
            path = self.entry_path(old)
            keep_title = decision.reason_code != gate.REVISED and old.meta.title.strip()
            meta = replace(
                old.meta,
                title=old.meta.title if keep_title else title,
                collection=old.collection,
                provenance=most_trusted(old.meta.provenance, plan.provenance),
                confidence=max(old.meta.confidence, confidence),
                created=old.meta.created or now,
                modified=now,
                last_confirmed=now,
                status="active",
                depends_on=_merged(old.meta.depends_on, extras.depends_on),
                tags=_confirmed(old.meta.tags, extras.tags),
            )
            stem = old.stem
        else:
            stem = self._free_stem(directory, plan.stem or "entry", decision.supersedes)
            path = directory / f"{stem}.md"
            meta = EntryMeta(
                title=title,
                collection=plan.collection,
                provenance=plan.provenance,
                confidence=confidence,
                created=now,
                modified=now,
                last_confirmed=now,
                supersedes=tuple(decision.supersedes),
                depends_on=extras.depends_on,
                tags=extras.tags,
            )
        changes.append(self._put_entry(path, meta, plan.content))
        for old_stem in decision.supersedes:
            old = find_active(entries, old_stem, plan.collection)
            if old is None or old.stem == stem:
                continue
            marked = replace(old.meta, status="superseded", superseded_by=stem, modified=now)
            changes.extend(self._move_to_archive(old, marked))
        return _Outcome(
            decision.action,
            decision.reason_code,
            decision.reason,
            path,
            tuple(changes),
            stem=stem,
            supersedes=tuple(decision.supersedes),
            decision=decision,
        )

    # --- making room (core.memory.room) ------------------------------------------------------

    def _removed_rule_refusal(
        self, candidate: gate.Candidate, entries: Sequence[Entry], limits: gate.Limits
    ) -> gate.Decision | None:
        """The gate's owner_protected refusal against an owner rule someone else removed."""
        if self.removed_owner_rules is None:
            return None
        active = {(e.collection, e.stem) for e in entries if e.meta.status == "active"}
        removed = [r for r in self.removed_owner_rules() if (r.collection, r.stem) not in active]
        if not removed:
            return None
        again = gate.decide(candidate, removed, limits)
        if again.reason_code != gate.OWNER_PROTECTED:
            return None
        return msgspec.structs.replace(
            again,
            reason=f"{again.reason} (deleted, but not by the owner: `shelldon memory undo` "
            "brings it back)",
            target=None,
        )

    def _make_room_for(
        self,
        plan: PlannedWrite,
        extras: EntryExtras,
        limits: gate.Limits,
        unit: str,
        entries: Sequence[Entry],
        full: gate.Decision,
    ) -> _Outcome:
        """The gate found the collection (or the index) full: write a model's fact to the kind
        it belongs to when that one has room, else consolidate it into a related entry, else
        retire the stalest inference and write it, else keep it in the archive. Each way leaves
        the fact where `memory list --all` and undo reach it."""
        assert isinstance(plan.op, Remember) and plan.collection is not None
        kind = room.route(plan.collection, plan.content)
        if kind != plan.collection and plan.provenance != "owner" and extras.stem is None:
            op = msgspec.structs.replace(plan.op, collection=kind)
            target = collection_dir(self._root, kind) / plan.target.name
            routed = replace(plan, op=op, collection=kind, target=target)
            # Final either way: its kind made room, or the fact is known there already.
            return self._write_entry(routed, extras, limits, unit)
        archived = self._archived_count(plan.collection)
        if plan.provenance != "owner" and archived >= limits.archive_cap:
            return _refused(
                plan,
                gate.Decision(
                    action="reject",
                    reason_code=gate.COLLECTION_FULL,
                    reason=f"{plan.collection} is full and its archive is full too ({archived} "
                    f"of {limits.archive_cap}): nothing more is kept there until entries are "
                    "deleted or consolidated",
                    flags=full.flags,
                ),
            )
        related = room.consolidation_target(plan.content, plan.provenance, entries, plan.collection)
        if related is not None:
            merged = replace(plan, content=room.consolidated_body(related.body, plan.content))
            keep = replace(extras, stem=related.stem, title=related.meta.title or None)
            outcome = self._write_entry(merged, keep, limits, unit, making_room=False)
            if outcome.action == "update":
                return replace(
                    outcome,
                    reason_code=room.CONSOLIDATED,
                    reason=f"{plan.collection} is full: folded into "
                    f"{plan.collection}/{related.stem} ({outcome.reason})",
                )
        stale = room.retirement_candidate(entries, plan.collection)
        if stale is not None:
            self._retire(stale, unit, f"{plan.collection} is full; made room for a new entry")
            outcome = self._write_entry(plan, extras, limits, unit, making_room=False)
            if outcome.action not in ("skip", "reject"):
                return outcome
        return self._keep_in_archive(plan, extras, full)

    def _archived_count(self, collection: str) -> int:
        """How many entries `collection`'s archive holds (its files, unparsed)."""
        try:
            with os.scandir(self._root / ARCHIVE_DIR / collection) as listing:
                return sum(1 for d in listing if d.name.endswith(".md"))
        except OSError:
            return 0

    def _retire(self, entry: Entry, unit: str, why: str) -> AuditRecord:
        """Move one entry to the archive, marked retired: its own audited (undoable) change."""
        marked = replace(entry.meta, status="retired", modified=iso(self._clock()))
        changes = self._move_to_archive(entry, marked)
        return self.audit.record(
            unit=unit,
            op="retire",
            action="update",
            reason_code=room.RETIRED,
            reason=f"{entry.collection}/{entry.stem} retired to the archive: {why}",
            target=changes[0].target,
            changes=changes,
            provenance=entry.meta.provenance,
        )

    def _keep_in_archive(
        self, plan: PlannedWrite, extras: EntryExtras, full: gate.Decision
    ) -> _Outcome:
        """No room could be made: the fact is written straight to the archive (retired), so a
        later search finds it, and the flag still asks the dream to consolidate."""
        assert isinstance(plan.op, Remember) and plan.collection is not None
        directory = self._root / ARCHIVE_DIR / plan.collection
        stem = self._free_stem(self._root / plan.collection, plan.stem or "entry", ())
        path = directory / f"{stem}.md"
        now = iso(self._clock())
        confidence = extras.confidence
        meta = EntryMeta(
            title=" ".join((extras.title or plan.op.name).split()),
            collection=plan.collection,
            provenance=plan.provenance,
            confidence=confidence
            if confidence is not None
            else DEFAULT_CONFIDENCE[plan.provenance],
            created=now,
            modified=now,
            last_confirmed=now,
            status="retired",
            depends_on=extras.depends_on,
            tags=extras.tags,
        )
        change = self._put_entry(path, meta, plan.content)
        decision = msgspec.structs.replace(full, action="create", reason_code=room.ARCHIVED)
        return _Outcome(
            "create",
            room.ARCHIVED,
            f"{full.reason}; no entry could make room, so it is kept in the archive",
            path,
            (change,),
            stem=stem,
            decision=decision,
        )

    def _move_to_archive(self, entry: Entry, meta: EntryMeta) -> list[FileChange]:
        """The entry written to archive/<collection>/ with `meta`, then removed from its
        collection (a kill in between leaves both copies, the active one still active)."""
        source = self.entry_path(entry)
        target = self._root / ARCHIVE_DIR / entry.collection / source.name
        changes = [self._put_entry(target, meta, entry.body)]
        if source != target:
            changes.append(self._remove(source))
        return changes

    def _restore_from_archive(self, entry: Entry, meta: EntryMeta) -> list[FileChange]:
        """The reverse move: an archived entry active again in its collection."""
        source = self.entry_path(entry)
        target = self._root / entry.collection / source.name
        return [self._put_entry(target, meta, entry.body), self._remove(source)]

    def _remove(self, path: Path) -> FileChange:
        before = path.read_bytes()
        self.audit.keep_blob(before)
        path.unlink()
        durability.sync_dir(path.parent)
        return FileChange(self._rel(path), _sha256(before), None)

    def _archive_superseded_in_place(self) -> None:
        stranded = [e for e in self.entries() if e.meta.status != "active"]
        if not stranded:
            return
        changes = [c for e in stranded for c in self._move_to_archive(e, e.meta)]
        self.audit.record(
            unit="core",
            op="archive",
            action="update",
            reason_code="archived",
            reason=f"moved {len(stranded)} superseded entries to the archive",
            changes=changes,
            provenance="owner",
        )

    def _episode_record(self, plan: PlannedWrite) -> bytes:
        assert isinstance(plan.op, LogEpisode)
        header = f"## {iso(self._clock())}"
        if plan.op.tags:  # brackets dropped: a tag may not close the list and fake a turn id
            tags = (" ".join(t.translate(_HEADER_MARKS).split()) for t in plan.op.tags)
            header += " [" + ", ".join(tags) + "]"
        if plan.turn_id:
            header += f" (turn {' '.join(plan.turn_id.split())})"
        return f"{header}\n{record_body(plan.content)}\n\n".encode()

    # --- the files --------------------------------------------------------------------------

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        """One writer at a time across processes (core, and the CLI when core is not running)."""
        fd = os.open(
            self._root / WRITE_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, layout.PRIVATE_FILE_MODE
        )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _put(self, path: Path, data: bytes, before: bytes | None) -> FileChange:
        """Replace one file atomically, keeping its prior content (`before`) for undo."""
        if before is not None:
            self.audit.keep_blob(before)
        durability.replace_file(path, data, FILE_MODE)
        return FileChange(
            self._rel(path), _sha256(before) if before is not None else None, _sha256(data)
        )

    def _put_entry(self, path: Path, meta: EntryMeta, body: str) -> FileChange:
        return self._put(path, render_entry(meta, body).encode("utf-8"), read_or_none(path))

    def _free_stem(self, directory: Path, stem: str, taken: Sequence[str]) -> str:
        """`stem`, or `stem-2`, `stem-3`… when a file (a superseded entry, say) holds it."""
        candidate, n = stem, 1
        archive = self._root / ARCHIVE_DIR / directory.name
        while (
            candidate in taken
            or (directory / f"{candidate}.md").exists()
            or (archive / f"{candidate}.md").exists()
        ):
            n += 1
            candidate = f"{stem}-{n}"
        return candidate

    def rebuild_tree(self, gid: int | None = None) -> int:
        """The tree removed or replaced under a running core (core.upkeep.store_watch): make its
        directories again, MEMORY.md from what is left. Returns the entries left."""
        layout.prepare_memory(self._root, gid)
        with self._write_lock():
            self._refresh_index()
            return len(self.entries())

    def _refresh_index(self) -> None:
        """Rewrite MEMORY.md from the entries when it changed (bounded; see core.memory.index), and
        bring the archive's search index in line."""
        path = self._root / MEMORY_INDEX
        archived = self.archived_entries()
        text = render_index([*self.entries(), *archived]).encode("utf-8")
        if read_or_none(path) != text:
            durability.replace_file(path, text, FILE_MODE)
        # The retired entries' search index follows the files (an undo, a forget, a hand edit).
        sync_archive_index(self._root, archived)

    def _sweep_temp_files(self) -> None:
        """Remove temp files a killed writer left behind (only our writer's names, only of dead
        processes: core.storage.layout)."""
        layout.sweep_temp_files_in(
            (
                self._root,
                *(self._root / c for c in COLLECTION_NAMES),
                *(self._root / ARCHIVE_DIR / c for c in COLLECTION_NAMES),
            )
        )


def _refused(plan: PlannedWrite, decision: gate.Decision, where: Path | None = None) -> _Outcome:
    """A skip or a reject: nothing is written. The audit keeps the text's sha256, never the
    text (not even blanked: a refused text is the attacker's, and a blank can miss)."""
    text_sha256 = None
    if decision.action == "reject":
        text_sha256 = _sha256(plan.content.encode("utf-8", "surrogatepass"))
    return _Outcome(
        decision.action,
        decision.reason_code,
        decision.reason,
        where,
        text_sha256=text_sha256,
        stem=decision.target,
        decision=decision,
    )


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


def _entry_title(entry: Entry) -> str:
    if entry.meta.title.strip():
        return " ".join(entry.meta.title.split())
    first = next((line for line in entry.body.splitlines() if line.strip()), entry.stem)
    return " ".join(first.lstrip("#").split())[:120]


def _confirmed(old: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    """The tags of an updated entry: both sets, but "unverified" only while both carry it (a
    confirmed write confirms an unverified entry; an unverified one never unconfirms)."""
    tags = _merged(old, new)
    if UNVERIFIED_TAG in old and UNVERIFIED_TAG in new:
        return tags
    return tuple(t for t in tags if t != UNVERIFIED_TAG)


def _merged(old: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*old, *new]))
