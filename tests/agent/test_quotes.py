"""A relayed rule is the owner's only when the owner said it and has not changed it since
(shelldon.agent.quotes; docs/agents.md, "Sixth hostile round")."""

from __future__ import annotations

import pytest

from shelldon.agent.quotes import said_verbatim
from shelldon.core.owner_rules import extract_rules


def _rule(text: str):  # type: ignore[no-untyped-def]
    (rule,) = extract_rules(text)
    return rule


RETRACTED = [
    (["Always rebase before merging.", "Actually, never rebase before merging."],
     "Always rebase before merging."),
    (["Never answer in French.", "Always answer in French."], "Never answer in French."),
    (["Call me Bob.", "Call me Robert."], "Call me Bob."),
    (["Prefer short replies.", "No, prefer long replies."], "Prefer short replies."),
]  # fmt: skip
STANDING = [
    (["Always rebase before merging."], "ALWAYS  rebase before merging"),
    (["Never rebase before merging.", "Always rebase before merging.",
      "Never rebase before merging."], "Never rebase before merging."),  # said last again
    (["Always run the tests.", "Never push to main."], "Always run the tests."),  # another rule
]  # fmt: skip


@pytest.mark.parametrize(("said", "quote"), RETRACTED)
def test_a_rule_the_owner_changed_since_is_no_quote(said: list[str], quote: str) -> None:
    """Before: any message that ever held the rule made the quote the owner's, so relaying a
    rule the owner had turned around captured it as the owner's and replaced the newer one."""
    assert said_verbatim(_rule(quote), said) is False


@pytest.mark.parametrize(("said", "quote"), STANDING)
def test_a_rule_the_owner_still_holds_is_a_quote(said: list[str], quote: str) -> None:
    assert said_verbatim(_rule(quote), said) is True
