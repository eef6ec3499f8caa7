"""Conversation history and learnings: one sqlite file (WAL + FTS5), core its only writer.

- `store`: `HistoryStore` (core's writer) and `HistoryReader` (`open_readonly`, the worker's).
- `recall`: history recall: candidates by rarity, then ranked (docs/recall.md).
- `recall_dates`: the date a recall query names.
- `migrations`: the schema, as numbered forward migrations on `PRAGMA user_version`.
"""
