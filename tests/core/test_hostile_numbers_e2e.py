"""Numbers no field can hold, from a hostile or broken brain, through the real processes.

Python's JSON parser reads an integer of any length, and the wire between the pet's processes
(msgpack) holds 64 bits: a proposed op with `"in_seconds": 10**30` written out in digits, or a
usage figure as long, used to kill the broker's connection thread while it sent the answer, and
the owner read "I lost my train of thought"; so did half an emoji (a lone surrogate, which JSON
escapes and no UTF-8 encoder takes). Now the op is dropped (and said in the audit's
dropped notes), the usage is unknown, the other ops of the turn are kept, and a reminder in 2**62
seconds (which fits the wire but no timedelta) is refused as too far and told; a lone surrogate
becomes U+FFFD."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from fakes.fake_provider import FakeProvider, reply
from support.pet import start_pet

REPLY = "Sure, noted."
TEA = "Mia likes her tea with milk and no sugar."


def test_numbers_past_every_field_are_dropped_not_fatal(
    run_dir: Path, home: Path, keyless_fake: FakeProvider
) -> None:
    ops = [
        {"op": "remind", "text": "stretch", "in_seconds": 10**30},
        {"op": "remind", "text": "drink water", "in_seconds": 2**62},
        {"op": "remember", "collection": "facts", "name": "tea", "content": TEA},
    ]
    # Half an emoji, as a small model cut it: JSON escapes it, and no UTF-8 encoder takes it.
    half = reply("Hello again \ud83d", ops=[{**ops[2], "name": "milk \udfff"}])
    keyless_fake.script(reply(REPLY, ops=ops, usage=(10**30, 7)), half)
    pet = start_pet()
    try:
        first = pet.cli("say", "remind me to stretch and to drink water")
        second = pet.cli("say", "hi")
        reminders = pet.cli("reminders")
    finally:
        assert pet.stop() == 0, pet.log
    assert first.returncode == 0 and REPLY in first.stdout, (first.stdout, first.stderr)
    assert "Traceback" not in pet.log and "train of thought" not in first.stdout
    assert second.returncode == 0 and "Hello again \ufffd" in second.stdout, second.stdout
    # The refused reminder is told: a notice in the proactive queue, which a transport delivers
    # (core.proactive.reminders: the owner already has the reply).
    with sqlite3.connect(f"file:{pet.root.history_db}?mode=ro", uri=True) as db:
        notices = [t for (t,) in db.execute("SELECT text FROM proactive_queue")]
    assert any("drink water" in t and "too far ahead" in t for t in notices), notices
    assert "stretch" not in reminders.stdout and "drink water" not in reminders.stdout
    memory = pet.root.memory
    assert any(TEA in p.read_text() for p in (memory / "facts").glob("*.md"))
    audit = [json.loads(x) for x in (memory / "history.jsonl").read_text().splitlines()]
    assert [r["reason_code"] for r in audit if r["op"] == "remind"] == ["too_far"]
