"""The real pet (core, broker, fork-server, a worker) against a provider on 127.0.0.1 that writes
memory only through native tool calls, and against one that answers only junk.

What only whole processes show: a fact proposed as a tool call (with no text, so the broker asks
for words) is kept by core and comes back in the next turn's prompt; junk (`{"answer": "hi"}`, a
digit flood, a placeholder) is never printed by `shelldon say` nor fed back in the recent window:
the offline brain behind it answers instead.
"""

from __future__ import annotations

from pathlib import Path

from fakes.fake_provider import FakeProvider, call, raw, tool_calls
from support.pet import running_pet
from support.providers import configure_pet, store_key

ANA = {"collection": "people", "name": "sister", "content": "The owner's sister is Ana."}
JUNK = [
    '{"answer": "hi"}',
    '{"id": ' + "7" * 400 + "}",
    "<what you say to your owner>",
]


def test_a_fact_proposed_only_as_a_tool_call_is_kept_and_recalled(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    store_key(home)
    configure_pet(home, fake)
    fake.script(
        tool_calls(call("remember", ANA)),  # no text: the broker asks again for words
        raw("Ana! I'll remember your sister."),
        raw("Your sister is Ana."),
    )
    with running_pet() as pet:
        assert pet.say("my sister is called Ana") == "Ana! I'll remember your sister."
        assert pet.say("who is my sister?") == "Your sister is Ana."
    first, words, second = fake.requests
    assert "tools" in first.json and words.json["tool_choice"] == "none"
    assert "The owner's sister is Ana." in second.system_text()  # kept, and recalled


def test_junk_never_reaches_the_owner_or_the_recent_window(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    store_key(home)
    configure_pet(home, fake)
    fake.script(*(raw(junk) for junk in JUNK), raw("ok"))
    with running_pet() as pet:
        replies = [pet.say(f"hello number {n}") for n in range(len(JUNK))]
        pet.say("one more")
    for shown in replies:
        assert shown and "{" not in shown and "<" not in shown and "7777" not in shown
    last = fake.requests[-1].system_text()
    for junk in JUNK:
        assert junk[:12] not in last
    # What the owner was told (the offline brain's words, before core's note on the link) is
    # what history keeps.
    assert f"pet: {replies[-1].splitlines()[0]}" in last
    assert "made no sense" in replies[0]  # and the owner is told the model's answer was refused
