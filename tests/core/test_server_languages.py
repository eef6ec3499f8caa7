"""Core builds the owner's language profile for each turn's worker (core.server owner_languages,
contracts.languages.ProfileCache), so the worker neither reads the owner's rows nor counts them:
turn after turn, the profile core sends is the one the worker builds from the same history.db.

Core runs in-process with a real data root and stores; only the worker is replaced, by a runner
that records what core sent and returns a fixed reply without ops.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from shelldon.contracts import wire
from shelldon.contracts.languages import OwnerLanguages
from shelldon.core.history.store import HistoryStore
from shelldon.core.runner import WorkerRunner
from shelldon.core.server import CoreService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot
from shelldon.worker.prompt import MAX_MESSAGE_CHARS, gather_context
from support.owner_texts import ENGLISH, PORTUGUESE

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


class RecordingRunner(WorkerRunner):
    def __init__(self, root: DataRoot) -> None:
        super().__init__(root, turn_deadline_s=5.0)
        self.sent: list[OwnerLanguages | None] = []  # core's profile, each turn
        self.used: list[OwnerLanguages | None] = []  # what a worker given it puts in the prompt
        self.own: list[OwnerLanguages | None] = []  # what a worker builds alone

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
        # What a worker spawned now would send, and would build itself, from this history.db.
        given = gather_context(self.root, message, owner_languages=owner_languages)
        self.sent.append(owner_languages)
        self.used.append(given.owner_languages)
        self.own.append(gather_context(self.root, message).owner_languages)
        return wire.TurnResult(turn_id=turn_id, reply="Okay!", ops=())


def test_core_sends_each_turn_the_profile_the_worker_would_build(tmp_path: Path) -> None:
    root = DataRoot(tmp_path / "home", tmp_path / "run")
    layout.prepare(root)
    store = HistoryStore.open(root.history_db)
    try:  # an older history: ~9,000 characters of the owner's
        for i, text in enumerate([*PORTUGUESE, *ENGLISH] * 2):
            store.record_turn(f"old{i}", text, "Okay!", T0 + timedelta(minutes=i))
    finally:
        store.close()
    runner = RecordingRunner(root)
    service = CoreService(Stores.open(root), runner)
    messages = ENGLISH[:30]  # the window passes the profile's 10,000 characters and slides
    for message in messages:
        service.run_turn("turn", message)
    # A message too long to show whole is cut by the worker, and its profile with it: the
    # worker builds that one itself (core's is of the whole message).
    service.run_turn("turn", "x" * (MAX_MESSAGE_CHARS + 1))
    assert len(runner.sent) == len(messages) + 1
    assert all(sent is not None for sent in runner.sent)
    assert runner.sent[:-1] == runner.own[:-1]
    assert runner.sent[-1] != runner.own[-1]
    assert runner.used == runner.own
    assert "the" in runner.own[-2].words  # type: ignore[union-attr]
