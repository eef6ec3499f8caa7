"""The curated markdown tree: core is its only writer, and DIRECTIVE.md has no write path at all.

Shaped like `core.history`: `MemoryReader` is the read-only handle a worker gets, and core's
`CuratedMemory` is a reader with the write path added. One module per part, lowest first:

- `reader`: every read (`read_directive`, `read_about`, `entries`, …); opening creates nothing.
- `plan`: an op validated and resolved to its target before any disk access; the result types.
- `writer`: the gated write path (`apply_memory_op`), each decision audited in one place.
- `lifecycle`: `CuratedMemory`, the writer plus the owner's forget, retire and undo.

The tree's directories and modes are made by `core.layout`, nowhere here.
"""

from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import (
    MAX_CONTENT_CHARS,
    MAX_NAME_CHARS,
    MAX_TAGS,
    Applied,
    EntryExtras,
    MemoryOpError,
    PlannedWrite,
    unit_for,
)
from shelldon.core.memory.reader import MAX_READ_BYTES, MemoryReader
from shelldon.core.memory.writer import DEFAULT_CONFIDENCE, FILE_MODE, LOCK_NAME, MemoryWriter

__all__ = [
    "DEFAULT_CONFIDENCE",
    "FILE_MODE",
    "LOCK_NAME",
    "MAX_CONTENT_CHARS",
    "MAX_NAME_CHARS",
    "MAX_READ_BYTES",
    "MAX_TAGS",
    "Applied",
    "CuratedMemory",
    "EntryExtras",
    "MemoryOpError",
    "MemoryReader",
    "MemoryWriter",
    "PlannedWrite",
    "unit_for",
]
