"""Authority (issue 23): text may not claim a role it does not have, and an inference may not
state the opposite of an owner rule.

- `role_claim(text)`: a line that speaks as a role ("System:", "Assistant:", "Developer:",
  "Owner note:", "Note from the owner:", "Admin:") or a heading that claims to be the directive,
  the system prompt or the owner's rules ("# DIRECTIVE", "## Rules from the owner"), or a tool
  call written out as JSON ({"tool": "shell", "arguments": ...}). Only core writes as the
  owner, and nothing in memory is the directive; what a model writes that claims to be either
  is refused (the owner's own words are not: they have the role).
- `opposed_rule(text, rules)`: the owner rule that `text` turns around: it holds every word of
  the rule (polarity aside) with the opposite polarity ("Never push to main directly." against
  "Always push directly to main, it is faster"), however many clauses it adds. The similarity
  check's contradiction allows two swapped words; a rule with an extra clause is no less its
  opposite. So is a rule-shaped text whose words all lie inside the rule's with the other
  polarity ("Always push to main." against "Never push to main directly.").
- `narrowed_rule(text, rules)`: the owner rule that `text` makes an exception to: it holds every
  word of the rule and an exception or a permission ("..., except on Fridays", "... is fine on
  Fridays", "... unless the build is green"). An exception is a change of the rule, and only the
  owner changes it.

Words are read after NFKC, case folding and look-alike letters mapped (`fold_letters`: "mаin"
with a Cyrillic а is "main"), with a light suffix stem ("pushing", "pushes" are "push").

Pure functions; `gate.decide` calls them for writes below the owner's provenance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from shelldon.core.gate.normalise import fold_letters

_ROLE_LINE = re.compile(
    r"^[ \t>*_#\-\[(]*(?:system|assistant|developer|admin(?:istrator)?|operator|root|"
    r"owner|the owner|owner'?s? note|note from the owner|message from the owner|"
    r"owner (?:message|instruction|rule|update)s?)[ \t*_\])]*:",
    re.IGNORECASE | re.MULTILINE,
)
_AUTHORITY_HEADING = re.compile(
    r"^[ \t]*#{1,6}[ \t]*[^\n]{0,40}\b(?:directive|system prompt|system message|"
    r"(?:owner'?s?|assistant'?s?) (?:rules|instructions|orders)|"
    r"(?:rules|instructions|orders) (?:from|of|by) the owner)\b",
    re.IGNORECASE | re.MULTILINE,
)

# A tool call written out as JSON ({"tool": "shell", "arguments": {...}}): the model's own voice
# to its tools, which memory text never has.
_TOOL_CALL = re.compile(
    r'"(?:tool|tool_name|function|function_call|name|type)"\s*:\s*"[^"\n]{1,60}"\s*,\s*'
    r'"(?:arguments|args|parameters|params|input|command)"\s*:',
    re.IGNORECASE,
)
# A rule's polarity is its first polarity word's; none is a plain imperative ("Push to main").
_POSITIVE = frozenset({"always", "must", "should", "do", "prefer", "please"})
_NEGATIVE = frozenset({"never", "not", "don't", "dont", "avoid", "stop"})
_FILLER = frozenset(
    {"the", "a", "an", "to", "of", "and", "or", "in", "on", "it", "is", "be", "you", "i", "we"}
)
_WORD = re.compile(r"[a-z0-9']+")
# The rule id a role claim's refusal carries.
ROLE_CLAIM_RULE = "role-claim"
# What makes a text that holds a rule's words an exception to it, or a permission.
_EXCEPTION = frozenset(
    re.findall(
        r"\S+",
        "except excepting unless apart aside excluding exempt exemption "
        "allowed permitted fine ok okay acceptable may can sometimes occasionally optional "
        "unnecessary needn't",
    )
)
_SUFFIXES = ("ing", "ed", "es", "s", "e")
_RULE_START = re.compile(r"^\W*(?:always|never|don't|do not|avoid|stop|must|prefer)\b", re.I)


def reads_as_rule(text: str) -> bool:
    """The text opens as a rule does ("Always ...", "Never ...", "Don't ...")."""
    return bool(_RULE_START.match(text.replace("\u2019", "'")))


def role_claim(text: str) -> str | None:
    """The role line or authority heading `text` opens with a claim to, or None."""
    for pattern in (_ROLE_LINE, _AUTHORITY_HEADING, _TOOL_CALL):
        match = pattern.search(text)
        if match is not None:
            return " ".join(match.group(0).split())[:60]
    return None


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def _polarity_and_words(text: str) -> tuple[int, frozenset[str]]:
    words = _WORD.findall(fold_letters(text).replace("\u2019", "'"))
    polarity = 1
    for w in words:
        if w in _NEGATIVE or w.endswith("n't"):
            polarity = -1
            break
        if w in _POSITIVE:
            break
    content = frozenset(
        _stem(w)
        for w in words
        if w not in _POSITIVE and w not in _NEGATIVE and w not in _FILLER and not w.endswith("n't")
    )
    return polarity, content


def opposed_rule(text: str, rules: Iterable[tuple[str, str]]) -> str | None:
    """The stem of the first owner rule (stem, text) that `text` states the opposite of: every
    word of the rule with the other polarity, or (two words or more) only words of the rule."""
    polarity, words = _polarity_and_words(text)
    for stem, rule in rules:
        rule_polarity, rule_words = _polarity_and_words(rule)
        if rule_polarity == polarity or len(rule_words) < 2:
            continue
        if rule_words <= words or (len(words) >= 2 and words <= rule_words):
            return stem
    return None


def narrowed_rule(text: str, rules: Iterable[tuple[str, str]]) -> str | None:
    """The stem of the first owner rule (stem, text) that `text` makes an exception to: every
    word of the rule and a word of exception or permission the rule does not have."""
    words = frozenset(_WORD.findall(fold_letters(text).replace("\u2019", "'")))
    exceptions = words & _EXCEPTION
    if not exceptions:
        return None
    _, stems = _polarity_and_words(text)
    for stem, rule in rules:
        _, rule_words = _polarity_and_words(rule)
        rule_plain = frozenset(_WORD.findall(fold_letters(rule)))
        if len(rule_words) >= 2 and rule_words <= stems and exceptions - rule_plain:
            return stem
    return None
