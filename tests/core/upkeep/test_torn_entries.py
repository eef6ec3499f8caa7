"""Torn entry files found at core's start (core.upkeep.torn_entries): set aside with their bytes,
recovered from the audit log's last good version where it holds one, and said.

Real files in a real tree written by CuratedMemory; the recovery core runs at start; and the real
pet, whose next reply and `status` say what was set aside.
"""

from __future__ import annotations

import json
from pathlib import Path

from shelldon.contracts.ops import Remember
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.upkeep import recovery
from shelldon.core.upkeep.torn_entries import torn_reason
from shelldon.paths import DataRoot
from support.pet import start_pet


def _owner_entry(root: DataRoot, name: str, content: str) -> Path:
    memory = CuratedMemory(root.memory)
    applied = memory.apply_memory_op(
        Remember(collection="facts", name=name, content=content), provenance="owner"
    )
    assert applied.action != "reject", applied
    path = next((root.memory / "facts").glob("*.md"))
    assert parse_entry(path.read_text()).meta.provenance == "owner"
    return path


def _audit(root: DataRoot) -> list[dict[str, object]]:
    lines = (root.memory / "history.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_what_counts_as_torn() -> None:
    whole = "---\ntitle: Tea\nformat: 2\n---\nGreen tea.\n"
    assert torn_reason(whole.encode()) is None
    assert torn_reason(b"a note written by hand, no front matter") is None
    assert torn_reason(b"") == "0 bytes"
    assert torn_reason(b"\xff\xfe---") == "not UTF-8"
    assert torn_reason(whole[:20].encode()) == "its front matter is cut or unreadable"
    assert torn_reason(whole[:-4].encode()) == f"cut short at {len(whole) - 4} bytes"


def test_a_torn_owner_entry_is_set_aside_and_its_last_good_version_put_back(home: Path) -> None:
    root = DataRoot.resolve(str(home))
    path = _owner_entry(root, "tea", "My favourite tea is genmaicha.")
    good = path.read_bytes()
    memory = CuratedMemory(root.memory)
    # Forget, then undo: the log now holds this version's bytes (the forget kept them).
    forgot = memory.forget(path.stem)
    memory.undo_change(forgot.id)
    assert path.read_bytes() == good
    torn = good[: len(good) // 2]
    path.write_bytes(torn)  # half an entry, as a power cut before the data reached the card

    done = recovery.recover(root)

    assert path.read_bytes() == good  # the owner entry, owner provenance and all
    assert parse_entry(path.read_text()).meta.provenance == "owner"
    [settled] = done.torn_entries
    assert settled.recovered_from is not None
    assert settled.kept_at.read_bytes() == torn  # the torn bytes, as found
    assert settled.kept_at.is_relative_to(root.quarantine)
    last = _audit(root)[-1]
    assert (last["op"], last["reason_code"], last["target"]) == (
        "repair",
        "torn_entry",
        "facts/" + path.name,
    )
    assert "last good version" in settled.sentence()
    assert recovery.recover(root).torn_entries == []  # settled once, not at every start


def test_a_torn_entry_with_no_good_version_kept_is_set_aside_not_read_with_defaults(
    home: Path,
) -> None:
    root = DataRoot.resolve(str(home))
    path = _owner_entry(root, "bike", "My bike is green.")
    path.write_bytes(b"")  # a 0-byte entry

    done = recovery.recover(root)

    assert not path.exists()  # no defaulted, inferred stand-in for the owner's entry
    [settled] = done.torn_entries
    assert settled.recovered_from is None and settled.kept_at.read_bytes() == b""
    assert "tell me again" in settled.sentence()
    assert CuratedMemory(root.memory).entries() == []


def test_the_pet_says_what_it_set_aside_in_the_next_reply_and_in_status(
    home: Path, run_dir: Path
) -> None:
    root = DataRoot.resolve(str(home))
    path = _owner_entry(root, "kite", "My kite is yellow.")
    path.write_bytes(path.read_bytes()[:25])
    pet = start_pet()
    try:
        reply = pet.say("hello")
        assert f"the memory file facts/{path.name} was torn" in reply, reply
        assert "was torn" not in pet.say("and now?")  # told once
        status = pet.cli("status")
        assert f"storage: store changed: the memory file facts/{path.name}" in status.stdout
    finally:
        assert pet.stop() == 0, pet.log[-3000:]
    assert f"recovery: facts/{path.name}" in pet.log
    assert list(root.quarantine.rglob(path.name))
