"""Curated entries' terms kept by core in history.db, read by the worker instead of the tree."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from shelldon.contracts.ops import Remember
from shelldon.core.history.store import HistoryStore, open_readonly
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.retrieval.rank import active_terms
from shelldon.core.retrieval.terms import TermsSync, read_fresh, tree_signature
from shelldon.paths import DataRoot
from shelldon.worker.prompt import gather_context


@pytest.fixture
def root(home: Path) -> DataRoot:
    root = DataRoot.resolve(home)
    root.home.mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture
def store(root: DataRoot) -> HistoryStore:
    opened = HistoryStore.open(root.history_db)
    yield opened  # type: ignore[misc]
    opened.close()


def _remember(memory: CuratedMemory, collection: str, name: str, content: str) -> None:
    memory.apply_memory_op(Remember(collection, name, content), provenance="owner")  # type: ignore[arg-type]


def _fresh(root: DataRoot) -> list[str] | None:
    with open_readonly(root.history_db) as reader:
        terms = reader.entry_terms(root.memory)
    return None if terms is None else [t.id for t in terms]


def test_core_keeps_the_active_entries_terms(root: DataRoot, store: HistoryStore) -> None:
    memory = CuratedMemory(root.memory)
    _remember(memory, "people", "sister", "The owner's sister Ana is passionate about painting.")
    _remember(memory, "facts", "tea", "The owner drinks green tea.")
    sync = TermsSync(memory)
    assert sync.sync(store) == 2
    with store.reading() as conn:
        kept = read_fresh(conn, root.memory)
    assert kept == sorted(active_terms(memory.entries()), key=lambda t: t.id)
    assert kept is not None and "passion" in kept[1].body_terms  # facts/tea, people/sister
    assert sync.sync(store) == 0  # nothing changed: nothing written


def test_a_write_since_the_sync_sends_the_worker_to_the_tree(
    root: DataRoot, store: HistoryStore
) -> None:
    memory = CuratedMemory(root.memory)
    _remember(memory, "facts", "tea", "The owner drinks green tea.")
    sync = TermsSync(memory)
    sync.sync(store)
    assert _fresh(root) == ["facts/tea"]
    _remember(memory, "facts", "cat", "The owner's cat is called Oscar.")
    assert _fresh(root) is None  # the collection's directory moved on
    assert sync.sync(store) == 1  # only the new entry is tokenised
    assert _fresh(root) == ["facts/cat", "facts/tea"]


def test_forgotten_and_hand_edited_entries_follow(root: DataRoot, store: HistoryStore) -> None:
    memory = CuratedMemory(root.memory)
    _remember(memory, "facts", "tea", "The owner drinks green tea.")
    _remember(memory, "facts", "cat", "The owner's cat is called Oscar.")
    sync = TermsSync(memory)
    sync.sync(store)
    memory.forget("facts/tea")
    sync.sync(store)
    assert _fresh(root) == ["facts/cat"]
    # An edit in place keeps the directory's mtime: core's own scan still sees the file change.
    path = root.memory / "facts" / "cat.md"
    path.write_text(path.read_text().replace("Oscar", "Felix"))
    assert sync.sync(store) == 1
    with store.reading() as conn:
        kept = read_fresh(conn, root.memory)
    assert kept is not None and "felix" in kept[0].body_terms


def test_a_new_core_replaces_what_an_older_one_left(root: DataRoot, store: HistoryStore) -> None:
    memory = CuratedMemory(root.memory)
    _remember(memory, "facts", "tea", "The owner drinks green tea.")
    TermsSync(memory).sync(store)
    (root.memory / "facts" / "tea.md").unlink()
    assert TermsSync(CuratedMemory(root.memory)).sync(store) == 1  # the row left behind
    assert _fresh(root) == []


def test_the_worker_ranks_from_the_table(root: DataRoot, store: HistoryStore) -> None:
    memory = CuratedMemory(root.memory)
    _remember(memory, "people", "sister", "The owner's sister is called Ana.")
    TermsSync(memory).sync(store)
    request = gather_context(root, "who is my sister?")
    memory_text = "\n".join(s.text for s in request.sections if s.kind == "memory")
    assert "sister is called Ana" in memory_text
    # What the worker shows comes from the table (core's copy), not from the file.
    with store.writing() as conn:
        conn.execute("UPDATE entry_terms SET body = 'From the table: Ana.'")
    request = gather_context(root, "who is my sister?")
    memory_text = "\n".join(s.text for s in request.sections if s.kind == "memory")
    assert "From the table: Ana." in memory_text


def test_an_older_store_without_the_table_reads_the_tree(root: DataRoot) -> None:
    db = root.history_db
    conn = sqlite3.connect(db)
    conn.close()
    conn = sqlite3.connect(db)
    try:
        assert read_fresh(conn, root.memory) is None
    finally:
        conn.close()


def test_the_signature_names_every_collection(root: DataRoot) -> None:
    CuratedMemory(root.memory)
    before = tree_signature(root.memory)
    assert "facts:" in before and "people:" in before
    assert tree_signature(root.memory) == before
