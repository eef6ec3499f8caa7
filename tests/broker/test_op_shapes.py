"""A small model's near-miss op shapes, put in the contract's shape (broker.op_shapes): each
spelling of the same thing is read, nothing else is, and a reshaped op still meets the gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fakes.fake_provider import FakeProvider, reply
from shelldon.broker.op_shapes import reshaped
from shelldon.contracts.ops import Forget, Remember, Remind, decode_ops
from support.pet import start_pet

CAT = "The owner has a cat named Miso."


@pytest.mark.parametrize(
    "written",
    [
        {"op": "remember", "collection": "Facts", "name": "cat", "content": CAT},
        {"op": "remember", "collection": "fact", "name": "cat", "content": CAT},
        {"op": "Remember", "collection": "facts", "name": "cat", "content": CAT},
        {"op": " REMEMBER ", "collection": " FACTS ", "name": "cat", "content": CAT},
        {"op": "remember", "collection": "facts", "title": "cat", "content": CAT},
        {"op": "remember", "collection": "facts", "name": "cat", "text": CAT},
        {"op": "remember", "collection": "facts", "name": "cat", "fact": CAT},
        {"remember": {"collection": "facts", "name": "cat", "content": CAT}},
        {"type": "remember", "collection": "facts", "name": "cat", "content": CAT},
        {"action": "Remember", "collection": "Fact", "title": "cat", "value": CAT},
    ],
)
def test_a_near_miss_remember_reads_as_the_contract_writes_it(written: dict[str, Any]) -> None:
    op, changes = reshaped(written)
    assert changes and decode_ops([op]) == ([Remember("facts", "cat", CAT)], [])


def test_other_ops_and_collections_in_other_spellings() -> None:
    forget, _ = reshaped({"op": "Forget", "collection": "Person", "title": "ana"})
    assert decode_ops([forget]) == ([Forget("people", "ana")], [])
    remind, _ = reshaped({"op": "remind", "message": "stretch", "in_seconds": 60})
    assert decode_ops([remind])[0] == [Remind(text="stretch", in_seconds=60)]
    prefs, _ = reshaped({"op": "remember", "collection": "preference", "name": "t", "content": CAT})
    assert decode_ops([prefs])[0][0].collection == "preferences"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "written",
    [
        {"op": "remember", "collection": "directive", "name": "x", "content": CAT},  # no such
        {"op": "remember", "collection": "vault", "name": "x", "content": CAT},
        {"op": "rewrite_directive", "content": CAT},
        {"op": "remember", "collection": "facts", "title": "a", "content": CAT, "name": "b"},
        {"op": "remember", "collection": "facts", "name": "c", "text": CAT, "fact": CAT},
        {"remember": {"op": "forget", "collection": "facts", "name": "cat"}},  # which is meant?
        {"remember": {"collection": "facts"}, "forget": {}},
        "remember the cat",
    ],
)
def test_anything_but_a_spelling_is_left_for_core_to_refuse(written: Any) -> None:
    op, _ = reshaped(written)
    ops, dropped = decode_ops([op])
    assert ops == [] and len(dropped) == 1


def test_the_contracts_own_shape_is_left_alone() -> None:
    right = {"op": "remember", "collection": "facts", "name": "cat", "content": CAT}
    assert reshaped(right) == (right, [])


def test_a_small_models_spelling_is_kept_through_the_gate_and_a_secret_is_not(
    run_dir: Path, home: Path, keyless_fake: FakeProvider
) -> None:
    secret = "The owner's token is ghp_" + "Rk7Tm2Qx9Lp4Vn6Ws8Yb1Zc3Hd5Jf0Gq2Aa"
    ops = [
        {"remember": {"collection": "Fact", "title": "cat", "text": CAT}},
        {"type": "Remember", "collection": "Facts", "title": "token", "text": secret},
    ]
    # The JSON protocol's near misses: asked in it (in tools mode, ops come only as tool calls).
    (home / "shelldon.toml").write_text(keyless_fake.provider_table(retries=0, protocol="plain"))
    keyless_fake.script(reply("Noted!", ops=ops))
    pet = start_pet()
    try:
        said = pet.cli("say", "I have a cat called Miso")
        pet.settled()
    finally:
        assert pet.stop() == 0, pet.log
    assert said.returncode == 0 and "Noted!" in said.stdout
    facts = [p.read_text() for p in (pet.root.memory / "facts").glob("*.md")]
    assert any(CAT in body for body in facts), facts
    assert not any("ghp_" in body for body in facts)
    audit = [json.loads(x) for x in (pet.root.memory / "history.jsonl").read_text().splitlines()]
    assert [r["reason_code"] for r in audit if r["action"] == "reject"] == ["secret"]
