"""The command line's start time: `shelldon --help` and `shelldon say` (no pet: up to the socket)
as subprocesses, against `python -c pass` as the baseline. Compare within the group: the ratio to
the baseline matters (a Pi is 10-20x slower than a laptop in every column). `just bench -k cli`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str) -> int:
    return subprocess.run(
        [sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    ).returncode


@pytest.mark.benchmark(group="cli-start")
def test_bench_python_baseline(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark.pedantic(run, ("-c", "pass"), rounds=15, warmup_rounds=2) == 0


@pytest.mark.benchmark(group="cli-start")
def test_bench_cli_help(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark.pedantic(run, ("-m", "shelldon", "--help"), rounds=15, warmup_rounds=2) == 0


@pytest.mark.benchmark(group="cli-start")
def test_bench_cli_say_not_running(benchmark, run_dir: Path) -> None:  # type: ignore[no-untyped-def]
    code = benchmark.pedantic(run, ("-m", "shelldon", "say", "hi"), rounds=15, warmup_rounds=2)
    assert code == 1  # no pet: "shelldon is not running", after every import `say` makes


@pytest.mark.benchmark(group="cli-start")
def test_bench_cli_say_answered(benchmark, run_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """`say` against a stand-in core that answers at once: the start, the frame, the reply."""
    from shelldon.contracts import wire
    from support.fake_core import serving_core

    reply = wire.Reply(text="hi", turn_id="t")
    with serving_core(run_dir, lambda message: reply):
        code = benchmark.pedantic(run, ("-m", "shelldon", "say", "hi"), rounds=15, warmup_rounds=2)
    assert code == 0
