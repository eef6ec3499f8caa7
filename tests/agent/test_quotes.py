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


# A rule the owner withdrew without stating a new one (the sixth round left these standing).
WITHDRAWN = [
    (["Always rebase before merging.", "Forget what I said about rebasing."],
     "Always rebase before merging."),
    (["Never run the full suite before a commit.", "Scrap the rule about the full suite."],
     "Never run the full suite before a commit."),
    (["Prefer squash merges.", "You can drop that squash merge rule now."],
     "Prefer squash merges."),
    (["Always ask before deleting files.", "No need to ask before deleting files anymore."],
     "Always ask before deleting files."),
    (["Call me Captain.", "Stop calling me Captain."], "Call me Captain."),
]  # fmt: skip
# Words that withdraw something else, or come before the rule was said (again).
NOT_WITHDRAWN = [
    (["Always rebase before merging.", "Forget what I said about the lint config."],
     "Always rebase before merging."),
    (["Forget what I said about rebasing.", "Always rebase before merging."],
     "Always rebase before merging."),
    (["Always ask before deleting files.", "No need to ask before renaming files."],
     "Always ask before deleting files."),
]  # fmt: skip


@pytest.mark.parametrize(("said", "quote"), WITHDRAWN)
def test_a_rule_the_owner_withdrew_since_is_no_quote(said: list[str], quote: str) -> None:
    """Before: only a rule said the other way round counted as a change; "forget what I said
    about rebasing" left the old quote the owner's."""
    assert said_verbatim(_rule(quote), said) is False


@pytest.mark.parametrize(("said", "quote"), NOT_WITHDRAWN)
def test_a_withdrawal_of_something_else_leaves_the_quote(said: list[str], quote: str) -> None:
    assert said_verbatim(_rule(quote), said) is True
