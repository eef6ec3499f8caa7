"""gather_context / read_context against a real history.db and a real memory tree; fail-soft."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.contracts.ops import Remember
from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.reader import MemoryReader
from shelldon.paths import DataRoot
from shelldon.worker.prompt import (
    MemorySelection,
    PromptLimits,
    gather_context,
    read_context,
)

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


@pytest.fixture
def root(home: Path) -> DataRoot:
    return DataRoot.resolve(home)


def _talk(root: DataRoot, *turns: tuple[str, str]) -> None:
    root.home.mkdir(parents=True, exist_ok=True)
    store = HistoryStore.open(root.history_db)
    try:
        for i, (owner, pet) in enumerate(turns):
            store.record_turn(f"t{i}", owner, pet, T0 + timedelta(minutes=i))
    finally:
        store.close()


def _kinds(request: object) -> list[str]:
    return [s.kind for s in request.sections]  # type: ignore[attr-defined]


def _text(request: object, kind: str) -> str:
    return "\n".join(s.text for s in request.sections if s.kind == kind)  # type: ignore[attr-defined]


def _populate(root: DataRoot) -> None:
    memory = CuratedMemory(root.memory)
    (root.memory / "DIRECTIVE.md").write_text("Be kind and brief.\n")
    (root.memory / "about.md").write_text("I am shelldon, a pocket pet.\n")
    (root.memory / "summary.md").write_text("We talked about the garden.\n")
    memory.apply_memory_op(
        Remember("people", "sister", "The owner's sister is called Ana."), provenance="owner"
    )
    _talk(
        root,
        ("my sister is called Ana", "Nice, I'll remember."),
        ("I went to the market", "Sounds fun."),
        ("the tomatoes are ripe", "Lovely."),
    )


def test_every_part_in_the_binding_order(root: DataRoot) -> None:
    _populate(root)
    request = gather_context(root, "what's my sister called?", limits=PromptLimits(recent_window=2))
    assert _kinds(request) == [
        "system", "directive", "about", "summary", "memory", "recent", "recall", "time", "message"
    ]  # fmt: skip
    assert "Be kind and brief." in _text(request, "directive")
    assert "The owner's sister is called Ana." in _text(request, "memory")
    assert _text(request, "recent").splitlines()[1:] == [
        "owner: the tomatoes are ripe",
        "pet: Lovely.",
    ]
    assert "owner (2026-11-29 09:00): my sister is called Ana" in _text(request, "recall")
    assert request.sections[-1].text.endswith("what's my sister called?")


def test_recall_never_repeats_a_row_of_the_window(root: DataRoot) -> None:
    _talk(root, ("my sister is called Ana", "ok"), ("my sister is called Ana", "ok"))
    ctx = read_context(root, "sister Ana", limits=PromptLimits(recent_window=2))
    window_ids = {r.id for r in ctx.recent}
    request = gather_context(root, "sister Ana", limits=PromptLimits(recent_window=2))
    recall_lines = _text(request, "recall").splitlines()[1:]
    # The newest "my sister…" row is in the window; the older one, same words, is recalled once
    # (its reply may follow it: recall returns a match's neighbour too, core/history/recall.py).
    assert len(window_ids) == 2
    assert [line.endswith("my sister is called Ana") for line in recall_lines][:1] == [True]
    assert sum(line.endswith("my sister is called Ana") for line in recall_lines) == 1


def test_recall_finds_a_row_core_has_not_batched_into_the_index_yet(root: DataRoot) -> None:
    """Core indexes history in batches after the reply (core/history/recall.py): the newest rows are
    not in the stem index while core runs, and recall still finds them, even with no recent
    window."""
    root.home.mkdir(parents=True, exist_ok=True)
    store = HistoryStore.open(root.history_db)  # core's handle, open as while the pet runs
    try:
        for i in range(recall.STEM_BATCH_ROWS // 2):
            store.record_turn(f"t{i}", f"the garden is green {i}", "nice", T0)
        store.index_history()
        store.record_turn("late", "my quokka is called Pip", "a quokka!", T0 + timedelta(hours=1))
        assert recall.unindexed_rows(store._conn) == 2
        ctx = read_context(root, "what's my quokka called?", limits=PromptLimits(recent_window=0))
        assert [r.content for r in ctx.recall][:2] == ["my quokka is called Pip", "a quokka!"]
    finally:
        store.close()


def test_a_fresh_root_gives_the_system_instruction_and_the_message(root: DataRoot) -> None:
    request = gather_context(root, "hello")
    assert _kinds(request) == ["system", "time", "message"]
    assert (
        not root.home.exists() or not (root.memory / "facts").exists()
    )  # the worker creates nothing


def test_a_directory_where_a_file_should_be_is_left_out(root: DataRoot) -> None:
    _populate(root)
    (root.memory / "about.md").unlink()
    (root.memory / "about.md").mkdir()
    (root.memory / "summary.md").unlink()
    (root.memory / "summary.md").mkdir()
    request = gather_context(root, "hi")
    assert "about" not in _kinds(request) and "summary" not in _kinds(request)
    assert "directive" in _kinds(request) and "recent" in _kinds(request)


def test_an_unreadable_history_is_left_out_and_noted(root: DataRoot) -> None:
    _populate(root)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{root.history_db}{suffix}").unlink(missing_ok=True)
    root.history_db.mkdir()  # a directory where the database should be
    ctx = read_context(root, "sister")
    assert ctx.recent == () and ctx.recall == ()
    assert any(note.startswith("history.db") for note in ctx.notes)
    assert ctx.directive is not None and ctx.memory is not None


def test_a_corrupt_history_is_left_out(root: DataRoot) -> None:
    _populate(root)
    for suffix in ("-wal", "-shm"):
        Path(f"{root.history_db}{suffix}").unlink(missing_ok=True)
    root.history_db.write_bytes(b"this is not a database" * 100)
    request = gather_context(root, "sister")
    assert "recent" not in _kinds(request) and "recall" not in _kinds(request)
    assert "memory" in _kinds(request)


def test_a_retrieval_failure_leaves_the_memory_out(root: DataRoot) -> None:
    _populate(root)

    def broken(memory: MemoryReader, message: str, base: Path) -> MemorySelection:
        raise RuntimeError("ranker exploded")

    ctx = read_context(root, "sister", select_memory=broken)
    assert ctx.memory is None
    assert any("curated entries" in note for note in ctx.notes)
    assert ctx.recent  # the rest is still there


def test_an_entry_with_broken_front_matter_is_still_read(root: DataRoot) -> None:
    CuratedMemory(root.memory)
    (root.memory / "facts" / "odd.md").write_text(
        "---\nthis is: [not closed\n---\nThe owner keeps bees.\n"
    )
    request = gather_context(root, "do I keep bees?")
    assert "The owner keeps bees." in _text(request, "memory")


def test_hostile_query_punctuation_does_not_break_recall(root: DataRoot) -> None:
    _populate(root)
    request = gather_context(root, 'sister" OR NEAR( * ) AND -- ;DROP TABLE messages')
    assert "my sister is called Ana" in _text(request, "recall") + _text(request, "recent")


def test_the_worker_reads_without_writing(root: DataRoot) -> None:
    _populate(root)
    before = {p: p.stat().st_mtime_ns for p in root.memory.rglob("*") if p.is_file()}
    gather_context(root, "sister")
    after = {p: p.stat().st_mtime_ns for p in root.memory.rglob("*") if p.is_file()}
    assert before == after


def test_limits_come_from_shelldon_toml_then_the_environment(
    root: DataRoot, monkeypatch: pytest.MonkeyPatch
) -> None:
    root.home.mkdir(parents=True, exist_ok=True)
    root.config.write_text("[prompt]\nrecent_window = 3\nmax_row_chars = 150\nrecall_k = 999\n")
    limits = PromptLimits.for_root(root, environ={})
    assert (limits.recent_window, limits.max_row_chars, limits.recall_k) == (3, 150, 50)
    assert PromptLimits.for_root(root, environ={"SHELLDON_RECENT_WINDOW": "1"}).recent_window == 1
    monkeypatch.setenv("SHELLDON_RECENT_WINDOW", "2")
    _talk(root, *((f"message {i}", f"reply {i}") for i in range(4)))
    request = gather_context(root, "hi")
    assert _text(request, "recent").splitlines()[1:] == ["owner: message 3", "pet: reply 3"]


def test_a_broken_shelldon_toml_leaves_the_defaults(root: DataRoot) -> None:
    root.home.mkdir(parents=True, exist_ok=True)
    root.config.write_text("[prompt\nthis is not toml")
    assert PromptLimits.for_root(root, environ={}) == PromptLimits()


def test_limits_read_before_the_drop_are_used_when_the_file_cannot_be_read(
    root: DataRoot,
) -> None:
    from shelldon.worker import prompt

    root.home.mkdir(parents=True, exist_ok=True)
    root.config.write_text("[prompt]\nrecent_window = 4\n")
    try:
        assert prompt.warm(root).recent_window == 4
        root.config.unlink()
        root.config.mkdir()  # what a dropped worker meets: a config it cannot read
        assert PromptLimits.for_root(root, environ={}).recent_window == 4
    finally:
        prompt._CONFIGURED.clear()
    assert PromptLimits.for_root(root, environ={}) == PromptLimits()


def test_cores_clock_line_is_shown_as_sent_and_the_zone_is_not_read(root: DataRoot) -> None:
    """With core's line (wire.SpawnTurn.clock_line) the worker shows it as it is: the zone
    stored in history.db is not read (here it says otherwise, and the line wins)."""
    _talk(root, ("hi", "hello!"))
    store = HistoryStore.open(root.history_db)
    try:
        store.set_setting("timezone", "Asia/Tokyo", T0)
    finally:
        store.close()
    line = "Sunday 2026-11-29 09:00, time zone Europe/Lisbon (UTC+00:00)"
    sent = read_context(root, "what time is it?", now=T0, clock_line=line)
    assert sent.zone == "" and sent.clock_line == line
    assert _text(gather_context(root, "what time is it?", now=T0, clock_line=line), "time") == (
        f"# Now\n{line}"
    )
    made = _text(gather_context(root, "what time is it?", now=T0), "time")
    assert made.endswith("time zone Asia/Tokyo (UTC+09:00)"), made
