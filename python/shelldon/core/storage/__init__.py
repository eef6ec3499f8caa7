"""The data root on disk: its directories and modes, when writes become durable, faults at start.

- `layout`: the one place that creates (or checks) the data root's directories and modes.
- `durability`: one sync for a turn's writes.
- `check`: storage faults found at start and failed writes, said in one line.
"""
