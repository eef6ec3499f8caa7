"""The owner asks the pet to forget: "forget that my car is red", "forget my car", "please forget
what I said about my job", "you can forget about the dentist", "forget it".

`forget_request` (broker.offline_sentences; the prompt's view reads it too) takes the
sentence as what to forget (None: not a forget request). `forget` finds the
memory entries the prompt shows that say it (every word of the subject in the entry's title and
body) and proposes one `forget` op for each: core deletes an entry the pet wrote and refuses one
the owner stated as a rule (only /forget removes those), so the reply says which. What is only in
the recent window is not said back once forgotten (broker.offline_view hides it), and the reply
says it was never kept ("I wasn't keeping that"): before the thirteenth pass it was "Okay, I'll
let that go.", an action no op took.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from shelldon.broker.offline_sentences import forget_request
from shelldon.broker.offline_words import content_words, lower_first, to_second_person
from shelldon.broker.patterns import lazy

if TYPE_CHECKING:
    from shelldon.broker.offline_view import PromptView

MAX_FORGETS = 4
# What "it"/"that" alone points at: the owner's last statement.
_THAT = frozenset({"", "it", "that", "this", "this one", "that one", "all that", "about it"})


def _last_statement(view: PromptView) -> str:
    from shelldon.broker.offline_proactive import is_never_mind
    from shelldon.broker.offline_sentences import is_question

    for said in reversed(view.owner_recent):  # the window's: recall's rows are older
        if forget_request(said) is None and not is_question(said) and not is_never_mind(said):
            return said
    return ""


def forget(view: PromptView, subject: str) -> tuple[list[dict[str, Any]], str]:
    """The `forget` ops for what `subject` names, and what the pet says."""
    if subject.casefold() in _THAT:
        subject = _last_statement(view)
        if not subject:
            return [], "Forget what? Tell me which thing and I'll let it go."
    words = set(content_words(subject))
    if not words:
        return [], "Forget what? Tell me which thing and I'll let it go."
    ops: list[dict[str, Any]] = []
    owners: list[str] = []
    said: list[str] = []
    for entry in view.entries:
        if not words <= set(content_words(f"{entry.title} {entry.body}")):
            continue
        if entry.provenance == "owner":
            owners.append(entry.title)
            continue
        if len(ops) < MAX_FORGETS:
            ops.append({"op": "forget", "collection": entry.collection, "name": entry.title})
            if entry.body:
                said.append(to_second_person(entry.body).rstrip("."))
    recent = [k for k in view.known if words <= set(content_words(k.text))]
    about = lower_first(to_second_person(subject)).rstrip(".")
    if ops:
        what = (
            f"that {lower_first(said[0])}"
            if len(said) == 1 and len(ops) == 1
            else (f"what you told me about {_bare(about)}")
        )
        reply = f"Okay, I've forgotten {what}."
    elif recent:  # said in the window, never kept: no claim of an action not taken
        reply = "I wasn't keeping that, so there's nothing to forget. I won't bring it up again."
    elif owners:
        reply = "I can't forget that one myself."
    elif _STATEMENT.search(about):
        reply = f"I don't remember that {_bare(about)}, so there's nothing to forget."
    else:
        reply = f"I don't have anything about {_bare(about)} to forget."
    if owners:
        reply += (
            f" “{owners[0]}” is one of your own rules, so only you can remove it: "
            "/memory lists it and /forget N removes it."
        )
    return ops, reply


_STATEMENT = lazy(r"\s(?:is|are|was|were|has|have|had|do|does|did)\s|['’]s\s|^you\s", re.I)


def _bare(about: str) -> str:
    """ "your car is red" stays; a lone "your car" stays; "that" phrasing never leaks in."""
    return re.sub(r"^(?:that|about)\s+", "", about)
