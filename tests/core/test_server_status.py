"""`status` counts what a turn stored, even when it is asked the moment the reply arrives.

The reply leaves core before the turn's ops are applied (core.turn.apply): a status request that
arrives in between must wait for them (core.server's `settled`), or the owner sees a count that
misses what the pet just said it remembered. Core runs in-process here, with a real data root and
stores; only the worker is replaced, by a runner that returns a fixed proposal.
"""

from __future__ import annotations

import threading
from pathlib import Path

from shelldon.contracts import wire
from shelldon.contracts.languages import OwnerLanguages
from shelldon.core.runner import WorkerRunner
from shelldon.core.server import CoreService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot

REMEMBER_ANA = {
    "op": "remember",
    "collection": "people",
    "name": "ana",
    "content": "Ana is the owner's sister.",
}


class ProposingRunner(WorkerRunner):
    """The worker's side of a turn, without a fork-server: one reply and one remember op."""

    def spawn(
        self,
        turn_id: str,
        purpose: wire.TurnPurpose,
        message: str,
        dream_directive: str = "",
        *,
        deadline_s: float | None = None,
        owner_languages: OwnerLanguages | None = None,
    ) -> wire.TurnResult | wire.TurnFailed:
        return wire.TurnResult(turn_id=turn_id, reply="I'll remember Ana.", ops=(REMEMBER_ANA,))


def test_status_asked_as_the_reply_arrives_counts_the_turns_ops(tmp_path: Path) -> None:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    layout.prepare(root)
    service = CoreService(Stores.open(root), ProposingRunner(root, turn_deadline_s=5.0))
    seen: list[wire.Status] = []

    def ask_status() -> None:
        seen.append(service.status())

    asker = threading.Thread(target=ask_status)

    def emit(reply: wire.Reply) -> None:
        # The owner has the reply; the ops are not applied until emit returns. A status that did
        # not wait would be computed now, with people == 0. The bounded join lets emit return
        # when status (rightly) waits.
        asker.start()
        asker.join(timeout=1.0)

    service.run_turn("turn", "my sister is called Ana", emit=emit)
    asker.join(timeout=30)
    assert seen, "status never answered"
    counts = seen[0].memory_counts
    assert counts["messages"] == 2
    assert counts["people"] == 1
