"""A real pet (core, fork-server, broker with the offline brain): a turn that set a reminder is
reflected on through the broker, and the offline reflection keeps nothing from the pet's own
action (no "`remind reminders/1` worked" entry)."""

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
    # The reflection ran, and wrote nothing: setting a reminder is the pet's own action, kept in
    # the reminder book; "`remind reminders/1` worked" would be junk (broker.offline_reflect).
    entries = [parse_entry(p.read_text()) for p in (pet.root.memory / "facts").glob("*.md")]
    assert [e for e in entries if e.meta.provenance == "observed"] == []
    audit = [json.loads(line) for line in (pet.root.memory / "history.jsonl").open()]
    assert not any(a.get("unit", "").startswith("reflect-") for a in audit), audit
    assert pet.log.count("reflection for") == 1  # "ok" did no real work
