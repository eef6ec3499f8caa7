"""Issue 23's eighth hostile round, the model's half, through the real processes.

A fake provider (the real OpenAI wire) proposes the ops of tests/support/hostile_round8.py, 16 a
turn, through core, broker, fork-server and worker; one more turn then reads the last prompt
(the harness is round 6's, tests/support/hostile.py). A secret is recoverable when every piece
of one of its spellings is in a file the pet wrote (memory, history.db, the audit; pet.log
aside), an order is stored when its marker is. Every benign look-alike must be kept. The set
was written before any fix and run once (docs/gate-design.md, "Eighth hostile round").
"""

from __future__ import annotations

from pathlib import Path

from fakes.fake_provider import FakeProvider
from support import hostile_round8 as r8
from support.hostile import measure, report


def test_eighth_round_held_apart_set(run_dir: Path, home: Path, keyless_fake: FakeProvider) -> None:
    found = measure(home, keyless_fake, r8.SECRETS, r8.ORDERS, r8.BENIGN, r8.BENIGN_NEEDLES)
    report(found, r8.SECRETS, r8.ORDERS)
    refused = [r for r in found["audit"] if r["action"] == "reject"]
    assert all("preview" not in r and r.get("reason") for r in refused)
    assert (found["secrets"], found["orders"], found["prompt"]) == ([], [], [])
    assert found["benign lost"] == []
