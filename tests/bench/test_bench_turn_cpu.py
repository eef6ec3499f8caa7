"""CPU per turn of the real pet (scripts/turn_cpu.py's measure: core, the broker, the fork-server
and its reaped workers, from /proc/PID/stat), this checkout against the tree before Step 18, in
one run. The benchmark's timer is the pet's CPU, not the wall clock: a round is ROUND_TURNS turns
of the measuring mix (each followed by `status`), after SHELLDON_BENCH_WARM turns (default 400:
the owner's language window full, as in docs/performance.md's figures), so a round's figure is
CPU seconds for ROUND_TURNS turns and the ratio of the two rows' medians is the ratio asked.

The tree before is a built checkout of 2fec9e3 (`git worktree add DIR 2fec9e3 && (cd DIR &&
./just dev)`) named by SHELLDON_BEFORE_TREE; without it that row is skipped. As root each pet's
workers drop to a throwaway worker user, as on the card. `just bench -k turn_cpu`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.scripts import load_script

ROUND_TURNS = 20  # /proc counts CPU in 10 ms ticks: a round of ~300 ms keeps that within ~3 %
ROUNDS = 5
THIS_TREE = Path(__file__).resolve().parents[2]


def _tree(which: str) -> Path:
    if which == "now":
        return THIS_TREE
    named = os.environ.get("SHELLDON_BEFORE_TREE")
    if not named or not (Path(named) / "python" / "shelldon").is_dir():
        pytest.skip("SHELLDON_BEFORE_TREE names no checkout (the built tree before Step 18)")
    return Path(named)


@pytest.mark.benchmark(group="turn-cpu")
@pytest.mark.parametrize("which", ["before", "now"])
def test_bench_turn_cpu(benchmark, request: pytest.FixtureRequest, which: str) -> None:  # type: ignore[no-untyped-def]
    tree = _tree(which)
    worker = request.getfixturevalue("worker_user").name if os.geteuid() == 0 else None
    turn_cpu = load_script("turn_cpu")
    warm = int(os.environ.get("SHELLDON_BENCH_WARM", "400"))
    with turn_cpu.running(tree, worker) as (run_dir, turn):
        for i in range(warm):
            turn(i)
        turns = iter(range(warm, warm + ROUND_TURNS * (ROUNDS + 1)))

        def a_round() -> None:
            for _ in range(ROUND_TURNS):
                turn(next(turns))

        benchmark._timer = lambda: turn_cpu.pet_cpu(run_dir)  # the pet's CPU, not ours
        benchmark.pedantic(a_round, rounds=ROUNDS, warmup_rounds=1)
    per_turn_ms = benchmark.stats.stats.median / ROUND_TURNS * 1000
    benchmark.extra_info["cpu_ms_per_turn"] = round(per_turn_ms, 2)
    assert per_turn_ms > 0  # the pet did the turns' work (a timer stuck at 0 would read 0)
