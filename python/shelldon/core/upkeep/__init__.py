"""Keeping a data root whole: what a killed core left, and backup, restore, repair.

- `recovery`: temp files of interrupted writes and torn tails, settled at core's start.
- `backup`: `shelldon backup | restore | repair`.
"""
