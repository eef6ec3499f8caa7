"""One real turn against a real, configured provider. Opt in: `pytest --live` (skipped otherwise).

Point it at a data root holding a shelldon.toml and the vault entries its providers name:

    SHELLDON_LIVE_HOME=/var/lib/shelldon just test tests/broker/test_live_provider.py --live

The turn is the one the worker would send (the real prompt assembly, a fact in the recent window),
through the real chain with the keys read by the broker's vault read, with SHELLDON_OFFLINE unset.
It checks what a model's wording cannot spoil: an answer came from an HTTP provider, in the reply
protocol or salvaged from it, usage was reported, every op is a mapping core can decode or drop,
and the key appears nowhere in the reply or the logs.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from shelldon.broker.server import build_chain
from shelldon.broker.vault import surface_vault
from shelldon.config import load_config
from shelldon.contracts.ops import decode_ops
from shelldon.paths import DataRoot
from shelldon.worker.prompt import HistoryRow, PromptContext, assemble_prompt

LIVE_HOME_ENV = "SHELLDON_LIVE_HOME"


@pytest.mark.live
def test_one_real_turn(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live_home = os.environ.get(LIVE_HOME_ENV)
    if not live_home:
        pytest.skip(f"set {LIVE_HOME_ENV} to a data root with shelldon.toml and its vault keys")
    monkeypatch.delenv("SHELLDON_OFFLINE", raising=False)
    monkeypatch.delenv("SHELLDON_CONFIG", raising=False)
    root = DataRoot.resolve(Path(live_home))
    config = load_config(root)
    http_links = [p for p in config.providers if p.kind != "offline"]
    if not http_links:
        pytest.skip(f"{root.config} configures no HTTP provider")
    keys: list[str] = []

    def read(name: str) -> str | None:
        value = surface_vault(root, name)
        if value:
            keys.append(value)
        return value

    caplog.set_level(logging.DEBUG)
    offline_names = {p.name for p in config.providers if p.kind == "offline"}
    chain = build_chain(config, root=root, read_secret=read)
    recent = (
        HistoryRow(id=1, role="owner", content="My sister is called Ana.", ts=""),
        HistoryRow(id=2, role="pet", content="Nice! I'll remember Ana.", ts=""),
    )
    request = assemble_prompt(PromptContext(recent=recent), "What is my sister called?")
    reply = chain.complete(request)
    assert reply.provider not in offline_names, f"only the offline brain answered: {reply}"
    assert reply.text.strip()
    assert reply.usage is not None and reply.usage.completion_tokens
    assert all(isinstance(op, dict) for op in reply.ops)
    decode_ops(list(reply.ops))  # each op decodes or is dropped with a reason; never raises
    for key in keys:
        assert key not in reply.text
        assert key not in caplog.text
    print(f"\n{reply.provider}: {reply.text!r} usage={reply.usage} dropped={reply.dropped}")
