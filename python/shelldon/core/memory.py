"""The curated markdown tree: core is its only writer, and DIRECTIVE.md has no write path at all.

Every op is validated (types, sizes, the filename stem, the path check) before any disk access;
the gate then decides (`_decide`, the one seam); only then is anything written, atomically and
durably through the Rust writer (`shelldon._native.atomic_write` / `durable_append`).

Write targets are a closed set: `about.md`, `summary.md`, `episodes.md` (fixed names in the root)
and `<collection>/<stem>.md` whose parent must be the collection directory. `DIRECTIVE.md` is
read by `read_directive` and named nowhere else.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from shelldon import _native
from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    LogEpisode,
    MemoryOp,
    Remember,
    RewriteAbout,
    RewriteSummary,
)
from shelldon.core.entry import PROVENANCES, Entry, EntryMeta, Provenance, iso_utc, parse_entry
from shelldon.core.entry import render_entry as _render_entry

log = logging.getLogger(__name__)

DIR_MODE = 0o755  # the worker (another uid) reads the tree
FILE_MODE = 0o644
VAULT_MODE = 0o700  # the worker may not even traverse it
MAX_CONTENT_CHARS = 64_000  # hard ceiling before the gate's own, tighter limits
MAX_NAME_CHARS = 200
MAX_READ_BYTES = 1_000_000  # a hand-edited giant file is skipped, not loaded on a 416 MB Pi
MAX_TAGS = 16


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
class Applied:
    """What apply_memory_op did. (Becomes the gate's Decision once the gate is wired in.)"""

    action: Literal["create", "update", "append", "skip", "reject"]
    target: Path
    reason: str = ""


def _utc_now() -> datetime:
    return datetime.now(UTC)


class CuratedMemory:
    """The memory tree under `root` (`<data root>/memory`)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        readonly: bool = False,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._root = Path(root).absolute()
        self._readonly = readonly
        self._clock = clock
        if not readonly:
            self._create_tree()
            self._sweep_temp_files()

    # --- the tree -------------------------------------------------------------------------

    @property
    def root(self) -> Path:
        return self._root

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
        self, op: MemoryOp, *, provenance: Provenance = "inferred", turn_id: str | None = None
    ) -> Applied:
        """Validate, let the gate decide, then write atomically. Raises MemoryOpError (invalid
        op, nothing touched) or OSError (the write failed, the old file is untouched)."""
        if self._readonly:
            raise PermissionError("this CuratedMemory was opened read-only")
        plan = self._plan(op, provenance, turn_id)
        verdict = self._decide(plan)
        if verdict is not None:
            return verdict
        return self._write(plan)

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

    def _decide(self, plan: PlannedWrite) -> Applied | None:
        """THE SEAM: the gate decides here, before anything is written. Return None to write
        `plan` as is, or a result (skip / reject) to stop. Until the gate is wired: write."""
        del plan
        return None

    def _write(self, plan: PlannedWrite) -> Applied:
        if plan.kind == "append":
            _native.durable_append(plan.target, self._episode_record(plan), FILE_MODE)
            return Applied("append", plan.target)
        existed = plan.target.exists()
        if plan.collection is not None:
            directory = self.collection_dir(plan.collection)
            if directory.is_symlink() or not directory.is_dir():
                raise MemoryOpError(f"{plan.collection}/ is not a plain directory; refusing")
            text = self._render_collection_entry(plan, existed)
        else:
            text = plan.content if plan.content.endswith("\n") else plan.content + "\n"
        _native.atomic_write(plan.target, text.encode("utf-8"), FILE_MODE)
        return Applied("update" if existed else "create", plan.target)

    def _render_collection_entry(self, plan: PlannedWrite, existed: bool) -> str:
        now = iso_utc(self._clock())
        assert isinstance(plan.op, Remember)
        meta = EntryMeta(
            title=plan.op.name.strip(),
            collection=plan.collection or "",
            provenance=plan.provenance,
            created=now,
            modified=now,
            last_confirmed=now,
        )
        if existed:
            old = self._read_entry(plan.target, plan.collection or "")
            if old is not None and not old.defaulted:
                # An update keeps the entry's history; the gate decides provenance changes.
                meta = replace(
                    old.meta,
                    title=meta.title,
                    provenance=plan.provenance,
                    modified=now,
                    last_confirmed=now,
                    created=old.meta.created or now,
                )
        return _render_entry(meta, plan.content)

    def _episode_record(self, plan: PlannedWrite) -> bytes:
        assert isinstance(plan.op, LogEpisode)
        header = f"## {iso_utc(self._clock())}"
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
                names = sorted(p.name for p in directory.iterdir())
            except OSError:
                continue
            for name in names:
                if name.startswith(".") or not name.endswith(".md"):
                    continue
                entry = self._read_entry(directory / name, collection)
                if entry is not None:
                    found.append(entry)
        return found

    def read_all_collections(self) -> dict[str, dict[str, str]]:
        """{collection: {stem: body}} for the prompt, every collection present (maybe empty)."""
        out: dict[str, dict[str, str]] = {c: {} for c in COLLECTION_NAMES}
        for entry in self.entries():
            out[entry.collection][entry.stem] = entry.body
        return out

    def _read_entry(self, path: Path, collection: str) -> Entry | None:
        text = self._read_text(path)
        if text is None:
            return None
        entry = parse_entry(text, source=f"{collection}/{path.name}")
        return replace(entry, stem=path.name.removesuffix(".md"), collection=collection)

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
