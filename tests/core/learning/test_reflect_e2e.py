"""A real pet (core, fork-server, broker with the offline brain): a turn that set a reminder is
reflected on through the broker, and what it teaches is kept as observed under one audit unit."""

from __future__ import annotations

import json
from pathlib import Path

from shelldon.core.memory.entry import parse_entry
from support.pet import start_pet


def test_a_turn_that_set_a_reminder_is_reflected_through_the_broker(run_dir: Path) -> None:
    pet = start_pet({"SHELLDON_REFLECT_IDLE": "0"})  # no wait for the owner's silence
    try:
        reply = pet.say("remind me in 20 minutes to water the ferns")
        assert "remind" in reply.lower(), reply
        pet.wait_for_log(r"reflection for \S+: done")
        small_talk = pet.say("ok")
        assert small_talk
    finally:
        assert pet.stop() == 0, pet.log
    entries = [parse_entry(p.read_text()) for p in (pet.root.memory / "facts").glob("*.md")]
    observed = [e for e in entries if e.meta.provenance == "observed"]
    assert len(observed) == 1, [e.body for e in entries]
    assert "water the ferns" in observed[0].body
    audit = [json.loads(line) for line in (pet.root.memory / "history.jsonl").open()]
    units = {a["unit"] for a in audit if a.get("provenance") == "observed"}
    assert len(units) == 1 and next(iter(units)).startswith("reflect-")
    assert pet.log.count("reflection for") == 1  # "ok" did no real work
