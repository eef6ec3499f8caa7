"""Every read of the memory tree, and nothing else: the handle a worker gets.

`MemoryReader(root)` opens nothing and creates nothing; it has no write method to call (and the
worker's uid could not write the tree anyway). Core's `CuratedMemory` is a `MemoryReader` with
the write path added, so core reads through the same code.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.memory.entry import Entry, parse_entry
from shelldon.paths import ARCHIVE_DIR

log = logging.getLogger(__name__)

MAX_READ_BYTES = 1_000_000  # a hand-edited giant file is skipped, not loaded on a 416 MB Pi


def whole_episodes_length(data: bytes) -> int:
    """How many leading bytes of episodes.md are whole records. A record (core.memory.writer) is
    `## <UTC time> ...` up to a blank line, so text after the last blank line is a torn record
    (an append cut short by a kill or a full disk, maybe inside its header): the whole part ends
    at the last record boundary, a blank line followed by `## `. A file with no record in the
    episode shape loses only a last line that lacks its newline."""
    if not data or data.endswith(b"\n\n"):
        return len(data)
    boundary = data.rfind(b"\n\n## ")
    if boundary >= 0:
        return boundary + 2
    if data.startswith(b"## "):
        return 0
    return data.rfind(b"\n") + 1


class MemoryReader:
    """The memory tree under `root` (`<data root>/memory`), read-only."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self._root = Path(root).absolute()
        # Per directory scanned: its entries' names -> (identity, parsed entry), as `_scan` last
        # found them (a name no longer listed is dropped, so it holds what the tree holds).
        self._parsed: dict[Path, dict[str, tuple[tuple[int, int, int, int], Entry]]] = {}

    @property
    def root(self) -> Path:
        return self._root

    @property
    def vault(self) -> Path:
        return self._root / "vault"

    def read_directive(self) -> str | None:
        """The owner's DIRECTIVE.md. Read-only: no write path to this file exists anywhere."""
        return self._read_text(self._root / "DIRECTIVE.md")

    def read_about(self) -> str | None:
        return self._read_text(self._root / "about.md")

    def read_summary(self) -> str | None:
        return self._read_text(self._root / "summary.md")

    def read_episodes(self) -> str | None:
        """The whole records of episodes.md; a torn last record is left out."""
        text = self._read_text(self._root / "episodes.md")
        if text is None:
            return None
        data = text.encode("utf-8", "surrogateescape")
        return data[: whole_episodes_length(data)].decode("utf-8", "replace")

    def entries(self) -> list[Entry]:
        """Every curated entry in the collections, parsed, ordered by collection then stem
        (deterministic). The worker's hot path: superseded and retired entries live in the
        archive (`archived_entries`) and are not read here."""
        return self._scan(self._root)

    def archived_entries(self) -> list[Entry]:
        """Superseded and retired entries (memory/archive/<collection>/), `archived=True`."""
        return [replace(e, archived=True) for e in self._scan(self._root / ARCHIVE_DIR)]

    def all_entries(self) -> list[Entry]:
        """The collections, then the archive: what `memory list --all` shows."""
        return [*self.entries(), *self.archived_entries()]

    def _scan(self, base: Path) -> list[Entry]:
        found: list[Entry] = []
        for collection in COLLECTION_NAMES:
            directory = base / collection
            try:
                with os.scandir(directory) as listing:
                    items = sorted((d.name, d) for d in listing)
            except OSError:
                self._parsed.pop(directory, None)
                continue
            parsed = self._parsed.setdefault(directory, {})
            # An entry moved to the archive or deleted is forgotten here: kept, every name the
            # directory ever held stayed parsed for good (349 more over core's 2,500-turn soak).
            for gone in parsed.keys() - {name for name, _ in items}:
                parsed.pop(gone, None)  # another thread may have dropped it
            for name, dirent in items:
                if name.startswith(".") or not name.endswith(".md"):
                    continue
                entry = self._read_entry(parsed, directory / name, collection, dirent)
                if entry is not None:
                    found.append(entry)
        return found

    def read_all_collections(self) -> dict[str, dict[str, str]]:
        """{collection: {stem: body}} for the prompt, every collection present (maybe empty)."""
        out: dict[str, dict[str, str]] = {c: {} for c in COLLECTION_NAMES}
        for entry in self.entries():
            out[entry.collection][entry.stem] = entry.body
        return out

    def find_entry(self, name: str) -> Entry:
        """An entry by "<collection>/<stem>" or by a stem unique across collections; the archive
        is searched when the collections hold no such entry ("archive/facts/tea" names an
        archived one directly). Raises LookupError naming the candidates when it is absent or
        ambiguous."""
        want = name.strip().removesuffix(".md")
        archived_only = want.startswith(f"{ARCHIVE_DIR}/")
        want = want.removeprefix(f"{ARCHIVE_DIR}/")
        collection, _, stem = want.rpartition("/")

        def among(entries: list[Entry]) -> list[Entry]:
            return [
                e
                for e in entries
                if e.stem == stem and (not collection or e.collection == collection)
            ]

        matches = [] if archived_only else among(self.entries())
        if not matches:
            matches = among(self.archived_entries())
        if not matches:
            raise LookupError(f"no entry named {shown_name(name)}")
        if len(matches) > 1:
            names = ", ".join(entry_name(e) for e in matches)
            raise LookupError(f"{shown_name(name)} is ambiguous: {names}")
        return matches[0]

    def entry_path(self, entry: Entry) -> Path:
        base = self._root / ARCHIVE_DIR if entry.archived else self._root
        return base / entry.collection / f"{entry.stem}.md"

    def _rel(self, path: Path) -> str:
        return path.relative_to(self._root).as_posix()

    def _read_entry(
        self,
        parsed: dict[str, tuple[tuple[int, int, int, int], Entry]],
        path: Path,
        collection: str,
        dirent: os.DirEntry[str] | None = None,
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
        cached = parsed.get(path.name)
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        text = self._read_text(path)
        if text is None:
            parsed.pop(path.name, None)
            return None
        entry = parse_entry(text, source=f"{collection}/{path.name}")
        entry = replace(entry, stem=path.name.removesuffix(".md"), collection=collection)
        if key is not None:
            parsed[path.name] = (key, entry)
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


SHOWN_NAME_CHARS = 80


def shown_name(name: str) -> str:
    """A name as an error message echoes it: quoted, escaped, at most SHOWN_NAME_CHARS of it (a
    caller's 300,000-character name must not come back whole)."""
    if len(name) <= SHOWN_NAME_CHARS:
        return repr(name)
    return f"{name[:SHOWN_NAME_CHARS]!r}… ({len(name)} characters)"


def entry_name(entry: Entry) -> str:
    """ "<collection>/<stem>", or "archive/<collection>/<stem>" for an archived entry."""
    name = f"{entry.collection}/{entry.stem}"
    return f"{ARCHIVE_DIR}/{name}" if entry.archived else name


def find_active(entries: Sequence[Entry], stem: str | None, prefer: str) -> Entry | None:
    """The active entry with `stem`, from `prefer`'s collection first (the gate names stems
    only, and only of active entries)."""
    if stem is None:
        return None
    found = [e for e in entries if e.stem == stem]
    # The gate only names active entries: an active one anywhere beats a superseded namesake.
    found.sort(key=lambda e: (e.meta.status != "active", e.collection != prefer, e.collection))
    return found[0] if found else None
