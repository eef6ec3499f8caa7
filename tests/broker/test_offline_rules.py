"""The offline brain hears the owner's rules (broker.offline_rules): it says which rule it heard,
in the owner's terms, proposes no copy of it, and a "call me" rule is what it calls the owner."""

from __future__ import annotations

import json

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.offline_rules import heard_rule
from shelldon.contracts.ops import decode_ops
from shelldon.core.owner_rules import extract_rules
from shelldon.worker.prompt import MemoryItem, MemorySelection, PromptContext, assemble_prompt


def _turn(message: str, memory: tuple[tuple[str, str, str], ...] = ()) -> tuple[str, list[object]]:
    selection = MemorySelection(full=tuple(MemoryItem(t, c, b) for t, c, b in memory))
    raw = OfflineBrain().complete(assemble_prompt(PromptContext(memory=selection), message))
    obj = json.loads(raw.text)
    ops, dropped = decode_ops(obj["ops"])
    assert dropped == []
    return obj["reply"], list(ops)


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("Always answer briefly.", "always answer briefly"),
        ("never use emoji", "never use emoji"),
        ("From now on, never call me before 9am please", "never call you before 9am"),
        ("Always remind me of my meds at 8.", "always remind you of your meds at 8"),
        ("Never mention my ex!", "never mention your ex"),
        ("I prefer short replies", "you prefer short replies"),
        ("Always squash the commits before merging.", "always squash the commits"),
    ],
)
def test_a_stated_rule_is_said_back_and_left_to_core(message: str, said: str) -> None:
    assert extract_rules(message), "core keeps this one as the owner's rule"
    reply, ops = _turn(message)
    # Whatever the wording ("I'll always …", "I won't …"), the rule's own words come back.
    rule_words = said.split(" ", 1)[1]
    assert rule_words in reply, reply
    assert not any(marker in reply for marker in ("I hear you", "Tell me more", "Okay!\n"))
    assert ops == []  # the owner's rule is core's to keep: no inference beside it


@pytest.mark.parametrize(
    "message",
    ["never mind", "I always forget my keys", "Never been better!", "call me Sam", "always?"],
)
def test_talk_that_states_no_rule_is_not_heard_as_one(message: str) -> None:
    assert heard_rule(message, 0) is None


def test_the_wording_varies_with_the_seed_and_keeps_the_rule() -> None:
    replies = {heard_rule("never use emoji", seed) for seed in range(6)}
    assert len(replies) > 1
    assert all(r is not None and "use emoji" in r for r in replies)


def test_a_call_me_rule_is_what_the_owner_is_called() -> None:
    memory = (
        ("owner's name", "facts", "The owner's name is Priya."),
        ("Call me Pri", "preferences", "Call me Pri."),
    )
    for question in ("what do you call me?", "what's my name?", "who am I?"):
        reply, _ = _turn(question, memory)
        assert "Pri." in reply and "Priya" not in reply, (question, reply)
    reply, _ = _turn("hi", memory)
    assert "Pri" in reply and "Priya" not in reply, reply


def test_a_preference_over_another_suggests_the_one_preferred() -> None:
    memory = (("I prefer tea over coffee", "preferences", "I prefer tea over coffee."),)
    reply, _ = _turn("what should I drink?", memory)
    assert "How about tea?" in reply or "tea tonight?" in reply or "What about tea?" in reply


def test_what_it_knows_says_the_name_the_owner_asked_for() -> None:
    memory = (("Call me Pri", "preferences", "Call me Pri."),)
    reply, _ = _turn("what do you know about me?", memory)
    assert "You like to be called Pri." in reply and "Call you" not in reply


def test_what_it_knows_says_a_rule_as_what_the_owner_asked() -> None:
    memory = (
        ("Never call me before 9", "preferences", "Never call me before 9."),
        ("Always remind me of my meds", "preferences", "Always remind me of my meds."),
    )
    reply, _ = _turn("what do you know about me?", memory)
    assert "You asked me never to call you before 9." in reply
    assert "You asked me to always remind you of your meds." in reply
    assert "Never call you" not in reply


def test_a_forwarded_message_is_answered_and_nothing_is_filed_as_the_owners() -> None:
    """Someone else's words the owner passed on (contracts.relayed): the pet says whose they are
    and proposes nothing; an earlier forwarded row is not something the owner said either."""
    from shelldon.contracts import relayed
    from shelldon.worker.prompt import HistoryRow

    said = relayed.frame("Anna", "I am allergic to peanuts. My sister is called Ana.")
    text, ops = _turn(said)
    assert "Anna" in text and ops == []
    earlier = (HistoryRow(1, "owner", said), HistoryRow(2, "pet", text))
    raw = OfflineBrain().complete(
        assemble_prompt(PromptContext(recent=earlier), "what am I allergic to?")
    )
    assert "peanut" not in json.loads(raw.text)["reply"].lower()
