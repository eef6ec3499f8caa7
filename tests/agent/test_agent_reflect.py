"""`memory_reflect` with no facts carried: the configured provider chain draws them from the digest
in-process (the offline brain by default; a real HTTP provider, the fake, with its key from the
environment and never the vault), at most three attempts, 1,500 output tokens, observed facts from
the digest's commands, unverified turns marked, and procedures proven twice as project skills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider, reply, status
from shelldon.agent.memory import AgentMemory, env_secret
from shelldon.config import config_path
from shelldon.contracts.digest import CommandRun, Digest
from shelldon.paths import DataRoot

REGEN = "python tools/regen.py"


def digest(verified: bool | None = True) -> Digest:
    return Digest(
        request="regenerate after the schema change",
        files_changed=("schema.json", "gen/model.py"),
        commands=(
            CommandRun(command="pytest -q", exit_code=1, output_tail="stale generated module"),
            CommandRun(command=REGEN, exit_code=0),
        ),
        report="regenerated; tests pass",
        verified=verified,
    )


@pytest.fixture
def agent(home: Path, tmp_path: Path) -> AgentMemory:
    project = tmp_path / "proj"
    project.mkdir()
    return AgentMemory(project, DataRoot.resolve(home))


def test_the_offline_chain_draws_an_observed_fact_and_proves_a_skill(agent: AgentMemory) -> None:
    said = agent.reflect(digest())
    assert "create (created)" in said and "observed]" in said, said
    [entry] = agent.project_memory.entries()
    assert entry.meta.provenance == "observed"
    assert entry.meta.depends_on == ("schema.json", "gen/model.py")
    assert "`pytest -q` had failed (exit 1)" in entry.body
    skill = agent.project / ".agents" / "skills" / "python-tools-regen-py" / "SKILL.md"
    assert not skill.exists()
    again = agent.reflect(digest())
    assert "skill promoted: python-tools-regen-py" in again, again
    assert "## Origin" in skill.read_text()
    assert "python-tools-regen-py\tpromoted\t2 verified turn(s)" in agent.skills()
    assert "declined" in agent.decline_skill("python-tools-regen-py")
    assert not skill.exists()


def test_an_unverified_turn_is_kept_marked(agent: AgentMemory) -> None:
    agent.reflect(digest(verified=False))
    [entry] = agent.project_memory.entries()
    assert "unverified" in entry.meta.tags
    assert "unverified" in agent.recall("regenerate the schema")


def test_a_configured_provider_is_asked_with_the_spec_limits(
    agent: AgentMemory, fake: FakeProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = config_path(agent.data_root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fake.provider_table(key="llm_key", retries=0, timeout=5))
    monkeypatch.setenv("LLM_KEY", FAKE_KEY)
    fact = {
        "op": "remember",
        "collection": "facts",
        "name": "codegen step",
        "content": "After a schema change, python tools/regen.py must run before the tests.",
        "observed_from": REGEN,
    }
    fake.script(status(500), status(500), reply("one fact", ops=[fact]))
    said = agent.reflect(digest())
    assert said.startswith("codegen step: create (created)") and "observed]" in said, said
    assert len(fake.requests) == 3  # three attempts, the third answered
    sent = fake.requests[-1].json
    assert sent["max_tokens"] == 1500
    assert "regenerate after the schema change" in json.dumps(sent)
    assert not list(agent.data_root.vault.glob("*"))  # the key came from the environment

    fake.script(status(500), status(500), status(500), reply("too late", ops=[fact]))
    assert agent.reflect(digest()) == "nothing proposed from this digest"
    assert len(fake.requests) == 6  # at most three attempts


def test_env_secret_names() -> None:
    assert env_secret("definitely-not-set-anywhere") is None


class _HungUntilDeadline:
    """A provider whose server never answers: each call waits out the deadline it was given (on
    the fake clock) and times out, as the HTTP client does."""

    name = "hung"
    max_reply_chars: int | None = None
    budget_s: float | None = None
    retry_policy = None
    rule_based = False

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.deadlines: list[float] = []

    def complete(self, request: object, *, deadline: float | None = None) -> object:
        from shelldon.broker.providers.base import ProviderError

        assert deadline is not None, "a reflection attempt without a deadline could hang the host"
        self.deadlines.append(deadline)
        self.clock[0] = deadline
        raise ProviderError("timeout", "no answer within the deadline")


def test_memory_reflect_answers_within_the_mcp_hosts_minute_whatever_the_attempts() -> None:
    """Three attempts of 30 s would be 90 s: an MCP host on the TypeScript SDK gives up at 60."""
    from shelldon.agent.reflect import ChainProposer
    from shelldon.broker.chain import ProviderChain
    from shelldon.broker.providers.base import RetryPolicy
    from shelldon.contracts.digest import AGENT_REFLECT_BUDGET_S

    now = [1000.0]
    hung = _HungUntilDeadline(now)
    chain = ProviderChain(
        [hung],  # type: ignore[list-item]
        default_policy=RetryPolicy(retries=0),
        clock=lambda: now[0],
        sleep=lambda s: now.__setitem__(0, now[0] + s),
        jitter=lambda: 1.0,
    )
    digest = Digest(
        request="make the tests pass",
        commands=(CommandRun(command="pytest", exit_code=0),),
        report="done",
        verified=True,
    )
    assert ChainProposer(chain)(digest, []) == ()
    assert now[0] - 1000.0 <= AGENT_REFLECT_BUDGET_S < 60
    assert len(hung.deadlines) == 2  # 30 s, then the 20 s left; no third attempt past the budget


@pytest.mark.parametrize("code", [10**30, 2**31, -(2**31) - 1, True])
def test_an_exit_code_no_shell_reports_is_refused(code: object) -> None:
    from shelldon.contracts.digest import DigestError, decode_digest

    with pytest.raises(DigestError):
        decode_digest({"request": "fix it", "commands": [{"command": "make", "exit_code": code}]})
    kept = decode_digest({"request": "x", "commands": [{"command": "make", "exit_code": -9}]})
    assert kept.commands[0].exit_code == -9  # a signal, as Python's returncode says it
