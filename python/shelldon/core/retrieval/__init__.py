"""How a remembered fact reaches the prompt: which curated entries a turn carries, and how.

- `rank`: ranked retrieval within a fixed budget (4 in full within 3,000 characters, 12 by title,
  the rest counted), over the Rust ranker.
- `terms`: each entry's terms, computed once per version and shared with the workers.
- `names`: names and relations from curated memory widen history recall ("my sister" <-> Ana).
- `scopes`: a project's memory beside the global one, ranked together.

A worker imports these and `core.memory.reader`; none of them imports a writer.
"""
