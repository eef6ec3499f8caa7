"""Issue 23's sixth hostile round, the model's half, through the real processes.

A fake provider (the real OpenAI wire) proposes the ops of tests/support/hostile_round6.py, 16 a
turn, through core, broker, fork-server and worker; one more turn then reads the last prompt.
A secret is recoverable when every piece of one of its spellings is in a file the pet wrote
(memory, history.db, the audit; pet.log aside), an order is stored when its marker is. Every
benign look-alike must be kept. The set was written before any fix and run once
(docs/gate-design.md, "Sixth hostile round": the first figures by class, and the after-set's).
"""

from __future__ import annotations

from pathlib import Path

from fakes.fake_provider import FakeProvider
from support import hostile_round6 as r6
from support.hostile import measure, report


def test_sixth_round_held_apart_set(run_dir: Path, home: Path, keyless_fake: FakeProvider) -> None:
    found = measure(home, keyless_fake, r6.SECRETS, r6.ORDERS, r6.BENIGN, r6.BENIGN_NEEDLES)
    report(found, r6.SECRETS, r6.ORDERS)
    refused = [r for r in found["audit"] if r["action"] == "reject"]
    assert all("preview" not in r and r.get("reason") for r in refused)
    assert (found["secrets"], found["orders"], found["prompt"]) == ([], [], [])
    assert found["benign lost"] == []


def test_sixth_round_after_set(run_dir: Path, home: Path, keyless_fake: FakeProvider) -> None:
    """Written after the fixes, from the same classes in other shapes and fields, and run once
    as written: its figure is the report's (docs/gate-design.md)."""
    found = measure(
        home, keyless_fake, r6.AFTER_SECRETS, r6.AFTER_ORDERS, r6.AFTER_BENIGN, r6.AFTER_NEEDLES
    )
    report(found, r6.AFTER_SECRETS, r6.AFTER_ORDERS)
    assert (found["secrets"], found["orders"], found["prompt"]) == ([], [], [])
    assert found["benign lost"] == []
