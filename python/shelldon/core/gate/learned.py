"""The gate's learned part: a linear model over hashed word and character n-grams.

The rules name the shapes of instruction-shaped text they know; this model scores the words of
text they have not seen (scripts/train_gate_lexical.py fits it on the training part of
../shared/data/gate; rust/src/lexical.rs scores it). Its weights (`gate_rules/lexical.bin`,
512 KB) and thresholds (`gate_rules/lexical.toml`) ship with the package.

It decides with the rules, never past them: a probability at or above `threshold` refuses alone
(text of `min_words_alone` words or more; shorter text needs `short_threshold`, chosen so that
the owner's own short imperatives pass); at or above `weak_threshold` it counts as one weak
family, so a weak rule of another family and the model together refuse; weak rules of two
families refuse unless the model scores the text under `corroborate_threshold`
(docs/gate-design.md). A refusal names the n-grams that raised the
score most, so the owner sees why.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from shelldon._native import LexicalModel
from shelldon.core.gate.rules import RULES_DIR

# The rule id a refusal by the model carries (in Refusal.rule_ids and the audit line).
LEXICAL_RULE_ID = "lexical-model"
LEXICAL_FAMILY = "learned n-grams"
# Text under this many words is short: the model refuses it alone only at `short_threshold`.
MIN_WORDS_ALONE = 16


@dataclass(frozen=True, slots=True)
class LexicalSettings:
    threshold: float
    short_threshold: float
    weak_threshold: float
    corroborate_threshold: float
    sha256: str
    min_words_alone: int = MIN_WORDS_ALONE


@dataclass(frozen=True, slots=True)
class LexicalScore:
    probability: float
    strongest: tuple[str, ...]  # the n-grams that raised the score most, strongest first


@cache
def lexical_model() -> LexicalModel:
    """The packaged weights, read once per process (the fork-server preloads them)."""
    data = RULES_DIR.joinpath("lexical.bin")
    return LexicalModel(data.read_bytes())


@cache
def lexical_settings() -> LexicalSettings:
    source = RULES_DIR.joinpath("lexical.toml")
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    return LexicalSettings(
        threshold=float(data["threshold"]),
        short_threshold=float(data["short_threshold"]),
        min_words_alone=int(data["short_words"]),
        weak_threshold=float(data["weak_threshold"]),
        corroborate_threshold=float(data["corroborate_threshold"]),
        sha256=str(data["sha256"]),
    )


def lexical_score(normalised: str, top: int = 3) -> LexicalScore:
    """The model's probability that `normalised` (`normalise_for_rules` output) is
    instruction-shaped, with its `top` strongest n-grams."""
    probability, strongest = lexical_model().score(normalised, top * 3)
    # " poem", "poem" and "poem " are three buckets but one thing to show.
    shown: list[str] = []
    for gram, _ in strongest:
        gram = gram.strip()
        if gram and not any(gram in other or other in gram for other in shown):
            shown.append(gram)
    return LexicalScore(probability, tuple(shown[:top]))
