"""The undo blob store: the prior content of every replaced or deleted memory file, by sha256.

The audit log (core.memory.audit) keeps, for each change, the sha256 of what the file held
before; undo reads that content back from here. Blobs live in `memory/.undo/` (0700: a worker must
not read what the owner asked to forget) as lines appended to one file, `blobs.jsonl` (0600):

    {"sha256": "<64 hex>", "ts": <unix seconds>, "b64": "<the content, base64>"}

One appended line per change, not a file per change: a new file costs the card an inode, a
directory entry and a 4 KiB data block for a few hundred bytes, ~7 KiB a memory-writing turn
(docs/performance.md, "What reaches the SD card"). An append is `durability.append_record`:
inside a turn's batch it is fsynced with the turn's other files. A torn last line (a killed
writer, a power cut) is skipped by every reader; the next append starts a line of its own
(rust/src/append.rs). A store made before keeps its `.undo/<sha256>` files: they are read, and
dropped at rotation like the lines, as before.

Appends and the rewrite that drops lines nobody needs hold the audit log's lock (`locked`), so an
append in another process (the CLI, the dream) can never land in a file the rewrite replaced.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from shelldon import digests
from shelldon.core.storage import durability, layout
from shelldon.paths import UNDO_PACK

log = logging.getLogger(__name__)

_SHA256 = re.compile(r"[0-9a-f]{64}")
_PREFIX = b'{"sha256": "'


class BlobMissing(LookupError):
    """No intact copy of the content is kept (never kept, dropped, or lost with a power cut)."""


class BlobDamaged(LookupError):
    """The kept content does not hash to its name."""


def sha256_hex(data: bytes) -> str:
    return digests.sha256_hex(data)


class BlobStore:
    """`memory/.undo/`: `keep` content, `read` it back by sha256, `collect` what is not wanted."""

    def __init__(
        self, undo_dir: Path, locked: Callable[[], contextlib.AbstractContextManager[None]]
    ):
        self.dir = Path(undo_dir)
        self.pack = self.dir / UNDO_PACK
        self._locked = locked
        # The digests in the pack as of (inode, size): rescanned only when another process
        # changed it since.
        self._digests: set[str] = set()
        self._seen: tuple[int, int] | None = None

    def keep(self, data: bytes) -> str:
        """Keep `data` (once: content-addressed); returns its sha256."""
        digest = sha256_hex(data)
        durability.ensure_dir(self.dir, layout.PRIVATE_MODE)
        if os.path.exists(self._loose(digest)):  # a store made before the pack
            return digest
        line = json.dumps(
            {"sha256": digest, "ts": round(time.time(), 3), "b64": base64.b64encode(data).decode()}
        )
        with self._locked():
            if digest in self._current_digests():
                return digest
            durability.append_record(self.pack, (line + "\n").encode(), layout.PRIVATE_FILE_MODE)
            self._digests.add(digest)
            st = self.pack.stat()
            self._seen = (st.st_ino, st.st_size)
        return digest

    def read(self, digest: str) -> bytes:
        """The content whose sha256 is `digest`: BlobMissing or BlobDamaged otherwise."""
        try:
            with open(self._loose(digest), "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            pass
        else:
            if sha256_hex(data) != digest:
                raise BlobDamaged(digest)
            return data
        damaged = False
        for found, _, content in self._entries():
            if found != digest:
                continue
            if content is not None and sha256_hex(content) == digest:
                return content
            damaged = True
        raise BlobDamaged(digest) if damaged else BlobMissing(digest)

    def _loose(self, digest: str) -> str:
        """A blob's own file (a store made before the pack), as a str: a Path would intern the
        digest (pathlib interns every part before Python 3.14), a new name in the interpreter's
        interned-string table each turn, whose churn resized it (+0.9 MB of core, the soak)."""
        return os.path.join(self.dir, digest)

    def collect(self, wanted: set[str], grace_s: float) -> None:
        """Drop every blob not in `wanted` and older than `grace_s` (a younger one may belong to
        a write whose audit line is not appended yet). The caller holds the audit log's lock."""
        if not self.dir.is_dir():
            return
        cutoff = time.time() - grace_s
        for blob in self.dir.iterdir():  # a store made before the pack: one file per blob
            if blob.name in wanted or not _SHA256.fullmatch(blob.name):
                continue
            try:
                if blob.stat().st_mtime < cutoff:
                    blob.unlink()
            except FileNotFoundError:
                continue
        try:
            raw = self.pack.read_bytes()
        except FileNotFoundError:
            return
        kept: list[bytes] = []
        dropped = 0
        for line in raw.splitlines(keepends=True):
            parsed = _parse(line)
            if parsed is not None and (parsed[0] in wanted or parsed[1] >= cutoff):
                kept.append(line)
            else:
                dropped += 1
        if dropped:
            durability.replace_file(self.pack, b"".join(kept), layout.PRIVATE_FILE_MODE)
            self._seen = None
            log.info("undo blobs: %d dropped, %d kept", dropped, len(kept))

    # --- reading the pack ---------------------------------------------------------------

    def _current_digests(self) -> set[str]:
        try:
            st = self.pack.stat()
        except FileNotFoundError:
            self._digests, self._seen = set(), None
            return self._digests
        if self._seen != (st.st_ino, st.st_size):
            self._digests = {
                digest for digest, _, content in self._entries() if content is not None
            }
            self._seen = (st.st_ino, st.st_size)
        return self._digests

    def _entries(self) -> Iterator[tuple[str, float, bytes | None]]:
        """(sha256, ts, content) for each complete line; content None when it cannot be
        decoded. A torn or foreign line is skipped."""
        try:
            handle = self.pack.open("rb")
        except FileNotFoundError:
            return
        with handle:
            for line in handle:
                parsed = _parse(line)
                if parsed is not None:
                    yield parsed


def _parse(line: bytes) -> tuple[str, float, bytes | None] | None:
    if not line.endswith(b"\n") or not line.startswith(_PREFIX):
        return None  # torn (the last line of a cut write), or not ours
    try:
        record = json.loads(line)
        digest, ts = record["sha256"], float(record["ts"])
        encoded = record["b64"]
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
        return None
    try:
        content: bytes | None = base64.b64decode(encoded, validate=True)
    except (binascii.Error, TypeError, ValueError):
        content = None
    return digest, ts, content
