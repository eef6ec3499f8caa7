"""What the owner types, end to end: terminal controls never stored nor printed raw, one message
limit enforced by the client before sending and by core again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.text import MAX_MESSAGE_BYTES
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from support.files import file_contents
from support.pet import Pet

CONTROLS = [chr(c) for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))]


def raw_controls(text: str) -> list[str]:
    return sorted({repr(ch) for ch in text if ch in CONTROLS})


def owner_messages(pet: Pet) -> list[str]:
    store = HistoryStore.open(pet.root.history_db)
    try:
        return [row["content"] for row in store.recent(50) if row["role"] == "owner"]
    finally:
        store.close()


def every_stored_text(home: Path) -> str:
    """The memory tree's files and every history row, as text."""
    tree = "".join(data.decode(errors="replace") for _, data in file_contents(home / "memory"))
    store = HistoryStore.open(home / "history.db")
    try:
        rows = "\n".join(row["content"] for row in store.recent(200))
    finally:
        store.close()
    return tree + rows


def test_escape_sequences_typed_by_the_owner_are_never_stored(pet: Pet) -> None:
    """'call me \\e[5mBlinky' became an owner rule, blinking, before the fix."""
    said = pet.cli("say", "call me \x1b[5mBlinky\x1b[0m")
    assert said.returncode == 0, said.stderr
    # The reply goes out before the rule is written; the next turn waits for it (one at a time).
    assert pet.cli("say", "thanks").returncode == 0
    assert owner_messages(pet) == ["call me Blinky", "thanks"]
    rules = [e for e in CuratedMemory(pet.root.memory).entries() if "Blinky" in e.body]
    assert rules, "the owner's rule was not captured"
    assert "\x1b" not in every_stored_text(pet.root.home)


def test_core_strips_controls_whatever_transport_brought_the_message(pet: Pet) -> None:
    """A transport that forgot its edge (a raw Say on core's socket): core cleans it anyway."""
    answer = ipc.request(
        pet.root.socket("core"),
        wire.Say(text="\x1b]0;owned\x07my cat is called \x9b5mZed\x07\x00"),
        timeout=60,
    )
    assert isinstance(answer, wire.Reply), answer
    pet.settled()  # what the turn writes to the tree comes after the reply
    assert owner_messages(pet) == ["my cat is called Zed"]
    assert raw_controls(every_stored_text(pet.root.home)) == []


def shelldon_memory(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "memory", *args, "--home", str(home)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_nothing_stored_is_printed_raw(home: Path) -> None:
    """An entry written by hand (or by an older version) with escapes in it: list, show and log
    print it through the sanitiser."""
    memory = CuratedMemory(home / "memory")
    from shelldon.contracts.ops import Remember

    memory.apply_memory_op(
        Remember(collection="people", name="ana", content="Ana is the owner's sister."),
        provenance="owner",
        unit="cli-test",
    )
    path = home / "memory" / "people" / "ana.md"
    path.write_text(
        path.read_text().replace("title: Ana", "title: \x1b[5mAna\x1b]0;pwn\x07\x9b2J")
        + "Lives in \x1b[31mLisbon\x1b[0m.\n"
    )
    with (home / "memory" / "history.jsonl").open("a") as log:
        log.write(
            '{"id": "x1", "ts": "2026-11-29T21:00:00Z", "unit": "cli-\\u001b[5m", "op": "forget",'
            ' "action": "delete", "reason_code": "forgotten", "reason": "bye \\u009b2J\\u001b]0;t'
            '\\u0007", "target": "people/ana.md", "before_sha256": null, "after_sha256": null}\n'
        )
    for args in (("list",), ("show", "ana"), ("log",), ("log", "--json")):
        done = shelldon_memory(home, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert raw_controls(done.stdout) == [], args
    assert "Lives in Lisbon." in shelldon_memory(home, "show", "ana").stdout


def test_an_oversize_say_is_refused_before_anything_is_sent(pet: Pet) -> None:
    done = pet.cli("say", "x" * (MAX_MESSAGE_BYTES + 1))
    assert done.returncode == 2
    assert "the limit is 16,384 bytes" in done.stderr and "nothing was sent" in done.stderr
    assert "Traceback" not in done.stderr
    assert owner_messages(pet) == []
    at_the_limit = pet.cli("say", "-", stdin="y" * MAX_MESSAGE_BYTES)
    assert at_the_limit.returncode == 0, at_the_limit.stderr


def test_core_refuses_an_oversize_message_and_stores_none_of_it(pet: Pet) -> None:
    """A 1.02 MB message was stored whole before the fix."""
    answer = ipc.request(pet.root.socket("core"), wire.Say(text="z" * 1_020_000), timeout=60)
    assert isinstance(answer, wire.Refused), answer
    assert "the limit is 16,384 bytes" in answer.reason
    assert owner_messages(pet) == []
    assert "z" * 1000 not in every_stored_text(pet.root.home)


def test_chat_goes_on_after_a_too_long_line(pet: Pet) -> None:
    """A 1 MB line printed "lost core (refusing to send a 1048596-byte frame)" and left the chat."""
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", "chat"],
        input="w" * 1_048_576 + "\nmy dog is called Rex\n/quit\n",
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the limit is 16,384 bytes" in done.stderr
    assert "lost core" not in done.stderr
    assert "shelldon> " in done.stdout
    assert owner_messages(pet) == ["my dog is called Rex"]
