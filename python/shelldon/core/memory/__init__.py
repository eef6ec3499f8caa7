"""The curated markdown tree: core is its only writer, and DIRECTIVE.md has no write path at all.

Shaped like `core.history`: `reader.MemoryReader` is the read-only handle a worker gets, and
core's `lifecycle.CuratedMemory` is a reader with the write path added. One module per part,
lowest first; import the module you need (this face imports nothing, so a reader never loads a
writer):

- `entry`: an entry's front matter (provenance, confidence, dates, supersedes, depends_on).
- `reader`: every read (`read_directive`, `read_about`, `entries`, …); opening creates nothing.
- `archive`: superseded and retired entries off the hot path, and their search index.
- `plan`: an op validated and resolved to its target before any disk access; the result types.
- `room`: what a full collection does (route, consolidate, retire, keep in the archive).
- `index`: MEMORY.md, one line per entry.
- `audit`: `history.jsonl`, one line per decision, and undo.
- `writer`: the gated write path (`apply_memory_op`), each decision audited in one place.
- `lifecycle`: `CuratedMemory`, the writer plus the owner's forget, retire and undo.
- `derived`: what the pet derived from an entry (its reflection's facts), so forget and undo
  follow it.

The tree's directories and modes are made by `core.storage.layout`, nowhere here.
"""
