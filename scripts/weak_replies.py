"""How many quirky small-model replies reach the owner unreadable (docs/brain.md, "Weak models at
the provider door"): the class examples and the held-apart set of
tests/broker/test_weak_models.py (and the second one, of tests/broker/test_weak_frames.py, by
its judge), and the recorded SmolLM2-135M replies (tests/fixtures/live_model), each served by
the fake over real HTTP and read by the chain with the offline brain behind it, judged by the
test's judge; the third held-apart set of tests/broker/test_weak_asides.py (stage directions,
talk about the prompt) and its look-alikes. Then, in tools mode, how many replies imitating the
JSON protocol in text (the class examples and the held-apart set of
tests/broker/test_text_ops_in_tools_mode.py) had their ops proposed, or reached the owner
unreadable.

    .venv/bin/python scripts/weak_replies.py [-v]

Run it on an older checkout of python/ to see the figures before a change.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from broker import test_text_ops_in_tools_mode as text_ops
from broker.test_live_replies import RECORDS
from broker.test_weak_asides import (
    AFTER_LOOK_ALIKES,
    AFTER_SET,
    HELD_APART_3,
    LOOK_ALIKES,
    unreadable_3,
)
from broker.test_weak_frames import HELD_APART_2, unreadable_2
from broker.test_weak_models import HELD_APART, REQUEST, TEXT_CLASSES, _unreadable
from fakes.fake_provider import FAKE_KEY, FakeProvider, Step, body, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support.providers import http_provider


def _count(
    fake: FakeProvider,
    name: str,
    cases: list[tuple[str, list[Step], CompletionRequest]],
    judge: Callable[[str], str | None] = _unreadable,
) -> None:
    bad = 0
    for case, steps, request in cases:
        fake.script(*steps)
        reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(request)
        why = judge(reply.text)
        bad += why is not None
        if "-v" in sys.argv and why is not None:
            print(f"  {case}: {why}: {reply.text[:70]!r}")
    print(f"{name}: {bad} of {len(cases)} reach the owner unreadable")


def _count_asides(
    fake: FakeProvider, name: str, cases: list[tuple[str, Step, bool]], look_alikes: list[str]
) -> None:
    """A set of stage directions and talk about the prompt: shown with a mark, or the model's
    good words lost to the next provider; then its look-alikes not shown as written."""
    bad = 0
    for case, step, words in cases:
        fake.script(step)
        reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
        why = unreadable_3(reply.text)
        if why is None and words and reply.provider == "offline":
            why = "the model's words lost"
        bad += why is not None
        if "-v" in sys.argv and why is not None:
            print(f"  {case}: {why}: {reply.text[:70]!r}")
    print(f"{name}: {bad} of {len(cases)} shown with a mark or their words lost")
    changed = 0
    for written in look_alikes:
        fake.script(raw(written))
        reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
        if (reply.provider, reply.text) != ("fake-openai", written):
            changed += 1
            if "-v" in sys.argv:
                print(f"  look-alike changed: {written[:50]!r} -> {reply.text[:50]!r}")
    print(f"{name}, look-alikes: {changed} of {len(look_alikes)} not shown as written")


def _count_text_ops(fake: FakeProvider, name: str, cases: list[tuple[str, str]]) -> None:
    proposed = unreadable = 0
    for kind in ("openai", "anthropic"):
        for case, written in cases:
            fake.script(raw(written))
            provider = http_provider(fake, kind, protocol="tools")
            reply = ProviderChain([provider, OfflineBrain()]).complete(REQUEST)
            planted = bool(text_ops._planted(reply))
            why = _unreadable(reply.text)
            proposed += planted
            unreadable += why is not None
            if "-v" in sys.argv and (planted or why is not None):
                print(f"  {kind} {case}: proposed={planted} {why}: {reply.text[:70]!r}")
    print(
        f"tools mode, {name}: {proposed} of {2 * len(cases)} had text ops proposed, "
        f"{unreadable} reached the owner unreadable"
    )


def main() -> int:
    logging.disable(logging.CRITICAL)
    classes = [(case, [raw(written)], REQUEST) for case, written, _ in TEXT_CLASSES]
    held = [(case, [step], REQUEST) for case, step in HELD_APART]
    recorded = []
    for index, record in enumerate(RECORDS):
        message = record["answered"]
        request = CompletionRequest(
            purpose="turn",
            sections=(
                PromptSection("system", "You are shelldon."),
                PromptSection("message", message if message.startswith("#") else f"# {message}"),
            ),
        )
        recorded.append((f"reply{index}", [body(record["answer"])] * 2, request))
    with FakeProvider(require_key=FAKE_KEY) as fake:
        _count(fake, "class examples", classes)
        _count(fake, "held-apart set", held)
        held_2 = [(case, [step], REQUEST) for case, step in HELD_APART_2]
        _count(fake, "second held-apart set (template families)", held_2, unreadable_2)
        _count(fake, "recorded SmolLM2-135M replies", recorded)
        _count_asides(
            fake, "third held-apart set (stage directions, prompt talk)", HELD_APART_3, LOOK_ALIKES
        )
        _count_asides(fake, "after-set (written after the fixes)", AFTER_SET, AFTER_LOOK_ALIKES)
        classes_ops = [(case, written) for case, written, _ in text_ops.CLASSES]
        _count_text_ops(fake, "JSON-protocol class examples", classes_ops)
        _count_text_ops(fake, "JSON-protocol held-apart set", text_ops.HELD_APART)
    return 0


if __name__ == "__main__":
    sys.exit(main())
