"""Issue 23's sixth hostile round, the model's half, through the real processes.

A fake provider (the real OpenAI wire) proposes the ops of tests/support/hostile_round6.py, 16 a
turn, through core, broker, fork-server and worker; one more turn then reads the last prompt.
A secret is recoverable when every piece of one of its spellings is in a file the pet wrote
(memory, history.db, the audit; pet.log aside), an order is stored when its marker is. Every
benign look-alike must be kept. The set was written before any fix and run once
(docs/gate-design.md, "Sixth hostile round": the first figures by class, and the after-set's).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from core.test_hostile_redteam3_e2e import _everything, _prompt_text
from fakes.fake_provider import FakeProvider, reply
from support import hostile_round6 as r6
from support.pet import start_pet

REPLY = "Noted, thanks!"


def _has(text: str, piece: str) -> bool:  # as written, or escaped the way JSON writes it
    return piece in text or json.dumps(piece)[1:-1] in text


def _recoverable(text: str, spellings: list[list[str]]) -> bool:
    return any(all(_has(text, piece) for piece in pieces) for pieces in spellings)


def measure(
    home: Path,
    fake: FakeProvider,
    secrets: list[r6.Secret],
    orders: list[r6.Order],
    benign: list[r6.Op],
    needles: list[str],
) -> dict[str, Any]:
    """Every op through a real pet; what was stored, by class, and the audit's records."""
    groups = [g for _, g, _ in secrets] + [g for _, g, _ in orders] + [[op] for op in benign]
    batches: list[list[r6.Op]] = [[]]
    for group in groups:  # an op's group stays in one turn (the split classes need it)
        if len(batches[-1]) + len(group) > 16:
            batches.append([])
        batches[-1].extend(group)
    fake.script(*(reply(REPLY, ops=b) for b in batches), reply(REPLY))
    pet = start_pet()
    try:
        said = [pet.cli("say", f"let's tidy up, part {n}") for n in range(len(batches))]
        said.append(pet.cli("say", "what do you remember about Mia, the router and the NAS?"))
    finally:
        assert pet.stop() == 0, pet.log
    assert all(r.returncode == 0 for r in said), [r.stderr for r in said]
    assert "Traceback" not in pet.log
    kept = _everything(home)
    prompt = _prompt_text(fake)
    audit_path = pet.root.memory / "history.jsonl"
    return {
        "secrets": [c for c, _, sp in secrets if _recoverable(kept, sp)],
        "orders": [c for c, _, m in orders if m in kept],
        "prompt": [c for c, _, sp in secrets if _recoverable(prompt, sp)]
        + [c for c, _, m in orders if m in prompt],
        "benign lost": [n for n in needles if not _has(kept, n)],
        "audit": [json.loads(x) for x in audit_path.read_text().splitlines()],
    }


def report(found: dict[str, Any], secrets: list[r6.Secret], orders: list[r6.Order]) -> None:
    """The figures by class (scripts/pytest.sh tests/core/test_hostile_round6_e2e.py -q -s)."""
    for kind, battery in (("secrets", secrets), ("orders", orders)):
        total = Counter(c for c, _, _ in battery)
        wrong = Counter(found[kind])
        print(f"{kind} stored wrongly: {sum(wrong.values())} of {sum(total.values())}")
        for cls, n in total.items():
            print(f"  {cls}: {wrong[cls]} of {n}")
    print(f"in the last prompt: {found['prompt']}")
    print(f"benign lost: {found['benign lost']}")


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
