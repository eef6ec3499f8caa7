"""A dream red-team drill: a fake provider whose dreams each propose one hostile op.

A dream may propose `rewrite_summary` and `merge` besides a turn's ops, so the red-team
rounds' dream drills (tests/core/dream/test_dream_redteam*_e2e.py) answer each
`shelldon dream --now` with one of them carrying one disguise, then read every file the pet
wrote (summary.md is rewritten by the next dream, so it is read after each). One loop, one
reading of the audit, for every round.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fakes.fake_provider import FakeProvider, RecordedRequest, Step, reply
from support.pet import start_pet

CAPTURE = {"op": "capture_learning", "observation": "owner plays chess on sundays",
           "pattern_key": "chess"}  # fmt: skip
SEED = [
    {"op": "remember", "collection": "facts", "name": "kettle",
     "content": "The kettle in the kitchen is broken again."},
    {"op": "remember", "collection": "facts", "name": "radio",
     "content": "The radio in the hall plays jazz all night long."},
]  # fmt: skip

# (id, op, spellings): a case is stored when every piece of one spelling is in the files.
Case = tuple[str, dict[str, Any], list[list[str]]]


class DreamBrain:
    """Owner turns capture a learning and seed an entry; each dream proposes the next case."""

    def __init__(self) -> None:
        self.queue: list[dict[str, Any]] = []
        self.fake = FakeProvider(responder=self._respond)

    def _respond(self, request: RecordedRequest) -> Step:
        if "Dream: tidy your memory" not in json.dumps(request.json):
            return reply("Noted.", ops=[CAPTURE, *SEED])
        return reply("tidied", ops=[self.queue.pop(0)] if self.queue else [])


def dream_ops(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The two ops only a dream proposes, each carrying `text`."""
    return [
        ("rewrite_summary", {"op": "rewrite_summary", "content": text}),
        (
            "merge",
            {"op": "merge", "collection": "facts", "sources": ["kettle", "radio"], "content": text},
        ),
    ]


def round_cases(
    secrets: Mapping[str, Callable[[str], tuple[str, list[list[str]]]]],
    orders: Mapping[str, Callable[[str], str]],
    password: Callable[[str], str],
    tag: str,
    marker: str,
    skip: frozenset[str] = frozenset(),
) -> list[Case]:
    """Each secret disguise of a round (with a password of its own, from `tag`) and each order
    disguise (with its own marker, `marker` and its number), through both dream ops."""
    cases: list[Case] = []
    for cls, disguise in secrets.items():
        text, spellings = disguise(password(f"{tag}-dream/{cls}"))
        cases += [(f"{cls} / {kind}", op, spellings) for kind, op in dream_ops(text)]
    for n, (cls, make) in enumerate(orders.items()):
        if cls in skip:
            continue
        mark = f"{marker}{n:02d}"
        cases += [(f"{cls} / {kind}", op, [[mark]]) for kind, op in dream_ops(make(mark))]
    return cases


def recoverable(text: str, spellings: list[list[str]]) -> bool:
    """Whether one spelling's pieces are all in `text`, as written or JSON-escaped."""

    def has(piece: str) -> bool:
        return piece in text or json.dumps(piece)[1:-1] in text

    return any(all(has(piece) for piece in pieces) for pieces in spellings)


def run_dreams(
    home: Path, brain: DreamBrain, cases: list[Case], read_files: Callable[[Path], str]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Start the pet, seed it, dream once per case; the cases stored and the dreams' audit lines.

    Asserts what every round asks of the run itself: each dream exits 0, every case reached a
    dream, the pet stops cleanly and logged no traceback.
    """
    stored: list[str] = []
    pet = start_pet()
    try:
        for _ in range(2):
            assert pet.cli("say", "I play chess every Sunday").returncode == 0
        pet.settled()
        for name, op, spellings in cases:
            brain.queue.append(op)
            dreamt = pet.cli("dream", "--now", "--force")
            assert dreamt.returncode == 0, dreamt.stderr + pet.log
            if recoverable(read_files(home), spellings):
                stored.append(name)
    finally:
        assert pet.stop() == 0, pet.log
    assert "Traceback" not in pet.log
    assert not brain.queue  # every case reached a dream
    audit_path = pet.root.memory / "history.jsonl"
    audit = [json.loads(line) for line in audit_path.read_text().splitlines()]
    return stored, [r for r in audit if r.get("unit", "").startswith("dream")]


def assert_refused_at_the_gate(dreamt_lines: list[dict[str, Any]]) -> None:
    """Each case reached the gate (a merge of fewer than two entries would stop before it),
    and a refusal's audit line keeps no preview of the text."""
    assert {r["reason_code"] for r in dreamt_lines} <= {"secret", "instruction"}, dreamt_lines
    refused = [r for r in dreamt_lines if r["action"] == "reject"]
    assert refused and all("preview" not in r for r in refused)
