"""A pet's memory and recent window between offline turns, as core keeps them: the last 12 rows
as the recent window; each `remember` kept by (collection, name), a named entry revised; each
`forget` deleting the entry it names unless the owner stated it; the owner's rules kept as core
reads them (core.owner_rules) before the turn's ops. Used by the offline brain's tests and its
audit (scripts/offline_audit.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.ops import Forget, Remember, decode_ops
from shelldon.core.owner_rules import extract_rules
from shelldon.worker.prompt import (
    RECENT_WINDOW,
    HistoryRow,
    MemoryItem,
    MemorySelection,
    PromptContext,
    assemble_prompt,
)

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
# Two rows already said: a turn after them is not the pet's first (no introduction).
NOT_FIRST = (HistoryRow(1, "owner", "hello"), HistoryRow(2, "pet", "Hello!"))


def one_turn(
    message: str,
    *,
    recent: tuple[HistoryRow, ...] = NOT_FIRST,
    now: datetime = NOW,
    zone: str = "UTC",
) -> tuple[str, list[Any]]:
    """One turn through the real prompt assembly and the real brain: the reply and its ops,
    decoded by the contract (an op it refuses fails the test)."""
    ctx = PromptContext(recent=recent, now=now, zone=zone)
    obj = json.loads(OfflineBrain().complete(assemble_prompt(ctx, message)).text)
    ops, dropped = decode_ops(obj["ops"])
    assert dropped == [], obj["ops"]
    return obj["reply"], list(ops)


@dataclass
class Pet:
    """A pet's memory and window between turns, as core keeps them."""

    now: datetime = NOW
    zone: str = "Europe/Lisbon"
    rules: bool = False  # keep the owner's rules as core does (off: only the brain's ops)
    rows: list[HistoryRow] = field(default_factory=list)
    memory: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # body, prov
    ops: list[Any] = field(default_factory=list)  # the last turn's, decoded

    def say(self, message: str) -> str:
        items = tuple(
            MemoryItem(name, coll, body, prov) for (coll, name), (body, prov) in self.memory.items()
        )
        ctx = PromptContext(
            memory=MemorySelection(full=items),
            recent=tuple(self.rows[-RECENT_WINDOW:]),
            now=self.now,
            zone=self.zone,
        )
        for rule in extract_rules(message) if self.rules else ():
            self.memory[("preferences", rule.name)] = (rule.text, "owner")
        obj = json.loads(OfflineBrain().complete(assemble_prompt(ctx, message)).text)
        self.ops, dropped = decode_ops(obj["ops"])
        assert dropped == [], obj["ops"]
        for op in self.ops:
            if isinstance(op, Remember):
                self.memory[(op.collection, op.name)] = (op.content, "inferred")
            elif (
                isinstance(op, Forget)
                and self.memory.get((op.collection, op.name), ("", ""))[1] != "owner"
            ):
                self.memory.pop((op.collection, op.name), None)
        reply: str = obj["reply"]
        self.rows += [HistoryRow(len(self.rows) + 1, "owner", message)]
        self.rows += [HistoryRow(len(self.rows) + 1, "pet", reply)]
        return reply

    def bury(self) -> None:
        """Small talk until every earlier row has left the recent window: memory must answer."""
        for filler in ("ok", "hm", "right", "the bus was late", "it rained", "fine") * 2:
            self.say(filler)

    def kept(self, collection: str, name: str) -> str | None:
        found = self.memory.get((collection, name))
        return found[0] if found else None


def talked_to(*said: str) -> Pet:
    """A pet that has said hello, been told the owner is Sam, then heard each of `said`."""
    pet = Pet()
    pet.say("hello")
    pet.say("I'm Sam")
    for line in said:
        pet.say(line)
    return pet
