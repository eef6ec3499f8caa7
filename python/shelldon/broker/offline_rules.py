"""The offline brain hears a rule the owner states ("always answer briefly", "never use emoji",
"I prefer short replies") and says so in its own words.

Core keeps the rule (core.learning.rules, after the reply); the offline brain reads the sentence
the same way (core.owner_rules, the one home of how a rule is said) so what it says it heard is
exactly what core keeps, and it proposes no op of its own for it: a model's copy of the owner's
rule would only be an inference beside the owner's entry. "call me X" is a name and answered
as one (broker.offline_talk.said_name).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_words import to_second_person
from shelldon.core.owner_rules import OwnerRule, parse_rule

_MARKER = re.compile(r"^(?:always|never)\b[\s,:-]*", re.IGNORECASE)
_PREFERS = re.compile(r"^.*?\bprefers?\b[\s,:-]*", re.IGNORECASE)

_ALWAYS = (
    "Got it: from now on I'll always {x}",
    "Okay, I'll always {x} That's a rule now.",
    "Understood. I'll always {x}",
)
_NEVER = (
    "Got it: I'll never {x}",
    "Okay, I won't {x} That's a rule now.",
    "Understood. I'll never {x}",
)
_PREFER = (
    "Got it: you prefer {x} I'll keep to that.",
    "Noted, you prefer {x}",
)


def heard_rule(sentence: str, seed: int) -> str | None:
    """What the pet says to a rule the owner just stated, or None when the sentence states
    none (or a "call me", which is a name)."""
    rule = parse_rule(sentence)
    if rule is None or rule.kind == "call_me":
        return None
    return _said_back(rule, seed)


def _said_back(rule: OwnerRule, seed: int) -> str:
    said = rule.title
    options: Sequence[str]
    if rule.kind == "prefer":
        what, options = _PREFERS.sub("", said, count=1), _PREFER
    else:
        what = _MARKER.sub("", said, count=1)
        options = _ALWAYS if rule.kind == "always" else _NEVER
    what = to_second_person(what)  # "call me before 9" -> "call you before 9."
    return _pick(options, seed).format(x=what[:1].lower() + what[1:])


def _pick(options: Sequence[str], seed: int) -> str:
    return options[seed % len(options)]
