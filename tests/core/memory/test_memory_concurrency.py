"""Two real processes writing curated memory at once (core and the CLI, say) serialise on the
write lock: each file's audit lines form one chain (every change starts from the state the
previous one left), every entry is whole, and MEMORY.md lists them all."""

from __future__ import annotations

import json
from pathlib import Path

from shelldon.core.memory.audit import sha256_hex
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.lifecycle import CuratedMemory
from support.processes import started_together

WRITER = r"""
import sys
from shelldon.contracts.ops import Remember
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.gate import Limits

root, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
mem = CuratedMemory(root, limits=Limits(collection_cap=500))
# Five entries about five different things (the gate files a new value of the same subject as an
# update of its entry, whatever the name): each writer revises each of them in turn.
things = ("the shed", "the kitchen radio", "the blue bicycle", "the attic window", "the boat")
print("ready", flush=True)
sys.stdin.readline()  # start together
for i in range(count):
    mem.apply_memory_op(
        Remember(
            collection="facts",
            name=f"shared {i % 5}",
            content=f"Writer {tag} saw {things[i % 5]} checked {i * 7919 + len(tag)} times.",
        ),
        unit=f"writer-{tag}",
    )
print("done", flush=True)
"""


def test_two_writer_processes_serialise(home: Path) -> None:
    root = home / "memory"
    CuratedMemory(root)
    count = 20
    procs = started_together(WRITER, [(str(root), tag, str(count)) for tag in ("alpha", "beta")])
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0 and out.strip() == "done"

    lines = [json.loads(x) for x in (root / "history.jsonl").read_text().splitlines()]
    assert len(lines) == 2 * count
    assert len({line["id"] for line in lines}) == 2 * count
    last: dict[str, object] = {}
    for line in lines:
        for change in line.get("changes", []):
            target = change["target"]
            assert change["before_sha256"] == last.get(target), f"broken chain on {target}"
            last[target] = change["after_sha256"]
    creates = [line["target"] for line in lines if line["action"] == "create"]
    assert len(creates) == len(set(creates)) == 5
    files = sorted((root / "facts").glob("*.md"))
    assert len(files) == 5
    for path in files:
        entry = parse_entry(path.read_text())
        assert entry.defaulted is False
        assert last[f"facts/{path.name}"] == sha256_hex(path.read_bytes())
    index = (root / "MEMORY.md").read_text()
    for path in files:
        assert f"(facts/{path.name})" in index, f"{path.name} missing from MEMORY.md"
