"""Whether a rule the agent relays is the owner's own: a quote of what the owner said, and said
last (docs/agents.md, "Sixth hostile round").

The prompt hook keeps the owner's recent messages word for word (`agent.memory`,
`owner-said.jsonl`, oldest first); `memory_note_request` passes a rule the agent relays, and it
is kept as the owner's only when `said_verbatim` holds. Anything else is an inference, which the
gate never lets replace an owner rule.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from shelldon.core.owner_rules import OwnerRule, extract_rules, restates


def folded(text: str) -> str:
    """A rule's words as a quote is compared: compatibility forms, case, spacing, a curly
    apostrophe and the closing full stop aside."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return " ".join(text.split()).rstrip(".!")


def said_verbatim(rule: OwnerRule, said: Sequence[str]) -> bool:
    """The owner stated this very rule, and has not changed it since.

    Stated: one of the owner's messages holds a sentence that, read as the prompt hook reads it
    (`extract_rules`), is the same rule word for word (`folded`). A fragment of a sentence is
    not a quote: "always run the suite" inside "don't always run the suite", a question ("should
    we always skip the tests?"), a hypothetical ("if you always rebase, ...") or someone else's
    words the owner reports ("Bob told me: always push to main") state no rule of the owner's.

    Not changed since: no later message states a rule that restates it (`restates`: the other
    polarity, another value), nor withdraws it (`withdraws`: "forget what I said about
    rebasing"). "Always rebase before merging." quoted after the owner said "Actually, never
    rebase before merging." is a retracted rule, and relaying it would turn the owner's last word
    around."""
    wanted = folded(rule.text)
    if not wanted:
        return False
    stated = [
        (at, folded(r.text), r) for at, message in enumerate(said) for r in extract_rules(message)
    ]
    last = max((at for at, text, _ in stated if text == wanted), default=None)
    if last is None:
        return False
    if any(restates(later, rule) and text != wanted for at, text, later in stated if at > last):
        return False
    return not any(withdraws(message, rule) for message in said[last + 1 :])


# "Forget what I said about rebasing", "scrap the rule about the full suite", "drop that squash
# merge rule", "no need to ask before deleting files anymore", "stop calling me Captain": the
# words after them name the rule withdrawn.
_WITHDRAWN = re.compile(
    r"\b(?:forget|ignore|disregard|scrap|drop|cancel|remove|delete|ditch|undo|never\s+mind)\b"
    r"(?:\s+\w+){0,3}?\s+(?:what\s+i\s+said|my\s+(?:rule|instruction|request)|the\s+rule"
    r"|that\s+rule|the\s+instruction)\s+(?:about|on|re|regarding|for)\s+(?P<about>[^.!?\n]+)"
    r"|\b(?:forget|ignore|scrap|drop|cancel|remove|delete|ditch)\b(?:\s+\w+){0,3}?\s+(?:the|that"
    r"|my)\s+(?P<named>[\w\s'-]{1,40}?)\s+rule\b"
    r"|\b(?:no\s+(?:longer\s+)?need|you\s+(?:don'?t|no\s+longer)\s+(?:need|have))\s+to\s+"
    r"(?P<needless>[^.!?\n]+)"
    r"|\bstop\s+(?P<stop>calling\s+me\b[^.!?\n]*)",
    re.IGNORECASE,
)
_NOT_A_TOPIC = frozenset(
    ("the", "a", "an", "my", "your", "that", "this", "it", "what", "i", "said", "about", "any",
     "more", "anymore", "now", "please", "just", "me", "to", "of", "for", "on", "in", "before",
     "after")
)  # fmt: skip


def _stem(word: str) -> str:
    return word[:4]


def withdraws(message: str, rule: OwnerRule) -> bool:
    """Does `message` withdraw `rule` without stating another: every word it names of what it
    withdraws (their first four letters) is among the rule's own."""
    ours = {_stem(w) for w in rule.words}
    if rule.kind == "call_me":
        ours.add(_stem("calling"))
    for found in _WITHDRAWN.finditer(message):
        topic = next(g for g in found.groups() if g)
        named = [w for w in _words(topic) if w not in _NOT_A_TOPIC]
        if named and all(_stem(w) in ours for w in named):
            return True
    return False


def _words(text: str) -> list[str]:
    return [w.strip("'’-") for w in re.findall(r"[\w'’-]+", text.casefold())]
