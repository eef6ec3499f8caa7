"""The benchmark with a real model (`pytest --live`): does memory change what phase B achieves?

Point it at a data root whose shelldon.toml names a provider chain and whose vault holds its keys
(as tests/broker/test_live_provider.py):

    SHELLDON_LIVE_HOME=~/.shelldon just test tests/agent/test_live_benchmark.py --live

Phase A: the model works the failing workspace (tests/support/agent_bench.py) and reflects. Phase
B, from A's finished workspace with the schema changed: once with A's memory, once wiped. The run
appends one row to docs/agent-benchmark.md. A model's wording cannot fail the plumbing checks
here; whether phase B passed is the figure, recorded either way.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support import agent_bench as bench

pytest.importorskip("mcp", reason="the agent extra is not installed (pip install '.[agent]')")
anyio = pytest.importorskip("anyio")

LIVE_HOME_ENV = "SHELLDON_LIVE_HOME"
TABLE = Path(__file__).resolve().parents[2] / "docs" / "agent-benchmark.md"


@pytest.mark.live
def test_memory_changes_what_phase_b_achieves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_home = os.environ.get(LIVE_HOME_ENV)
    if not live_home:
        pytest.skip(f"set {LIVE_HOME_ENV} to a data root with shelldon.toml and its vault keys")
    from shelldon.broker.server import build_chain
    from shelldon.broker.vault import surface_vault
    from shelldon.config import load_config
    from shelldon.contracts.brain import CompletionRequest
    from shelldon.paths import DataRoot

    monkeypatch.delenv("SHELLDON_OFFLINE", raising=False)
    monkeypatch.delenv("SHELLDON_CONFIG", raising=False)
    root = DataRoot.resolve(Path(live_home).expanduser())
    config = load_config(root)
    http = [p for p in config.providers if p.kind != "offline"]
    if not http:
        pytest.skip(f"{root.config} configures no HTTP provider")
    chain = build_chain(config, root=root, read_secret=lambda name: surface_vault(root, name))

    def brain(request: CompletionRequest) -> str:
        return chain.complete(request).text

    home = tmp_path / "home"
    phase_a = bench.make_workspace(tmp_path / "a")
    a = anyio.run(bench.run_agent, brain, phase_a, home, bench.PHASE_A_TASK)
    runs = {}
    for name in ("memory", "wiped"):
        workspace = tmp_path / f"b-{name}"
        shutil.copytree(phase_a, workspace)
        bench.change_schema(workspace)
        if name == "wiped":
            shutil.rmtree(workspace / ".shelldon", ignore_errors=True)
        run = anyio.run(bench.run_agent, brain, workspace, home, bench.PHASE_B_TASK)
        runs[name] = (run, bench.verify(workspace, "email"))

    def mark(ok: bool) -> str:
        return "pass" if ok else "fail"

    row = (
        f"| {datetime.now(UTC):%Y-%m-%d} | {http[0].model} | {mark(bench.verify(phase_a, 'age'))} "
        f"| {a.reflected.splitlines()[-1] if a.reflected else '-'} "
        f"| {mark(runs['memory'][1])} ({runs['memory'][0].steps} steps) "
        f"| {mark(runs['wiped'][1])} ({runs['wiped'][0].steps} steps) |\n"
    )
    with TABLE.open("a", encoding="utf-8") as table:
        table.write(row)
    # The plumbing, whatever the model did: phase A's session was recalled and reflected.
    assert a.reflected
    assert "regen" not in runs["wiped"][0].recalled
