"""Keeping a data root whole: what a killed core left, and backup, restore, repair.

- `recovery`: temp files of interrupted writes and torn tails, settled at core's start.
- `torn_entries`: entry files found torn at start, set aside and recovered where the audit can.
- `store_watch`: a store removed or swapped under the running pet: noticed, told, mended.
- `backup`: `shelldon backup | restore | repair`.
"""
