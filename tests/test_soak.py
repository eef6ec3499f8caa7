"""scripts/soak.py at a small size: the real pet for 20 turns of the mix, a row every 10. The full
curve (2,500 turns) is `just soak`, outside the default run (docs/performance.md)."""

from __future__ import annotations

import pytest

from support.scripts import load_script


@pytest.mark.usefixtures("home")
def test_a_short_soak_gives_a_row_per_interval_of_every_process() -> None:
    soak = load_script("soak")
    rows = soak.soak(20, 10, None)
    assert [row.turns for row in rows] == [0, 10, 20]
    for row in rows:
        assert set(row.rss_kb) == set(row.pss_kb) == {"core", "broker", "forkserver"}
        assert all(kb > 1000 for kb in row.rss_kb.values())
        assert row.pss_total_kb == sum(row.pss_kb.values())
    # Core wrote history for every turn: its write calls are counted, and a row's table line
    # carries them.
    assert all(row.write_call_bytes_per_turn > 0 for row in rows[1:])
    assert soak.table(rows).count("\n") == len(rows) + 1
