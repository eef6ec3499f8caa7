"""An owner command sent the moment a reply arrives acts on that turn's ops, not on the older state.

The reply leaves core before the turn's ops are applied (core.turn.apply). `/undo` asked in between
undid the turn before it (the last unit in the audit log then) and left the new entry standing;
`/memory` listed the tree without the entry the pet had just said it kept. Owner commands now wait
for the turn to settle, as status does (core.server's `settled`). Core runs in-process here with
a real data root and stores; only the worker is replaced, by a runner that returns fixed proposals.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from shelldon.contracts import wire
from shelldon.core.runner import WorkerRunner
from shelldon.core.server import CoreService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot


def _remember(name: str, content: str) -> dict[str, Any]:
    return {"op": "remember", "collection": "people", "name": name, "content": content}


class ProposingRunner(WorkerRunner):
    """The worker's side of a turn, without a fork-server: the next queued reply and op."""

    def __init__(self, root: DataRoot, proposals: list[dict[str, Any]]) -> None:
        super().__init__(root, turn_deadline_s=5.0)
        self.proposals = proposals

    def spawn(
        self,
        turn_id: str,
        purpose: wire.TurnPurpose,
        message: str,
        dream_directive: str = "",
        owner_languages: object = None,
    ) -> wire.TurnResult | wire.TurnFailed:
        return wire.TurnResult(turn_id=turn_id, reply="Noted.", ops=(self.proposals.pop(0),))


def _service(tmp_path: Path) -> CoreService:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    layout.prepare(root)
    proposals = [
        _remember("ana", "Ana is the owner's sister."),
        _remember("tom", "Tom is the owner's brother."),
    ]
    return CoreService(Stores.open(root), ProposingRunner(root, proposals))


def _asked_as_the_reply_arrives(service: CoreService, message: str, command: str) -> str:
    """Run one turn; `command` is asked from another thread the moment its reply is emitted."""
    answers: list[str] = []
    asker = threading.Thread(target=lambda: answers.append(service.command(command)))

    def emit(reply: wire.Reply) -> None:
        # The owner has the reply; the ops are not applied until emit returns. A command that did
        # not wait would answer now. The bounded join lets emit return when it (rightly) waits.
        asker.start()
        asker.join(timeout=1.0)

    service.run_turn("turn", message, emit=emit)
    asker.join(timeout=30)
    assert answers, "the command never answered"
    return answers[0]


def test_undo_sent_as_the_reply_arrives_undoes_that_turn(tmp_path: Path) -> None:
    service = _service(tmp_path)
    service.run_turn("turn", "my sister is called Ana")  # applied whole: nothing waits here
    undone = _asked_as_the_reply_arrives(service, "my brother is called Tom", "undo")
    assert undone.endswith(": removed people/tom.md."), undone
    people = service.root.memory / "people"
    assert sorted(p.name for p in people.glob("*.md")) == ["ana.md"]


def test_memory_asked_as_the_reply_arrives_lists_what_the_turn_kept(tmp_path: Path) -> None:
    service = _service(tmp_path)
    listed = _asked_as_the_reply_arrives(service, "my sister is called Ana", "memory")
    assert "ana (people)" in listed, listed
