"""Whether a rule the agent relays is the owner's own: a quote of what the owner said, and said
last (docs/agents.md, "Sixth hostile round").

The prompt hook keeps the owner's recent messages word for word (`agent.memory`,
`owner-said.jsonl`, oldest first); `memory_note_request` passes a rule the agent relays, and it
is kept as the owner's only when `said_verbatim` holds. Anything else is an inference, which the
gate never lets replace an owner rule.
"""

from __future__ import annotations

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
    polarity, another value). "Always rebase before merging." quoted after the owner said
    "Actually, never rebase before merging." is a retracted rule, and relaying it would turn the
    owner's last word around."""
    wanted = folded(rule.text)
    if not wanted:
        return False
    stated = [(folded(r.text), r) for message in said for r in extract_rules(message)]
    last = max((i for i, (text, _) in enumerate(stated) if text == wanted), default=None)
    if last is None:
        return False
    return not any(restates(later, rule) and text != wanted for text, later in stated[last + 1 :])
