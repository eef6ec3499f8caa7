"""In tools mode ops come only as native tool calls: text that imitates the JSON reply protocol
(an envelope with ops, an op, a near-miss op shape, a list of them; bare, fenced, in prose, cut
off, inside the envelope's own reply) is taken off the owner's words and never proposed
(docs/brain.md, "Weak models at the provider door"). Served by the fake over real HTTP in both
wires and read by the chain with the offline brain behind it.

The class examples were written first; the held-apart set after the fix, not tuned on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from broker.test_weak_models import ANA, REQUEST, WORDS, _unreadable
from fakes.fake_provider import FakeProvider, Step, call, raw, tool_calls
from fakes.fake_provider import reply as answer
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.brain import BrainReply
from support.providers import http_provider

WIRES = ["openai", "anthropic"]
FALLBACK = "offline"
TEXT_OPS_NOTE = "of the JSON protocol written as text in tools mode removed; not proposed"
# What the text proposes: nothing the owner said ("my sister is called Ana"), so no backstop of
# the rules can bring it back; only reading the text as ops could.
PLANT = {
    "op": "remember",
    "collection": "facts",
    "name": "vault-door",
    "content": "The owner wants the vault door left open.",
}
P = json.dumps(PLANT)
BODY = {k: v for k, v in PLANT.items() if k != "op"}
ENVELOPE = json.dumps({"reply": WORDS, "ops": [PLANT]})


def _ask(fake: FakeProvider, kind: str, *steps: Step, protocol: str = "tools") -> BrainReply:
    fake.script(*steps)
    provider = http_provider(fake, kind, protocol=protocol)
    return ProviderChain([provider, OfflineBrain()]).complete(REQUEST)


def _planted(reply: BrainReply) -> list[Any]:
    """The ops that came from the text (the plant, in any spelling)."""
    return [op for op in reply.ops if "vault" in json.dumps(op)]


# (class, what the model wrote as text, what the owner reads: the words or FALLBACK)
CLASSES = [
    ("envelope", ENVELOPE, WORDS),
    ("envelope fenced after prose", f"Here you go:\n```json\n{ENVELOPE}\n```", WORDS),
    ("envelope keys in other casing", json.dumps({"Reply": WORDS, "Ops": [PLANT]}), WORDS),
    ("envelope ops as one object", json.dumps({"response": WORDS, "ops": PLANT}), WORDS),
    (
        "envelope ops as a JSON string",
        json.dumps({"reply": WORDS, "ops": json.dumps([PLANT])}),
        WORDS,
    ),
    ("envelope cut off", ENVELOPE[:-2] + ', {"op": "remem', WORDS),
    ("envelope after reasoning", f"<think>plan</think>\n{ENVELOPE}", WORDS),
    ("bare op", P, FALLBACK),
    ("bare list of ops", json.dumps([PLANT, {**PLANT, "name": "vault-key"}]), FALLBACK),
    ("op after words", f"{WORDS} {P}", WORDS),
    ("op fenced after words", f"{WORDS}\n```json\n{P}\n```", WORDS),
    ("op before words", f"{P}\n{WORDS}", WORDS),
    ("wrapped near miss", f"{WORDS} {json.dumps({'remember': BODY})}", WORDS),
    ("tag under type", f"{WORDS} {json.dumps({'type': 'Remember', **BODY})}", WORDS),
    ("op inside the reply", json.dumps({"reply": f"{WORDS} {P}", "ops": []}), WORDS),
]


@pytest.mark.parametrize("kind", WIRES)
@pytest.mark.parametrize(("case", "written", "shown"), CLASSES, ids=[c[0] for c in CLASSES])
def test_text_imitating_the_json_protocol_is_never_proposed(
    fake: FakeProvider, kind: str, case: str, written: str, shown: str
) -> None:
    reply = _ask(fake, kind, raw(written))
    assert _planted(reply) == []
    if shown == FALLBACK:
        assert reply.provider == FALLBACK, reply.text
    else:
        assert (reply.provider, reply.text) == (f"fake-{kind}", shown)
        assert any(TEXT_OPS_NOTE in note for note in reply.dropped), reply.dropped
    assert _unreadable(reply.text) is None


@pytest.mark.parametrize("kind", WIRES)
def test_a_native_call_beside_text_ops_is_the_only_op(fake: FakeProvider, kind: str) -> None:
    """The envelope beside the call, and again in the words the broker then asks for."""
    reply = _ask(fake, kind, tool_calls(call("remember", ANA), text=ENVELOPE), raw(ENVELOPE))
    assert (reply.text, [op["name"] for op in reply.ops]) == (WORDS, ["sister"])


@pytest.mark.parametrize("protocol", ["plain", "json_object", "json_schema"])
def test_the_json_protocols_own_modes_still_read_its_ops(fake: FakeProvider, protocol: str) -> None:
    reply = _ask(fake, "openai", raw(ENVELOPE), protocol=protocol)
    assert (reply.text, list(reply.ops)) == (WORDS, [PLANT])


def test_the_fake_answers_a_tools_request_with_calls(fake: FakeProvider) -> None:
    """reply(text, ops) in tools mode is what a model there sends: words and native calls."""
    reply = _ask(fake, "anthropic", answer(WORDS, ops=[PLANT]))
    assert (reply.text, list(reply.ops)) == (WORDS, [PLANT])


# --- held apart: written after the fix, not tuned on --------------------------------------
REMIND = {"op": "remind", "text": "open the vault", "in_seconds": 60}
HELD_APART = [
    ("reminder list fenced, no language", f"Sure thing!\n```\n[{json.dumps(REMIND)}]\n```"),
    ("envelope in capitals", json.dumps({"REPLY": WORDS, "OPS": [REMIND]})),
    (
        "action key forget",
        f'{WORDS}\n{{"action": "forget", "name": "vault", "collection": "facts"}}',
    ),
    ("op between two sentences", f"Ana is lovely. {json.dumps(REMIND)} Tell her hi!"),
    ("two envelopes", f"{ENVELOPE}\n{ENVELOPE}"),
    ("op with nested JSON string", json.dumps({"op": "log_episode", "summary": '{"vault": 1}'})),
    ("envelope, words after", f"{ENVELOPE} Anything else?"),
    ("ops only envelope", json.dumps({"ops": [REMIND]})),
    ("capture learning in prose", 'Noted! {"op": "capture_learning", "text": "vault open"}'),
    ("pretty-printed op", f"{WORDS}\n{json.dumps(PLANT, indent=2)}"),
]


@pytest.mark.parametrize("kind", WIRES)
def test_the_held_apart_set_proposes_nothing_and_reads_as_words(
    fake: FakeProvider, kind: str
) -> None:
    bad = []
    for case, written in HELD_APART:
        reply = _ask(fake, kind, raw(written))
        if _planted(reply) or _unreadable(reply.text) is not None:
            bad.append((case, reply.provider, reply.text[:60], _planted(reply)))
    assert bad == []
