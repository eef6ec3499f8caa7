"""The benchmark's shape (tests/support/agent_bench.py): phase A's memory, and only it, carries the
undocumented step into phase B.

With the fake provider the plumbing is proven deterministically: phase A's scripted session finds
the step and reflects it into the project's memory through the gate; in phase B the fake repeats
its prompt back (echo), so the loop runs exactly the commands its context names. With phase A's
memory the context names the regeneration and the check passes; wiped, it does not and the check
fails. A real model plays the same phases under `--live` (test_live_benchmark.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider, echo, reply
from support import agent_bench as bench

pytest.importorskip("mcp", reason="the agent extra is not installed (pip install '.[agent]')")
anyio = pytest.importorskip("anyio")

REGEN_FACT = (
    "Code generation: generated.py is built from schema.json and the tests check the schema hash "
    "in it. After any change to schema.json run the generator again. RUN: python tools/regen.py"
)


def fake_brain(fake: FakeProvider) -> bench.Brain:
    from shelldon.broker.server import build_chain
    from shelldon.config import parse_config

    chain = build_chain(
        parse_config(fake.provider_table(key="llm_key", retries=0)),
        read_secret=lambda name: FAKE_KEY,
    )
    return lambda request: chain.complete(request).text


def test_phase_a_memory_reaches_phase_b_and_a_wiped_run_lacks_it(
    fake: FakeProvider, tmp_path: Path
) -> None:
    brain = fake_brain(fake)
    home = tmp_path / "home"  # the global memory: empty for every session
    phase_a = bench.make_workspace(tmp_path / "a")
    assert not bench.verify(phase_a, "age")
    fake.script(
        reply("RUN: python check_tests.py"),
        reply("RUN: ls tools"),
        reply("RUN: python tools/regen.py\nRUN: python check_tests.py"),
        reply(
            f"DONE: regenerated generated.py; the tests pass\nFACT: schema codegen | {REGEN_FACT}"
        ),
    )
    a = anyio.run(bench.run_agent, brain, phase_a, home, bench.PHASE_A_TASK)
    assert [c["exit_code"] for c in a.commands] == [1, 0, 0, 0]
    assert bench.verify(phase_a, "age")
    assert a.reflected.startswith("schema codegen: create"), a.reflected

    with_memory = tmp_path / "b-memory"
    wiped = tmp_path / "b-wiped"
    for target in (with_memory, wiped):
        shutil.copytree(phase_a, target)
        bench.change_schema(target)
    shutil.rmtree(wiped / ".shelldon")

    results = {}
    for name, workspace in (("memory", with_memory), ("wiped", wiped)):
        fake.script(*[echo()] * bench.MAX_STEPS)
        before = len(fake.requests)
        run = anyio.run(bench.run_agent, brain, workspace, home, bench.PHASE_B_TASK)
        prompts = [r.body.decode() for r in fake.requests[before:]]
        results[name] = (run, prompts, bench.verify(workspace, "email"))

    run, prompts, passed = results["memory"]
    assert "tools/regen.py" in run.recalled and "project:facts/schema-codegen" in run.recalled
    assert "tools/regen.py" in prompts[0]  # phase A's fact is in phase B's first prompt
    assert [c["command"] for c in run.commands] == ["python tools/regen.py"]
    assert passed

    run, prompts, passed = results["wiped"]
    assert "regen" not in run.recalled
    assert all("regen" not in p for p in prompts)
    assert run.commands == []
    assert not passed
