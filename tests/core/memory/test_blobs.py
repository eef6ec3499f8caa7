"""core.memory.blobs: undo's prior contents as lines of one appended file, read back by sha256."""

from __future__ import annotations

import base64
import json
import os
import random
from pathlib import Path

import pytest

from shelldon.core.memory.audit import AuditLog, UndoError
from shelldon.core.memory.blobs import BlobDamaged, BlobMissing, sha256_hex


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    path.mkdir()
    return path


def _lines(memory: Path) -> list[bytes]:
    return (memory / ".undo" / "blobs.jsonl").read_bytes().splitlines(keepends=True)


def test_blobs_round_trip_through_one_file(memory: Path) -> None:
    rng = random.Random(25)
    contents = [b"", b"one line\n", b"two\nlines\n", "caf\u00e9 \u2615\n".encode()]
    contents += [rng.randbytes(rng.randrange(1, 3000)) for _ in range(40)]  # any bytes
    store = AuditLog(memory).blobs
    digests = [store.keep(data) for data in contents]
    assert digests == [sha256_hex(data) for data in contents]
    assert [p.name for p in (memory / ".undo").iterdir()] == ["blobs.jsonl"]  # no file per blob
    assert len(_lines(memory)) == len(contents)
    fresh = AuditLog(memory).blobs  # another process reading what this one kept
    for data, digest in zip(contents, digests, strict=True):
        assert fresh.read(digest) == data


def test_the_same_content_is_kept_once_whoever_kept_it(memory: Path) -> None:
    core, cli = AuditLog(memory).blobs, AuditLog(memory).blobs
    core.keep(b"a")
    cli.keep(b"b")  # appended by another process since core last looked
    core.keep(b"b")
    core.keep(b"a")
    assert [json.loads(line)["sha256"] for line in _lines(memory)] == [
        sha256_hex(b"a"),
        sha256_hex(b"b"),
    ]


def test_a_torn_last_line_is_skipped_and_the_next_blob_starts_its_own(memory: Path) -> None:
    store = AuditLog(memory).blobs
    first = store.keep(b"first")
    fragment = _lines(memory)[0][:40]  # '{"sha256": "' and part of the digest
    with (memory / ".undo" / "blobs.jsonl").open("ab") as pack:  # a writer killed mid-line
        pack.write(fragment)
    assert store.read(first) == b"first"
    second = AuditLog(memory).blobs.keep(b"second")
    assert _lines(memory)[1:] == [fragment + b"\n", _lines(memory)[2]]
    assert json.loads(_lines(memory)[2])["sha256"] == second
    assert store.read(second) == b"second" and store.read(first) == b"first"


def test_damaged_and_missing_content_are_told_apart(memory: Path) -> None:
    audit = AuditLog(memory)
    digest = audit.keep_blob(b"the prior text")
    pack = memory / ".undo" / "blobs.jsonl"
    record = json.loads(pack.read_text())
    record["b64"] = base64.b64encode(b"the prior texT").decode()
    pack.write_text(json.dumps(record) + "\n")
    with pytest.raises(BlobDamaged):
        audit.blobs.read(digest)
    with pytest.raises(UndoError, match="is damaged"):
        audit.read_blob(digest)
    with pytest.raises(BlobMissing):
        audit.blobs.read(sha256_hex(b"never kept"))
    with pytest.raises(UndoError, match="no longer kept"):
        audit.read_blob(sha256_hex(b"never kept"))


def test_a_store_made_before_the_pack_is_read_and_not_copied(memory: Path) -> None:
    undo = memory / ".undo"
    undo.mkdir(mode=0o700)
    (undo / sha256_hex(b"kept as a file")).write_bytes(b"kept as a file")
    store = AuditLog(memory).blobs
    assert store.read(sha256_hex(b"kept as a file")) == b"kept as a file"
    assert store.keep(b"kept as a file") == sha256_hex(b"kept as a file")
    assert not (undo / "blobs.jsonl").exists()
    (undo / sha256_hex(b"x")).write_bytes(b"y")
    with pytest.raises(BlobDamaged):
        store.read(sha256_hex(b"x"))


def test_collect_keeps_the_wanted_and_the_young_and_drops_torn_lines(memory: Path) -> None:
    store = AuditLog(memory).blobs
    wanted, unwanted, young = (store.keep(d) for d in (b"wanted", b"unwanted", b"young"))
    pack = memory / ".undo" / "blobs.jsonl"
    records = [json.loads(line) for line in _lines(memory)]
    for record in records[:2]:
        record["ts"] -= 7200
    pack.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"sha256": "ab')
    inode = pack.stat().st_ino
    store.collect({wanted}, grace_s=3600)
    assert [json.loads(line)["sha256"] for line in _lines(memory)] == [wanted, young]
    assert pack.stat().st_ino != inode  # replaced atomically, never cut in place
    assert oct(pack.stat().st_mode & 0o777) == oct(0o600)
    with pytest.raises(BlobMissing):
        store.read(unwanted)
    assert store.keep(b"unwanted") == unwanted  # kept again after its drop, not skipped
    assert store.read(unwanted) == b"unwanted"
    assert os.path.getsize(pack) > 0


def test_keeping_and_reading_blobs_interns_no_digest(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    interned: list[str] = []
    real = sys.intern

    def spy(text: str) -> str:
        interned.append(text)
        return real(text)

    store = AuditLog(memory).blobs
    store.keep(b"warm")  # the undo directory and pack paths are made once
    monkeypatch.setattr(sys, "intern", spy)  # pathlib (3.11-3.13) interns each path part
    digests = [store.keep(f"fact {n}\n".encode()) for n in range(20)]
    assert [store.read(d) for d in digests] == [f"fact {n}\n".encode() for n in range(20)]
    assert not set(digests) & set(interned)
