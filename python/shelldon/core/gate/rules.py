"""The gate's rules, kept as data in `gate_rules/<name>.toml` (shipped inside this package), and the
scanners compiled from them (`shelldon._native.Scanner`, built once per process)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from shelldon._native import RuleSpec, Scanner

# The packaged rule files, beside this module (the image installs the package as plain files). A
# path, not importlib.resources: that brings six modules and tempfile into core for three reads.
RULES_DIR = Path(__file__).resolve().parent / "gate_rules"

RULE_FILES = ("secrets", "instructions")
# The checks a rule may name in `validate` (implemented in gate.screen).
VALIDATORS = ("", "luhn")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule as the rules file states it (see gate_rules/*.toml)."""

    id: str
    pattern: str  # "" in a process's kept copy (`load_rules`): its scanner holds it
    prefilter: tuple[str, ...]
    entropy: float
    placeholders: bool
    family: str
    strength: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    # A check the regex cannot make, run on each value found ("luhn": a payment card's check
    # digit). Empty: none.
    validate: str = ""

    def as_native(self) -> RuleSpec:
        """What `shelldon._native.Scanner` compiles: the rule without its examples and verdict."""
        if not self.pattern:
            raise ValueError(f"rule {self.id}: a process's kept rules have no pattern (read_rules)")
        return RuleSpec(
            id=self.id,
            pattern=self.pattern,
            prefilter=list(self.prefilter),
            min_entropy=self.entropy,
            skip_placeholders=self.placeholders,
        )


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    rules: tuple[Rule, ...]
    placeholders: tuple[str, ...]
    # Words beyond the rules' own for splitting letters whose word breaks were lost (see
    # `segment_words`).
    words: tuple[str, ...] = ()

    def by_id(self) -> dict[str, Rule]:
        return {rule.id: rule for rule in self.rules}


def _as_str_tuple(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return tuple(value)


def parse_rules(name: str, data: dict[str, Any]) -> RuleSet:
    """Validate a parsed rules file. Raises ValueError naming the rule at fault."""
    rules = []
    for index, raw in enumerate(data.get("rule", [])):
        rule_id = raw.get("id")
        if not isinstance(rule_id, str) or not rule_id:
            raise ValueError(f"{name}: rule #{index} has no id")
        pattern = raw.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError(f"{name}: rule {rule_id} has no pattern")
        entropy = raw.get("entropy", 0.0)
        if not isinstance(entropy, int | float) or entropy < 0:
            raise ValueError(f"{name}: rule {rule_id}: entropy must be a number >= 0")
        validate = raw.get("validate", "")
        if validate not in VALIDATORS:
            raise ValueError(f"{name}: rule {rule_id}: validate must be one of {VALIDATORS}")
        strength = raw.get("strength", "strong")
        if strength not in ("strong", "weak"):
            raise ValueError(f"{name}: rule {rule_id}: strength must be strong or weak")
        rules.append(
            Rule(
                id=rule_id,
                pattern=pattern,
                prefilter=_as_str_tuple(raw.get("prefilter", []), f"{rule_id}.prefilter"),
                entropy=float(entropy),
                placeholders=bool(raw.get("placeholders", True)),
                family=str(raw.get("family", name)),
                strength=strength,
                positives=_as_str_tuple(raw.get("positives", []), f"{rule_id}.positives"),
                negatives=_as_str_tuple(raw.get("negatives", []), f"{rule_id}.negatives"),
                validate=validate,
            )
        )
    placeholders = _as_str_tuple(data.get("placeholders", []), f"{name}.placeholders")
    words = _as_str_tuple(data.get("words", []), f"{name}.words")
    return RuleSet(name=name, rules=tuple(rules), placeholders=placeholders, words=words)


def read_rules(name: str) -> RuleSet:
    """The packaged rules file `gate_rules/<name>.toml`, each rule with its examples, read
    afresh (the tests, the gate report, `segment_words`)."""
    if name not in RULE_FILES:
        raise ValueError(f"unknown rules file {name!r}")
    source = RULES_DIR.joinpath(f"{name}.toml")
    return parse_rules(name, tomllib.loads(source.read_text(encoding="utf-8")))


# Each rules file as this process keeps it, with its scanner, read once (`_read_once`).
_READ: dict[str, tuple[RuleSet, Scanner]] = {}


def _read_once(name: str) -> tuple[RuleSet, Scanner]:
    """Rules file `name` read once for the process: its scanner, and its rules without their
    patterns (the scanner holds them) and examples (the tests' and the report's)."""
    kept = _READ.get(name)
    if kept is None:
        whole = read_rules(name)
        scanner = Scanner([r.as_native() for r in whole.rules], list(whole.placeholders))
        rules = tuple(replace(r, pattern="", positives=(), negatives=()) for r in whole.rules)
        kept = _READ.setdefault(name, (replace(whole, rules=rules), scanner))
    return kept


def load_rules(name: str) -> RuleSet:
    """The rules as a process keeps them: ids, literals, families, strengths, checks,
    placeholders and words, without patterns or examples (~0.3 MB of strings in core that no
    screen reads; `read_rules` has them)."""
    if name not in RULE_FILES:
        raise ValueError(f"unknown rules file {name!r}")
    return _read_once(name)[0]


def secret_scanner() -> Scanner:
    """The compiled credential rules (built once per process)."""
    return _read_once("secrets")[1]


def instruction_scanner() -> Scanner:
    """The compiled instruction-shaped-text rules; they run on `normalise_for_rules` output."""
    return _read_once("instructions")[1]


def release_scanner_caches() -> None:
    """Drop the search caches of the scanners built so far (`Scanner.release_caches`): the
    same matches, the next scan makes them again. A scanner not built yet is not built here."""
    for scanner in built_scanners():
        scanner.release_caches()


# The gate's other scanners, built once for the process (`kept_scanner`: the disguises' finders,
# the glued keys' literal finder), let go at rest with the rules' own. Missed, they held ~2.3 MB
# of core at rest for good (docs/performance.md, "Memory at rest").
_KEPT: list[Scanner] = []


def kept_scanner(rules: list[RuleSpec]) -> Scanner:
    """A scanner of the gate's own patterns that a process keeps for its life; its compiled
    automata go at rest with the rules files' (`release_scanner_automata`)."""
    scanner = Scanner(rules, [])
    _KEPT.append(scanner)
    return scanner


def built_scanners() -> list[Scanner]:
    """Every scanner this process has built for the gate so far: the rules files' and the kept."""
    return [scanner for _, scanner in list(_READ.values())] + list(_KEPT)


def release_scanner_automata() -> None:
    """Drop every compiled rule of the scanners built so far, and their placeholders', caches
    included (`Scanner.release_compiled`): the same matches, each rule compiles again on the
    next text that needs it. Core calls it at rest (core.rest; docs/performance.md, "Memory at
    rest")."""
    for scanner in built_scanners():
        scanner.release_compiled()


# Rules read by code rather than matched by a pattern, with an id, family and strength like the
# file's: `indirect-reader-directive` is gate.indirect's structural reading of an order to the
# machine that reads a text, `carried-task` gate.carried's reading of a one-off task carried in
# content it is no part of, `other-language-order` gate.foreign_orders's orders in languages the
# file does not hold (their examples are their tests').
def _structural(rule_id: str, family: str) -> Rule:
    return Rule(
        id=rule_id,
        pattern="",
        prefilter=(),
        entropy=0.0,
        placeholders=False,
        family=family,
        strength="strong",
        positives=(),
        negatives=(),
    )


STRUCTURAL_RULES: tuple[Rule, ...] = (
    _structural("indirect-reader-directive", "indirect"),
    _structural("carried-task", "indirect"),
    _structural("other-language-order", "override"),
)


@cache
def instruction_rules() -> dict[str, Rule]:
    """The instruction rules by id (their family and strength make the screen's verdict), the
    file's and the structural ones."""
    return {**load_rules("instructions").by_id(), **{r.id: r for r in STRUCTURAL_RULES}}


@cache
def secret_checks() -> dict[str, str]:
    """Credential rule id -> the check each value it finds must pass (rules that name one)."""
    return {r.id: r.validate for r in load_rules("secrets").rules if r.validate}


_ESCAPE = re.compile(r"\\[a-zA-Z]")
_WORD = re.compile(r"[a-z]{2,}")
_STEM = re.compile(r"([a-z]{2,})\(\?:([a-z|']+)\)")


@cache
def common_words() -> frozenset[str]:
    """The rules file's `words`: everyday English words, preferred when splitting glued letters
    ("keysinevery" is "keys in every", not "key sin every")."""
    return frozenset(w.lower() for w in load_rules("instructions").words)


@cache
def segment_words() -> frozenset[str]:
    """The words the instruction rules are made of: those in their patterns and examples, plus
    the rules file's `words`. Letters spaced out with no word breaks ("i g n o r e a l l") are
    split into these, so the rules can see "ignore all"."""
    rules = read_rules("instructions")  # the examples too, read once and let go
    words = {w.lower() for w in rules.words}
    for rule in rules.rules:
        # A stem with its endings in a group ("pos(?:e|ing)") is the words "pose", "posing".
        for stem, endings in _STEM.findall(rule.pattern):
            words.update(stem + ending for ending in endings.split("|"))
        for text in (rule.pattern, *rule.positives, *rule.negatives):
            words.update(_WORD.findall(_ESCAPE.sub(" ", text).lower()))
    return frozenset(words)
