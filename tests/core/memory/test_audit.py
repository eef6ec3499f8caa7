"""history.jsonl: a line per decision, durable, rotated at 1 MB; undo of a change and of a unit."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shelldon.core.memory.audit import AuditLog, AuditRecord, FileChange, UndoError, sha256_hex
from support.processes import started_together


@pytest.fixture
def root(home: Path) -> Path:
    path = home / "memory"
    (path / "facts").mkdir(parents=True)
    return path


def write(
    root: Path, audit: AuditLog, target: str, text: str | None, *, unit: str = "cli"
) -> AuditRecord:
    """A writer as core does it: keep the prior content, write, then audit."""
    path = root / target
    before = path.read_bytes() if path.exists() else None
    if before is not None:
        audit.keep_blob(before)
    if text is None:
        path.unlink()
        after = None
    else:
        path.write_text(text)
        after = text.encode()
    change = FileChange(
        target,
        sha256_hex(before) if before is not None else None,
        sha256_hex(after) if after is not None else None,
    )
    return audit.record(
        unit=unit,
        op="remember",
        action="update" if before else "create",
        reason_code="created",
        reason="a new entry",
        changes=[change],
    )


def skip(audit: AuditLog, reason: str) -> AuditRecord:
    """A decision that changes no file (a duplicate skipped): one line of the log."""
    return audit.record(
        unit="cli", op="remember", action="skip", reason_code="duplicate", reason=reason
    )


def test_every_decision_is_one_json_line(root: Path) -> None:
    audit = AuditLog(root)
    rec = write(root, audit, "facts/cat.md", "Mia's cat is Oscar.", unit="turn-7")
    audit.record(
        unit="turn-7",
        op="remember",
        action="reject",
        reason_code="secret",
        reason="looks like a credential (rule openai-key)",
        preview="my key is [secret:openai-key]",
    )
    lines = (root / "history.jsonl").read_text().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    for key in (
        "ts",
        "unit",
        "op",
        "action",
        "reason_code",
        "reason",
        "target",
        "before_sha256",
        "after_sha256",
    ):
        assert key in first
    assert first["unit"] == "turn-7"
    assert first["before_sha256"] is None
    assert first["after_sha256"] == sha256_hex(b"Mia's cat is Oscar.")
    assert first["id"] == rec.id
    assert second["action"] == "reject" and second["target"] is None
    assert [r.id for r in audit.records()] == [first["id"], second["id"]]


def test_undo_restores_the_state_before_a_change(root: Path) -> None:
    audit = AuditLog(root)
    create = write(root, audit, "facts/cat.md", "v1")
    update = write(root, audit, "facts/cat.md", "v2")
    audit.undo([update], label=update.id)
    assert (root / "facts/cat.md").read_text() == "v1"
    # The undo is itself a change that can be undone.
    undo_rec = list(audit.records())[-1]
    assert undo_rec.op == "undo" and undo_rec.undoes == update.id
    audit.undo([undo_rec], label=undo_rec.id)
    assert (root / "facts/cat.md").read_text() == "v2"
    del create


def test_undo_of_a_create_deletes_and_of_a_delete_restores(root: Path) -> None:
    audit = AuditLog(root)
    create = write(root, audit, "facts/cat.md", "v1")
    forget = write(root, audit, "facts/cat.md", None)
    audit.undo([forget], label=forget.id)
    assert (root / "facts/cat.md").read_text() == "v1"
    # The file holds what the create left again, so undoing the create is no conflict.
    AuditLog(root).undo([create], label=create.id)
    assert not (root / "facts/cat.md").exists()


def test_undo_refuses_when_a_later_change_touched_the_file(root: Path) -> None:
    audit = AuditLog(root)
    first = write(root, audit, "facts/cat.md", "v1")
    second = write(root, audit, "facts/cat.md", "v2")
    with pytest.raises(UndoError) as err:
        audit.undo([first], label=first.id)
    assert second.id in str(err.value)
    assert (root / "facts/cat.md").read_text() == "v2"
    audit.undo([first], label=first.id, force=True)
    assert not (root / "facts/cat.md").exists()
    (root / "facts/dog.md").write_text("by hand")
    rec = write(root, audit, "facts/dog.md", "by core")
    (root / "facts/dog.md").write_text("edited by hand again")
    with pytest.raises(UndoError, match="edited by hand"):
        audit.undo([rec], label=rec.id)


def test_unit_undo_reverts_every_file_of_the_unit_and_nothing_else(root: Path) -> None:
    audit = AuditLog(root)
    write(root, audit, "facts/keep.md", "before the dream", unit="turn-1")
    write(root, audit, "facts/a.md", "a1", unit="dream-3")
    write(root, audit, "facts/keep.md", "dream changed it", unit="dream-3")
    write(root, audit, "facts/a.md", "a2", unit="dream-3")
    write(root, audit, "facts/other.md", "after the dream", unit="turn-2")
    audit.undo(audit.unit_records("dream-3"), label="dream-3")
    assert not (root / "facts/a.md").exists()
    assert (root / "facts/keep.md").read_text() == "before the dream"
    assert (root / "facts/other.md").read_text() == "after the dream"


def test_nothing_to_undo(root: Path) -> None:
    audit = AuditLog(root)
    refused = audit.record(
        unit="cli", op="remember", action="reject", reason_code="too_short", reason="x"
    )
    with pytest.raises(UndoError, match="nothing to undo"):
        audit.undo([refused], label=refused.id)


@pytest.mark.parametrize("target", ["DIRECTIVE.md", "facts/../../etc.md"])
def test_undo_may_not_touch_a_target_outside_the_collections(root: Path, target: str) -> None:
    evil = AuditRecord(
        id="x",
        ts="t",
        unit="cli",
        op="remember",
        action="create",
        reason_code="c",
        reason="",
        target=target,
        before_sha256=None,
        after_sha256="0" * 64,
    )
    with pytest.raises(UndoError, match="may not touch"):
        AuditLog(root).undo([evil], label="x")


def _packed(root: Path) -> list[str]:
    """The digests in the blob pack, in order."""
    lines = (root / ".undo" / "blobs.jsonl").read_text().splitlines()
    return [json.loads(line)["sha256"] for line in lines]


def _rewrite_pack(root: Path, change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
    pack = root / ".undo" / "blobs.jsonl"
    lines = [change(json.loads(line)) for line in pack.read_text().splitlines()]
    pack.write_text("".join(json.dumps(line) + "\n" for line in lines if line is not None))


def test_a_missing_blob_fails_before_anything_changes(root: Path) -> None:
    audit = AuditLog(root)
    write(root, audit, "facts/a.md", "a1", unit="u")
    write(root, audit, "facts/b.md", "b1", unit="u")
    write(root, audit, "facts/a.md", "a2", unit="v")
    write(root, audit, "facts/b.md", "b2", unit="v")
    _rewrite_pack(root, lambda line: None if line["sha256"] == sha256_hex(b"b1") else line)
    with pytest.raises(UndoError, match="no longer kept"):
        audit.undo(audit.unit_records("v"), label="v")
    assert (root / "facts/a.md").read_text() == "a2"


def test_blob_store_is_private(root: Path) -> None:
    audit = AuditLog(root)
    audit.keep_blob(b"forgotten thing")
    assert stat.S_IMODE((root / ".undo").stat().st_mode) == 0o700
    assert stat.S_IMODE((root / ".undo" / "blobs.jsonl").stat().st_mode) == 0o600


def test_rotation_at_the_size_limit_keeps_generations_and_drops_orphan_blobs(root: Path) -> None:
    audit = AuditLog(root, rotate_bytes=2_000, keep_rotated=2)
    first = write(root, audit, "facts/a.md", "a0")
    write(root, audit, "facts/a.md", "a1")  # keeps blob of a0
    # A blob as a store made before the pack kept it, long ago.
    (root / ".undo" / sha256_hex(b"old, by hand")).write_bytes(b"old, by hand")
    os.utime(root / ".undo" / sha256_hex(b"old, by hand"), (1, 1))
    _rewrite_pack(root, lambda line: {**line, "ts": line["ts"] - 7200})  # a0 kept two hours ago
    young = audit.keep_blob(b"kept by a writer whose line is not appended yet")
    for i in range(60):
        skip(audit, f"n{i}")
    files = audit.log_files()
    assert [p.name for p in files] == ["history.2.jsonl", "history.1.jsonl", "history.jsonl"]
    for path in files:
        assert path.stat().st_size <= 2_000
    assert audit.find(first.id) is None  # rotated out of the kept generations
    assert _packed(root) == [young]  # a0 dropped; the young one within the grace period
    assert not (root / ".undo" / sha256_hex(b"old, by hand")).exists()
    assert audit.read_blob(young) == b"kept by a writer whose line is not appended yet"
    ids = [r.id for r in audit.records()]
    assert len(ids) == len(set(ids))


def test_the_real_limit_is_one_megabyte(root: Path) -> None:
    audit = AuditLog(root)
    reason = "x" * 900
    while not audit.rotated_path(1).exists():
        skip(audit, reason)
    assert audit.rotated_path(1).stat().st_size <= 1_000_000
    assert audit.rotated_path(1).stat().st_size > 990_000


def test_torn_and_hand_edited_lines_are_skipped(root: Path) -> None:
    audit = AuditLog(root)
    a = skip(audit, "a")
    with (root / "history.jsonl").open("a") as fh:
        fh.write('{"id": "half", "ts"\n')
        fh.write('["not", "an", "object"]\n')
        fh.write(
            '{"id": "z", "ts": "t", "unit": "u", "op": "o", "action": "a", '
            '"reason_code": "r", "before_sha256": "nope"}\n'
        )
    b = skip(audit, "b")
    assert [r.id for r in audit.records()] == [a.id, b.id]


def test_note_takes_a_mapping_for_other_writers(root: Path) -> None:
    audit = AuditLog(root)
    audit.note(
        {
            "unit": "dream-2",
            "op": "resolve_learning",
            "action": "resolved",
            "reason_code": "promoted",
            "reason": "learning 4 promoted",
            "target": "learning:4:promoted",
        }
    )
    (rec,) = audit.records()
    assert (rec.unit, rec.op, rec.target) == ("dream-2", "resolve_learning", "learning:4:promoted")


def test_log_file_is_appended_not_rewritten(root: Path) -> None:
    audit = AuditLog(root)
    skip(audit, "a")
    inode = os.stat(root / "history.jsonl").st_ino
    skip(audit, "b")
    assert os.stat(root / "history.jsonl").st_ino == inode


ROTATING_WRITER = r"""
import sys
from pathlib import Path
from shelldon.core.memory.audit import AuditLog

audit = AuditLog(Path(sys.argv[1]), rotate_bytes=3_000, keep_rotated=50)
print("ready", flush=True)
sys.stdin.readline()
for i in range(150):
    audit.record(unit=sys.argv[2], op="remember", action="skip", reason_code="duplicate",
                 reason=f"line {i}")
"""


def test_processes_rotating_at_once_lose_no_line(root: Path) -> None:
    procs = started_together(ROTATING_WRITER, [(str(root), tag) for tag in ("a", "b", "c")])
    for proc in procs:
        proc.communicate(timeout=120)
        assert proc.returncode == 0
    audit = AuditLog(root, keep_rotated=50)
    records = list(audit.records())
    assert len(records) == 450
    for tag in ("a", "b", "c"):
        mine = [r.reason for r in records if r.unit == tag]
        assert mine == [f"line {i}" for i in range(150)]
    for path in audit.log_files():
        assert path.stat().st_size <= 3_000
