"""The gate's learned credential part: candidates scored by a small linear model.

The credential rules (`gate_rules/secrets.toml`) know the shapes they were written for; on
other rows of the same class they miss a quarter. This model scores each candidate (a value
after an assignment, a quoted string, a long token of mixed characters) by the class's own
marks: its shape (length, character classes, entropy, how often the class changes between
neighbours, a provider's prefix) and the words around it (the name it is given, the words before
it on its line). rust/src/credential.rs finds the candidates and scores them;
scripts/train_gate_credentials.py fits the weights (`gate_rules/credentials.bin`, 32 KB) on the
training part of ../shared/data/gate and writes the threshold beside them
(`gate_rules/credentials.toml`).

A candidate scoring at or above `threshold` is a credential like any rule's hit: refused in an
entry, blanked in a record (`[secret:credential-model]`). Its reason names the model's score and
the features that raised it most, never the value.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from shelldon._native import CredentialModel
from shelldon.core.gate.rules import RULES_DIR, load_rules

# The rule id the model's findings carry (in hits, blanks, Refusal.rule_ids and the audit).
SECRET_MODEL_ID = "credential-model"


@dataclass(frozen=True, slots=True)
class SecretModelSettings:
    threshold: float
    sha256: str


@dataclass(frozen=True, slots=True)
class SecretFinding:
    start: int
    end: int
    probability: float
    strongest: tuple[str, ...]  # the shown features that raised the score most


@cache
def secret_model() -> CredentialModel:
    """The packaged weights, read once per process; placeholder values (the credential rules'
    list: `${VAR}`, `changeme`, `xxxx` ...) are never reported."""
    data = RULES_DIR.joinpath("credentials.bin").read_bytes()
    return CredentialModel(data, list(load_rules("secrets").placeholders))


def release_secret_model() -> None:
    """Drop the model's compiled placeholders (core's rest, beside the scanners' rules); a model
    not read yet is not read here."""
    if secret_model.cache_info().currsize:
        secret_model().release_compiled()


@cache
def secret_model_settings() -> SecretModelSettings:
    source = RULES_DIR.joinpath("credentials.toml")
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    return SecretModelSettings(threshold=float(data["threshold"]), sha256=str(data["sha256"]))


def model_secrets(text: str, threshold: float | None = None) -> list[SecretFinding]:
    """The candidates of `text` the model reads as credentials (character offsets)."""
    floor = secret_model_settings().threshold if threshold is None else threshold
    return [
        SecretFinding(start, end, probability, tuple(name for name, _ in strongest))
        for start, end, probability, strongest in secret_model().scan(text, floor, 3)
    ]


_SHOWN = {
    "namehas": "its name holds '{}'",
    "ctxhas": "'{}' before it",
    "valhas": "it holds '{}'",
    "len": "length {}",
    "cls": "characters {}",
    "trans": "class changes {}/10",
    "digits": "digits {}/10",
    "upper": "capitals {}/10",
    "hexl": "hex, length {}",
    "hexU": "hex, length {}",
}


def describe(feature: str) -> str:
    """A feature as a reason shows it ("namehas:pass" -> "its name holds 'pass'",
    "kw1|ent:17" -> "a key word near it, entropy >= 4.25 bits")."""
    parts = []
    for part in feature.split("|"):
        kind, _, value = part.partition(":")
        if kind == "kw1":
            parts.append("a key word near it")
        elif kind == "assigned":
            parts.append("given to a name" if value == "1" else "not given to a name")
        elif kind == "ent" and value.isdigit():
            parts.append(f"entropy >= {int(value) / 4:g} bits")
        elif kind in _SHOWN:
            parts.append(_SHOWN[kind].format(value))
        else:
            parts.append(part)
    return ", ".join(parts)
