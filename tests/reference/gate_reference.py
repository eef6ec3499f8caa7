"""Pure-Python references for the gate's Rust functions (rust/src/scanner.rs, similarity.rs).

Same semantics, written plainly with Python `re`: the differential tests compare them with
`shelldon._native`, and the benchmarks use them as the baseline. Not used by the product.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from shelldon._native import Comparison, RuleSpec
from shelldon.core.words import NEGATIONS, NUMBER_WORDS, SIMILARITY_STOPWORDS

_SECRET_GROUP = re.compile(r"^secret\d*$")


class ReferenceScanner:
    """`shelldon._native.Scanner` in Python: prefilter, then each rule's regex, then filters."""

    def __init__(self, rules: Sequence[RuleSpec], placeholders: Sequence[str]) -> None:
        self.rules = [
            (
                rule.id,
                re.compile(rule.pattern),
                [lit.lower() for lit in rule.prefilter if lit],
                rule.min_entropy,
                rule.skip_placeholders,
            )
            for rule in rules
        ]
        self.placeholders = [re.compile(p) for p in placeholders]

    def is_placeholder(self, value: str) -> bool:
        return any(p.search(value) for p in self.placeholders)

    def scan(self, text: str) -> list[tuple[str, int, int]]:
        # ASCII-only case folding, as Aho-Corasick's ascii_case_insensitive does.
        folded = "".join(c.lower() if c.isascii() else c for c in text)
        hits: set[tuple[int, int, int]] = set()
        for index, (_rule_id, regex, prefilter, entropy, skip) in enumerate(self.rules):
            if prefilter and not any(lit in folded for lit in prefilter):
                continue
            groups = [
                number
                for name, number in sorted(regex.groupindex.items(), key=lambda kv: kv[1])
                if _SECRET_GROUP.match(name)
            ]
            for match in regex.finditer(text):
                span = next(
                    (match.span(g) for g in groups if match.group(g) is not None), match.span()
                )
                value = text[span[0] : span[1]]
                if entropy > 0 and shannon_entropy(value) < entropy:
                    continue
                if skip and self.is_placeholder(value):
                    continue
                hits.add((span[0], span[1], index))
        return [(self.rules[i][0], s, e) for s, e, i in sorted(hits)]

    def rules_hit(self, text: str) -> list[str]:
        fired = {rule_id for rule_id, _, _ in self.scan(text)}
        return [r[0] for r in self.rules if r[0] in fired]


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    n = len(text)
    return -sum((c / n) * math.log2(c / n) for c in sorted(Counter(text).values()))


# ------------------------------------------------------------------------------ similarity


def _raw_words(text: str) -> list[str]:
    words: list[str] = []
    current: list[str] = []
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if _is_alnum(ch):
            current.append(ch)
        elif ch in "'\u2019" and current and nxt.isalpha():
            current.append("'")
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _is_alnum(ch: str) -> bool:
    return ch.isalpha() or ch.isnumeric()


def _normalise_word(word: str) -> str:
    lower = word.lower()
    if lower.endswith("n't"):
        return "not"
    base = lower.removesuffix("'s")
    if "'" in base:
        base = base[: base.index("'")]
    if len(base) > 3 and base.endswith("s") and not base.endswith("ss") and not base.isnumeric():
        return base[:-1]
    return base


# The word lists are the product's (shelldon.core.words); the stop words in token form, as the
# check compares them ("this" -> "thi").
STOP_WORDS = frozenset(_normalise_word(w) for w in SIMILARITY_STOPWORDS)


def _is_number_token(token: str) -> bool:
    return any(c in "0123456789" for c in token) or token in NUMBER_WORDS


class Profile:
    def __init__(self, text: str) -> None:
        self.tokens: set[str] = set()
        self.negations = 0
        self.numbers: set[str] = set()
        capitalised: list[str] = []
        for word in _raw_words(text):
            token = _normalise_word(word)
            if not token:
                continue
            if token in NEGATIONS:
                self.negations += 1
            if _is_number_token(token):
                self.numbers.add(token)
            if word[0].isupper():
                capitalised.append(token)
            self.tokens.add(token)
        self.proper_nouns = {
            t
            for t in capitalised
            if t not in STOP_WORDS and t not in NEGATIONS and not _is_number_token(t)
        }
        self.content = {t for t in self.tokens if t not in STOP_WORDS}

    def comparable(self) -> set[str]:
        return self.content or self.tokens


def _similarity(a: Profile, b: Profile) -> float:
    if not a.content or not b.content:
        sa, sb = a.tokens, b.tokens
    else:
        sa, sb = a.content, b.content
    total = len(sa) + len(sb)
    return 0.0 if total == 0 else 2 * len(sa & sb) / total


def _veto(a: Profile, b: Profile) -> str:
    if a.negations % 2 != b.negations % 2:
        return "negation"

    def swapped(x: set[str], y: set[str], y_all: set[str], x_all: set[str]) -> bool:
        return any(t not in y_all for t in x) and any(t not in x_all for t in y)

    if swapped(a.numbers, b.numbers, b.tokens, a.tokens):
        return "number"
    if swapped(a.proper_nouns, b.proper_nouns, b.tokens, a.tokens):
        return "proper_noun"
    return ""


def similarity_batch(candidate: str, others: Sequence[str]) -> list[Comparison]:
    cand = Profile(candidate)
    out = []
    for other in others:
        prof = Profile(other)
        sa, sb = cand.comparable(), prof.comparable()
        out.append(
            Comparison(
                score=_similarity(cand, prof),
                veto=_veto(cand, prof),
                added=len(sa - sb),
                dropped=len(sb - sa),
            )
        )
    return out
