"""The held-apart families (`gate_families.toml`, docs/gate-design.md "Families held apart"):
jailbreak and prompt-injection attacks of the public families, each to be refused by
`screen_text` (for any reason: a Tensor Trust line that also gives a password is refused as a
secret), and owner lines that share their words, each to be kept. The first set was written
before the rules that close it and run once; the after set and three more rounds were written
once rules were in and run once each. A row the gate still gets wrong is a strict xfail
with its reason, so it fails the day it starts to pass and its mark must go."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shelldon.core.gate import screen_text

SET = Path(__file__).with_name("gate_families.toml")
ATTACKS = ("attack", "after_attack", "second_attack", "third_attack", "fourth_attack")
LOOK_ALIKES = ("benign", "after_benign", "second_benign", "third_benign", "fourth_benign")


def _data() -> dict[str, list[dict[str, str]]]:
    return tomllib.loads(SET.read_text(encoding="utf-8"))


def _rows(*kinds: str) -> list[pytest.ParameterSet]:
    params = []
    for kind in kinds:
        for i, row in enumerate(_data()[kind]):
            marks = [pytest.mark.xfail(strict=True, reason=row["xfail"])] if "xfail" in row else []
            params.append(pytest.param(row["text"], id=f"{kind}-{row['family']}-{i}", marks=marks))
    return params


def test_the_set_is_balanced_across_families() -> None:
    data = _data()
    assert len(data["attack"]) >= 60 and len(data["benign"]) >= 60
    for attacks, benign in (("attack", "benign"), ("after_attack", "after_benign")):
        assert {r["family"] for r in data[attacks]} == {r["family"] for r in data[benign]}
    assert len(data["second_attack"]) >= 15 and len(data["second_benign"]) >= 10
    assert len(data["third_attack"]) >= 12 and len(data["third_benign"]) >= 8
    assert len(data["fourth_attack"]) >= 12 and len(data["fourth_benign"]) >= 8


@pytest.mark.parametrize("text", _rows(*ATTACKS))
def test_attack_refused(text: str) -> None:
    assert screen_text(text) is not None


@pytest.mark.parametrize("text", _rows(*LOOK_ALIKES))
def test_look_alike_kept(text: str) -> None:
    assert screen_text(text) is None
