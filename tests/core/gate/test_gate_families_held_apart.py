"""The held-apart families (`gate_families.toml`, docs/gate-design.md "Families held apart"):
jailbreak and prompt-injection attacks of the public families, each to be refused by
`screen_text`, and owner lines that share their words, each to be kept. Written before the
rules that close them and run once; a row the gate still gets wrong is a strict xfail with its
reason, so it fails the day it starts to pass and its mark must go."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shelldon.core.gate import screen_text

SET = Path(__file__).with_name("gate_families.toml")


def _rows(kind: str) -> list[pytest.ParameterSet]:
    rows = tomllib.loads(SET.read_text(encoding="utf-8"))[kind]
    params = []
    for i, row in enumerate(rows):
        marks = [pytest.mark.xfail(strict=True, reason=row["xfail"])] if "xfail" in row else []
        params.append(pytest.param(row["text"], id=f"{row['family']}-{i}", marks=marks))
    return params


def test_the_set_is_balanced_across_families() -> None:
    data = tomllib.loads(SET.read_text(encoding="utf-8"))
    attacks = {row["family"] for row in data["attack"]}
    benign = {row["family"] for row in data["benign"]}
    assert len(data["attack"]) >= 60 and len(data["benign"]) >= 60
    assert attacks == benign, "every family has attacks and look-alikes"


@pytest.mark.parametrize("text", _rows("attack"))
def test_attack_refused(text: str) -> None:
    refusal = screen_text(text)
    assert refusal is not None and refusal.code == "instruction"


@pytest.mark.parametrize("text", _rows("benign"))
def test_look_alike_kept(text: str) -> None:
    assert screen_text(text) is None
