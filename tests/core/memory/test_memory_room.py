"""A full collection makes room instead of refusing (core.memory.room), with real files through the
real write path: consolidation, retirement to the archive, routing, the owner's entries spared,
undo, and the archive still reached by `memory list --all`, the archive search and the prompt."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shelldon.contracts.ops import Remember
from shelldon.core.gate import Limits
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.archive import index_path, search_archive
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import layout
from shelldon.paths import DataRoot
from shelldon.worker.prompt import ARCHIVE_LINE, gather_context
from support.cli import memory_cli as _cli
from support.clock import TickingClock

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)
UNRELATED = [
    ("bike", "The owner rides a red bicycle to work."),
    ("chess", "The owner plays chess at the club on Sundays."),
    ("garden", "Tomatoes grow on the balcony every summer."),
]


def small(root: Path, cap: int = 3) -> CuratedMemory:
    return CuratedMemory(root, clock=TickingClock(NOW), limits=Limits(collection_cap=cap))


def fill(mem: CuratedMemory, provenance: str = "inferred") -> None:
    for name, text in UNRELATED:
        done = mem.apply_memory_op(
            Remember("facts", name, text),
            provenance=provenance,  # type: ignore[arg-type]
            turn_id="t0",
        )
        assert done.action == "create"


def active(mem: CuratedMemory, collection: str = "facts") -> list[str]:
    return [e.stem for e in mem.entries() if e.collection == collection]


def audit(root: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (root / "history.jsonl").read_text().splitlines()]


def test_a_full_collection_takes_a_related_fact_by_consolidating(home: Path) -> None:
    mem = small(home / "memory")
    fill(mem)
    done = mem.apply_memory_op(
        Remember("facts", "chess rating", "The owner plays chess online in the evenings too."),
        turn_id="t1",
    )
    assert (done.action, done.reason_code) == ("update", "consolidated")
    assert done.target == home / "memory" / "facts" / "chess.md"
    body = parse_entry(done.target.read_text()).body
    assert "club on Sundays" in body and "online in the evenings" in body
    assert sorted(active(mem)) == ["bike", "chess", "garden"]  # the cap holds
    assert mem.archived_entries() == []


def test_a_full_collection_retires_the_stalest_inference_to_the_archive(home: Path) -> None:
    root = home / "memory"
    mem = small(root)
    fill(mem)
    # The chess fact comes up again: confirmed, so it is not the one that goes.
    mem.apply_memory_op(Remember("facts", "chess", UNRELATED[1][1]), turn_id="t1")
    done = mem.apply_memory_op(
        Remember("facts", "violin", "Melanie practises the violin before breakfast."),
        turn_id="t2",
    )
    assert (done.action, done.reason_code) == ("create", "created")
    assert sorted(active(mem)) == ["chess", "garden", "violin"]
    (retired,) = mem.archived_entries()
    assert (retired.stem, retired.meta.status) == ("bike", "retired")
    assert not (root / "facts" / "bike.md").exists()
    assert (root / "archive" / "facts" / "bike.md").is_file()
    lines = audit(root)
    assert [(r["op"], r["reason_code"]) for r in lines[-2:]] == [
        ("retire", "retired"),
        ("remember", "created"),
    ]
    # Still found: by the archive search, by the index, by `memory list --all` (and only then).
    (hit,) = search_archive(root, "Does the owner ride a bicycle?", 2)
    assert hit.name == "facts/bike" and "red bicycle" in hit.body
    listed = _cli(home, "list", "--all")
    assert "archive/facts/bike\tinferred" in listed.stdout
    assert "(retired to the archive)" in listed.stdout
    assert "archive/facts/bike" not in _cli(home, "list").stdout


def test_the_owners_entries_are_never_retired(home: Path) -> None:
    root = home / "memory"
    mem = small(root)
    fill(mem, provenance="owner")
    done = mem.apply_memory_op(
        Remember("facts", "violin", "Melanie practises the violin before breakfast."),
        turn_id="t1",
    )
    # Nothing could go: the new fact itself is kept in the archive, never dropped.
    assert (done.action, done.reason_code) == ("create", "archived")
    assert "collection_full" in done.flags
    assert sorted(active(mem)) == ["bike", "chess", "garden"]
    assert all(e.meta.provenance == "owner" for e in mem.entries())
    assert (root / "archive" / "facts" / "violin.md").is_file()
    (hit,) = search_archive(root, "who plays the violin?", 2)
    assert "before breakfast" in hit.body


def test_undo_of_a_retirement_brings_the_entry_back(home: Path) -> None:
    root = home / "memory"
    mem = small(root)
    fill(mem)
    mem.apply_memory_op(
        Remember("facts", "violin", "Melanie practises the violin before breakfast."),
        turn_id="t1",
    )
    retire = next(r for r in audit(root) if r["op"] == "retire")
    mem.undo_change(str(retire["id"]))
    assert (root / "facts" / "bike.md").is_file()
    assert not (root / "archive" / "facts" / "bike.md").exists()
    assert parse_entry((root / "facts" / "bike.md").read_text()).meta.status == "active"
    assert search_archive(root, "Does the owner ride a bicycle?", 2) == []


def test_a_person_fact_is_routed_to_people_when_facts_is_full(home: Path) -> None:
    root = home / "memory"
    mem = small(root)
    fill(mem)
    done = mem.apply_memory_op(
        Remember("facts", "ana", "Ana is the owner's sister and lives in Lisbon."), turn_id="t1"
    )
    assert done.action == "create"
    assert done.target == root / "people" / "ana.md"
    assert sorted(active(mem)) == ["bike", "chess", "garden"]  # nothing retired
    assert active(mem, "people") == ["ana"]
    liking = mem.apply_memory_op(
        Remember("facts", "tea", "The owner loves jasmine tea after dinner."), turn_id="t2"
    )
    assert liking.target == root / "preferences" / "tea.md"


def test_superseded_entries_leave_the_hot_path_and_forget_revives_them(home: Path) -> None:
    from shelldon.core.learning.rules import capture_owner_rules

    root = home / "memory"
    mem = small(root, cap=40)
    capture_owner_rules(mem, "Call me Sam.", turn_id="t1")
    capture_owner_rules(mem, "Call me Alex.", turn_id="t2")
    assert [e.stem for e in mem.entries()] == ["call-me-alex"]
    assert [e.stem for e in mem.archived_entries()] == ["call-me-sam"]
    mem.forget("preferences/call-me-alex")
    assert [e.stem for e in mem.entries()] == ["call-me-sam"]
    assert mem.entries()[0].meta.status == "active"
    assert mem.archived_entries() == []


def test_a_retired_entry_reaches_the_prompt_only_when_it_matches(home: Path) -> None:
    root = DataRoot.resolve(home)
    mem = small(root.memory)
    fill(mem)
    mem.apply_memory_op(
        Remember("facts", "violin", "Melanie practises the violin before breakfast."),
        turn_id="t1",
    )
    store = HistoryStore.open(root.history_db)
    store.record_turn("t1", "hello", "hi", NOW)
    store.close()
    asked = gather_context(root, "What colour is the bicycle I ride?", now=NOW)
    memory = next(s.text for s in asked.sections if s.kind == "memory")
    assert ARCHIVE_LINE in memory and "red bicycle" in memory
    other = gather_context(root, "What do I grow on the balcony?", now=NOW)
    memory = next(s.text for s in other.sections if s.kind == "memory")
    assert ARCHIVE_LINE not in memory
    # The archive's search index is the readers' group's, like the rest of the tree.
    assert index_path(root.memory).exists()
    assert [p for p in layout.open_to_others(root) if root.memory in p.parents] == []


def test_names_from_memory_reach_history_recall(home: Path) -> None:
    root = DataRoot.resolve(home)
    mem = CuratedMemory(root.memory)
    mem.apply_memory_op(
        Remember("people", "ana", "Ana is my sister and lives in Lisbon."), provenance="owner"
    )
    store = HistoryStore.open(root.history_db)
    store.record_turn("t1", "Ana phoned about the lighthouse trip", "How exciting!", NOW)
    for i in range(20):
        store.record_turn(f"f{i}", f"filler message number {i}", "ok", NOW + timedelta(minutes=i))
    store.close()
    asked = gather_context(root, "what did my sister say?", now=NOW + timedelta(days=1))
    recall = next(s.text for s in asked.sections if s.kind == "recall")
    assert "lighthouse trip" in recall


def test_routing_reads_relations_and_likings_and_nothing_else() -> None:
    from shelldon.core.memory.room import route

    assert route("facts", "Melanie's kids love the beach.") == "people"
    assert route("facts", "Caroline's favourite book is Becoming Nicole.") == "preferences"
    assert route("facts", "Jon moved into a new studio downtown.") == "facts"
    assert route("facts", "The owner works as a personal trainer.") == "facts"
    assert route("capabilities", "The owner's sister can drive.") == "capabilities"


def test_names_are_linked_both_ways_and_bounded() -> None:
    from shelldon.core.memory.entry import Entry, EntryMeta
    from shelldon.core.retrieval.names import MAX_ADDED, expand_query

    entries = [
        Entry(EntryMeta(title="Ana"), "Ana is my sister and lives in Lisbon.", "ana", "people"),
        Entry(EntryMeta(title="Rex"), "The owner has a dog named Rex.", "rex", "people"),
        Entry(EntryMeta(title="old", status="superseded"), "My brother Tom.", "tom", "people"),
    ]
    assert expand_query("what did my sister say?", entries) == "what did my sister say? Ana"
    assert expand_query("How is Rex?", entries) == "How is Rex? dog"
    assert expand_query("and my brother?", entries) == "and my brother?"  # superseded: unused
    assert expand_query("the weather", entries) == "the weather"
    many = [
        Entry(EntryMeta(), f"My friend {name} plays chess.", name.lower(), "people")
        for name in ("Ann", "Ben", "Cal", "Dot", "Eve", "Fay")
    ]
    added = expand_query("my friend", many).split()[2:]
    assert len(added) == MAX_ADDED


def _related(stem: str, body: str) -> object:
    from shelldon.core.memory.entry import Entry, EntryMeta

    meta = EntryMeta(title=stem, collection="people", provenance="inferred")
    return Entry(meta, body, stem=stem, collection="people")


def test_consolidation_takes_the_most_related_then_the_alphabetically_first_stem() -> None:
    from shelldon.core.memory.room import consolidation_target

    body = "My cousin Ana likes sailing on the lake."
    same = "My cousin Ana likes sailing on the lake in June."
    pool = [_related(s, same) for s in ("cousin-anab", "cousin-ana", "cousin-anaa")]
    pool.append(_related("aardvark", "My cousin Ana sails."))  # related, less so
    chosen = consolidation_target(body, "inferred", pool, "people")  # type: ignore[arg-type]
    assert chosen is not None and chosen.stem == "cousin-ana"  # a prefix is first, as sorted


# A fresh process (the free lists are the process's), its cyclic collector off so nothing
# clears them mid-count: choosing among related entries 600 times must leave no object behind.
# A key built as tuple(<generator>) per candidate left each one on the free list of its size
# (CPython reuses those only for a tuple made at that size): thousands of blocks.
_CHOOSING = """
import gc, sys
from shelldon.core.memory.entry import Entry, EntryMeta
from shelldon.core.memory.room import consolidation_target

same = "My cousin Ana likes sailing on the lake in June."
meta = EntryMeta(title="t", collection="people")
pool = [
    Entry(meta, same, stem=f"cousin-{'a' * n}-{i}", collection="people")
    for n in range(6, 13)
    for i in range(6)
]
body = "My cousin Ana likes sailing on the lake."
gc.collect()
gc.disable()
consolidation_target(body, "inferred", pool, "people")
before = sys.getallocatedblocks()
for _ in range(600):
    consolidation_target(body, "inferred", pool, "people")
print(sys.getallocatedblocks() - before)
"""


def test_choosing_a_consolidation_target_leaves_no_objects_behind() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _CHOOSING], capture_output=True, text=True, check=True
    ).stdout
    assert int(out) < 200, out
