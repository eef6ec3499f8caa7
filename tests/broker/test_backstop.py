"""What a model forgot, the pet still does (broker.answer's backstop): a clear "remind me …" the
model did not turn into a reminder is set by the offline rules and the owner told so; statements
are captured by the rules when the model proposed nothing; never on top of what the model did."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fakes.fake_provider import FakeProvider, call, raw, reply, tool_calls
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.ops import decode_ops
from shelldon.worker.prompt import PromptContext, assemble_prompt
from support.providers import http_provider

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def turn(message: str) -> CompletionRequest:
    return assemble_prompt(PromptContext(now=NOW), message)


def ask(fake: FakeProvider, kind: str, message: str) -> tuple[str, list[str], list[str]]:
    reply_ = ProviderChain([http_provider(fake, kind), OfflineBrain()]).complete(turn(message))
    ops, _ = decode_ops(list(reply_.ops))  # core drops what does not decode
    return reply_.text, [type(op).__name__ for op in ops], list(reply_.dropped)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_forgotten_reminder_is_set_by_the_rules_and_the_owner_told(
    fake: FakeProvider, kind: str
) -> None:
    fake.script(raw("Sure, I will remind you!"))
    text, ops, dropped = ask(fake, kind, "remind me to call Ana tomorrow at 9")
    assert ops == ["Remind"]
    assert (
        text == "Sure, I will remind you!\n(Okay, I'll remind you tomorrow at 09:00 to call Ana.)"
    )
    assert any(d.startswith("backstop: the model set no reminder") for d in dropped)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_reminder_the_model_set_is_not_set_twice(fake: FakeProvider, kind: str) -> None:
    fake.script(
        tool_calls(
            call("remind", {"text": "call Ana", "at": "2026-12-02T09:00"}),
            text="I'll remind you tomorrow at 9.",
        )
    )
    text, ops, dropped = ask(fake, kind, "remind me to call Ana tomorrow at 9")
    assert ops == ["Remind"] and text == "I'll remind you tomorrow at 9."
    assert not any(d.startswith("backstop") for d in dropped)


def test_statements_are_captured_when_the_model_proposed_nothing(fake: FakeProvider) -> None:
    fake.script(raw("How lovely!"))
    message = "I usually run every morning. My sister is called Ana."
    text, ops, dropped = ask(fake, "openai", message)
    assert text == "How lovely!"  # the model's words stand; only the ops come from the rules
    assert ops == ["CaptureLearning", "Remember"]
    assert any(d.startswith("backstop: the model proposed no op") for d in dropped)


def test_a_model_that_proposed_an_op_is_left_alone(fake: FakeProvider) -> None:
    ana = {"op": "remember", "collection": "people", "name": "sister", "content": "Sister: Ana."}
    fake.script(reply("How lovely!", ops=[ana]))
    _, ops, dropped = ask(fake, "openai", "I usually run every morning. My sister is called Ana.")
    assert ops == ["Remember"]
    assert not any(d.startswith("backstop") for d in dropped)


def test_an_invalid_op_counts_as_nothing_proposed(fake: FakeProvider) -> None:
    """The 135M model's `{"op": "remember"}` with no fields: the rules still learn."""
    fake.script(reply("Okay.", ops=[{"op": "remember"}]))
    _, ops, _ = ask(fake, "openai", "I usually run every morning.")
    assert ops == ["CaptureLearning"]


def test_the_offline_brain_itself_is_not_backstopped_twice() -> None:
    reply_ = ProviderChain([OfflineBrain()]).complete(turn("remind me to call Ana tomorrow at 9"))
    assert [op["op"] for op in reply_.ops] == ["remind"]
    assert reply_.text == "Okay, I'll remind you tomorrow at 09:00 to call Ana."


def test_words_the_owner_forwarded_are_not_captured_for_them(fake: FakeProvider) -> None:
    """A forwarded message (contracts.relayed) is someone else's: the rules set no reminder and
    capture no statement the model left alone."""
    from shelldon.contracts import relayed

    fake.script(raw("Interesting message!"), raw("Noted."))
    said = relayed.frame("Anna", "I usually run every morning. My sister is called Ana.")
    text, ops, dropped = ask(fake, "openai", said)
    assert (text, ops) == ("Interesting message!", [])
    assert not any(d.startswith("backstop") for d in dropped)
    _, ops, _ = ask(fake, "openai", relayed.frame("Anna", "remind me to call Ana tomorrow at 9"))
    assert ops == []
