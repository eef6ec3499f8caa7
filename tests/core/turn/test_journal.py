"""The turn journal on real stores: recorded before the reply, applied after, replayed once."""

from __future__ import annotations

import collections
import json
import signal
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from shelldon.contracts import wire
from shelldon.core.history.store import HistoryStore, open_readonly
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import layout
from shelldon.core.turn import apply as turns
from shelldon.core.turn import journal
from shelldon.paths import DataRoot
from support import journal_child

ITEMS = 5  # the owner's rule, then the child's four ops
API_KEY = journal_child.API_KEY
SISTER = "The owner's sister is called Ana."


@pytest.fixture
def root(home: Path) -> DataRoot:
    root = DataRoot.resolve(home)
    layout.prepare(root)
    return root


def _audit(root: DataRoot) -> list[dict[str, Any]]:
    path = root.memory / "history.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _journal_rows(root: DataRoot) -> list[tuple[int, str]]:
    conn = sqlite3.connect(root.history_db)
    try:
        return [(int(i), str(t)) for i, t in conn.execute("SELECT id, items FROM turn_journal")]
    finally:
        conn.close()


def _files(root: DataRoot) -> dict[str, bytes]:
    return {
        str(p.relative_to(root.memory)): p.read_bytes()
        for p in sorted(root.memory.rglob("*"))
        if p.is_file() and not p.name.startswith(".") and ".undo" not in p.parts
    }


def _crash(root: DataRoot, point: str) -> None:
    done = journal_child.run(root.home, point)
    assert done.returncode == -signal.SIGKILL, done.stderr


def _start(root: DataRoot, *, after_boot: bool = False) -> int:
    """What core does with the stores at start, before it serves anyone."""
    history = HistoryStore.open(root.history_db)
    try:
        return turns.replay_journal(history, CuratedMemory(root.memory), after_boot=after_boot)
    finally:
        history.close()


def _assert_the_turn_applied_once(root: DataRoot, *, twice: frozenset[int] = frozenset()) -> None:
    reader = open_readonly(root.history_db)
    assert [r["content"] for r in reader.recent(10)] == [journal_child.MESSAGE, "Noted, Ana!"]
    reader.close()
    files = _files(root)
    assert "people/sister.md" in files
    assert [f for f in files if f.startswith("preferences/")] != []  # the owner's rule
    assert "facts/key.md" not in files  # a secret: refused live and on replay alike
    episodes = files["episodes.md"].decode()
    assert episodes.count("## ") == 1 and "[secret:" in episodes and API_KEY not in episodes
    store = HistoryStore.open(root.history_db)
    [learning] = store.pending_learnings()
    store.close()
    assert learning["recurrence_count"] == 1
    ids = collections.Counter(r["journal"] for r in _audit(root) if "journal" in r)
    # Every item once (`twice`: applied again after a power cut, so audited twice).
    assert ids == {journal.item_id(1, n): 1 + (n in twice) for n in range(ITEMS)}
    assert _journal_rows(root) == []
    assert API_KEY not in (root.memory / "history.jsonl").read_text()


@pytest.mark.parametrize(
    ("point", "left"), [("reply", ITEMS), ("first-item", ITEMS - 1), ("clear", 0)]
)
def test_a_turn_killed_after_its_reply_is_applied_once_at_the_next_starts(
    root: DataRoot, point: str, left: int
) -> None:
    _crash(root, point)
    [(journal_id, items)] = _journal_rows(root)
    assert journal_id == 1
    assert API_KEY not in items and "[secret:" in items  # the journal is a blanked record
    assert _start(root) == left
    _assert_the_turn_applied_once(root)
    files, audit = _files(root), _audit(root)
    assert _start(root) == 0  # a second start: nothing left, nothing applied twice
    assert (_files(root), _audit(root)) == (files, audit)


@pytest.mark.parametrize("lost", ["create", "data"])
def test_after_a_power_cut_an_item_whose_line_outlived_its_file_is_applied_again(
    root: DataRoot, lost: str
) -> None:
    """The items' writes are synced once, at the end (core.storage.durability). A power cut before
    that may keep an audit line and lose the file it names: made here by hand on a turn killed
    before its row was cleared. After a reboot the replay checks each item's files against its
    lines."""
    _crash(root, "clear")
    lines = _audit(root)
    sister = next(r for r in lines if r.get("target") == "people/sister.md")
    episodes = next(r for r in lines if r.get("target") == "episodes.md")
    entry = root.memory / "people" / "sister.md"
    if lost == "create":  # the file's creation did not reach the card
        entry.unlink()
    else:  # its name did, its data did not
        entry.write_bytes(b"")
    (root.memory / "episodes.md").write_bytes(b"")  # the rename did, its data did not
    assert _start(root, after_boot=True) == 2
    positions = {int(r["journal"].split(".")[1]) for r in (sister, episodes)}
    _assert_the_turn_applied_once(root, twice=frozenset(positions))
    assert (root.memory / "people" / "sister.md").read_text().rstrip().endswith(SISTER)
    assert _start(root, after_boot=True) == 0


def test_after_a_restart_in_the_same_boot_the_audit_lines_are_trusted(root: DataRoot) -> None:
    """A killed core's writes are all in the kernel's cache: no file is checked, none rewritten
    (the file removed by hand here stays removed, which only a reboot could explain)."""
    _crash(root, "clear")
    (root.memory / "people" / "sister.md").unlink()
    assert _start(root) == 0
    assert not (root.memory / "people" / "sister.md").exists()


def test_a_turn_that_runs_to_the_end_leaves_the_same_and_no_journal(root: DataRoot) -> None:
    done = journal_child.run(root.home, "none")
    assert done.returncode == 0, done.stderr
    _assert_the_turn_applied_once(root)
    assert _start(root) == 0


def test_the_turn_is_in_history_when_the_reply_goes_out(root: DataRoot) -> None:
    memory = CuratedMemory(root.memory)
    history = HistoryStore.open(root.history_db)
    seen: list[Any] = []

    def emit(text: str, degraded: bool) -> None:
        # Another connection, as a `shelldon status` or a worker would read it.
        reader = open_readonly(root.history_db)
        seen.append([r["content"] for r in reader.recent(10)])
        reader.close()
        seen.append(_journal_rows(root))
        seen.append(_files(root))

    op = {"op": "remember", "collection": "people", "name": "sister", "content": SISTER}
    outcome = wire.TurnResult(turn_id="t1", reply="Noted.", ops=(op,))
    turns.apply_turn(
        root=root,
        history=history,
        memory=memory,
        turn_id="t1",
        purpose="turn",
        message="my sister is Ana",
        outcome=outcome,
        emit=emit,
    )
    rows, pending, files = seen
    assert rows == ["my sister is Ana", "Noted."]
    assert [journal_id for journal_id, _ in pending] == [1]  # the op, still to apply
    assert "people/sister.md" not in files  # the gate and the writes come after the reply
    assert _journal_rows(root) == [] and "people/sister.md" in _files(root)
    history.close()


def test_the_journal_commit_is_durable_and_the_store_goes_back_to_normal(root: DataRoot) -> None:
    history = HistoryStore.open(root.history_db)
    history.journal_turn("t1", "hi", "hello", datetime.now(UTC), items="[]")
    # 1 = NORMAL: only the journal's own commit runs with FULL.
    assert history._conn.execute("PRAGMA synchronous").fetchone()[0] == 1
    history.close()


def test_a_full_disk_is_said_in_the_reply_and_nothing_is_applied(root: DataRoot) -> None:
    memory = CuratedMemory(root.memory)
    history = HistoryStore.open(root.history_db)
    # sqlite's own "database or disk is full" (SQLITE_FULL): the file may not grow any more.
    pages = history._conn.execute("PRAGMA page_count").fetchone()[0]
    history._conn.execute(f"PRAGMA max_page_count = {pages}")
    before = _files(root)
    replies: list[str] = []
    op = {"op": "remember", "collection": "people", "name": "sister", "content": SISTER}
    message = "Always answer in French. " + "my sister is called Ana. " * 4000
    result = turns.apply_turn(
        root=root,
        history=history,
        memory=memory,
        turn_id="t1",
        purpose="turn",
        message=message,
        outcome=wire.TurnResult(turn_id="t1", reply="I'll remember that.", ops=(op,)),
        emit=lambda text, degraded: replies.append(text),
    )
    assert replies == [f"I'll remember that.\n({turns.NOT_SAVED_TEXT})"]
    assert result.recorded is False
    assert _files(root) == before and history.recent(5) == []
    history._conn.execute("PRAGMA max_page_count = 1073741823")
    history.close()


def test_a_damaged_journal_row_is_logged_and_dropped(
    root: DataRoot, caplog: pytest.LogCaptureFixture
) -> None:
    history = HistoryStore.open(root.history_db)
    history.journal_turn("t1", "hi", "hello", datetime.now(UTC), items="[{oops")
    history.close()
    assert _start(root) == 0
    assert "is damaged, dropped" in caplog.text
    assert _journal_rows(root) == []


def test_items_keep_their_order_and_their_blanks() -> None:
    from shelldon.core.owner_rules import extract_rules

    items = journal.plan(
        extract_rules("Never say my pin 4242-4242-4242-4242."),
        [{"op": "log_episode", "content": f"pasted {API_KEY}"}, {"op": "remember"}],
    )
    kept = journal.decode(journal.encode(items))
    assert [type(i).__name__ for i in kept] == ["RuleItem", "OpItem", "OpItem"]
    assert API_KEY not in journal.encode(items)
    episode, bare = kept[1], kept[2]
    assert isinstance(episode, journal.OpItem) and episode.blanked
    assert journal.replay_refusal(episode) is None  # an episode is a record: kept blanked
    assert not bare.blanked and journal.replay_refusal(bare) is None
