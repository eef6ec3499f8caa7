"""A real process SIGKILLed while firing a reminder: delivered once, never lost.

The child (fire_child.py) fires a due reminder in the real store and is killed at a point of the
firing transaction: after the reminder was marked fired but before its message was queued, just
before the COMMIT, and after the commit (before any transport fetched it). Each time the store,
reopened, holds the reminder either pending with nothing queued (it fires again, once) or fired
with exactly one queued message; never both, never neither. Then a transport that dies between
fetching and acknowledging gets the same message again, and it is recorded once.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.contracts.ops import Remind
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive import reminders
from shelldon.core.proactive.owner_time import Clocks
from shelldon.core.proactive.reminders import Book
from support.proactive import FakeClock, open_store

CHILD = Path(__file__).with_name("fire_child.py")
SET_AT = datetime(2026, 5, 5, 13, 0, tzinfo=UTC)
LATER = datetime(2026, 5, 6, 12, 0, tzinfo=UTC)
LATER_CLOCKS = Clocks(
    wall=lambda: LATER, mono=lambda: 1.0, boot_id=lambda: "b", synced=lambda: True
)


def kill_child_at(db: Path, stop: str) -> None:
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), stop],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # blocks until the child reached its stop
        assert line == f"stopped {stop}\n", child.stderr.read() if child.stderr else ""
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


def set_reminder(tmp_path: Path) -> Path:
    store = open_store(tmp_path)
    Book(store, FakeClock(SET_AT).clocks).add_op(
        Remind(text="call mum", in_seconds=3600), now=SET_AT
    )
    store.close()
    return tmp_path / "history.db"


@pytest.mark.parametrize("stop", ["INSERT INTO proactive_queue", "COMMIT"])
def test_killed_inside_the_firing_transaction_it_fires_again_once(
    tmp_path: Path, stop: str
) -> None:
    db = set_reminder(tmp_path)
    kill_child_at(db, stop)
    store = HistoryStore.open(db)
    try:
        [still] = reminders.pending_reminders(store)  # marked fired was rolled back with it
        assert still.fired == 0 and proactive_queue.pending(store) == []
        assert len(reminders.fire_due(store, LATER_CLOCKS)) == 1
        assert reminders.fire_due(store, LATER_CLOCKS) == []
        assert [i.text for i in proactive_queue.pending(store)] == [
            "Reminder (late: it was due Tue 5 May 15:00, while I was off): call mum"
        ]
    finally:
        store.close()


def test_killed_after_firing_the_message_waits_and_is_delivered_once(tmp_path: Path) -> None:
    db = set_reminder(tmp_path)
    kill_child_at(db, "after")
    store = HistoryStore.open(db)
    try:
        assert reminders.pending_reminders(store) == []  # fired, durably
        assert reminders.fire_due(store, LATER_CLOCKS) == []  # and never again
        [item] = proactive_queue.pending(store)
        # A transport fetched it and died before acknowledging: it is offered again.
        assert [i.id for i in proactive_queue.pending(store)] == [item.id]
        assert proactive_queue.delivered(store, (item.id,), "terminal", LATER) == 1
        assert proactive_queue.delivered(store, (item.id,), "terminal", LATER) == 0
        assert proactive_queue.pending(store) == []
        pet_rows = [r for r in store.recent(10) if r["turn_id"] == f"proactive-{item.id}"]
        assert len(pet_rows) == 1 and "call mum" in pet_rows[0]["content"]
    finally:
        store.close()
