"""CuratedMemory and MemoryReader: the tree, the op contract, validation before disk, path
safety, DIRECTIVE.md."""

from __future__ import annotations

import ast
import errno
import importlib
import inspect
import os
import pkgutil
import resource
import signal
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon import _native
from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    LogEpisode,
    Remember,
    RewriteAbout,
    RewriteSummary,
    decode_op,
)
from shelldon.core import memory as memory_module
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import MAX_CONTENT_CHARS, MemoryOpError
from shelldon.core.memory.reader import MemoryReader
from support.processes import dead_pid

FIXED_NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture
def root(home: Path) -> Path:
    return home / "memory"


@pytest.fixture
def mem(root: Path) -> CuratedMemory:
    return CuratedMemory(root, clock=lambda: FIXED_NOW)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        # undo blobs are kept before a write; a failed write may leave one (harmless).
        if p.is_file() and "vault" not in p.parts and ".undo" not in p.parts
    }


def test_tree_is_created_with_explicit_modes(root: Path) -> None:
    old_umask = os.umask(0o077)
    try:
        CuratedMemory(root)
    finally:
        os.umask(old_umask)
    assert _mode(root) == 0o2750  # core.storage.layout.DIR_MODE: the readers' group, setgid
    for collection in COLLECTION_NAMES:
        assert _mode(root / collection) == 0o2750
    assert _mode(root / "vault") == 0o700


def test_vault_mode_is_restored_on_every_open(root: Path) -> None:
    CuratedMemory(root)
    (root / "vault").chmod(0o755)
    CuratedMemory(root)
    assert _mode(root / "vault") == 0o700


def test_each_op_writes_its_file(mem: CuratedMemory, root: Path) -> None:
    old_umask = os.umask(0o077)
    try:
        assert mem.apply_memory_op(RewriteAbout(content="I am shelldon.")).action == "create"
        assert mem.apply_memory_op(RewriteAbout(content="I am a pet.")).action == "update"
        mem.apply_memory_op(RewriteSummary(content="We talked about cats."))
        mem.apply_memory_op(
            Remember(collection="people", name="José", content="A friend from school.")
        )
        mem.apply_memory_op(LogEpisode(content="Went to the park.", tags=("outing",)), turn_id="t9")
        mem.apply_memory_op(LogEpisode(content="Came back."))
    finally:
        os.umask(old_umask)
    assert mem.read_about() == "I am a pet.\n"
    assert mem.read_summary() == "We talked about cats.\n"
    assert (root / "people" / "josé.md").is_file()
    assert _mode(root / "about.md") == 0o640  # core.storage.layout.FILE_MODE
    assert _mode(root / "episodes.md") == 0o640
    assert mem.read_episodes() == (
        "## 2026-11-29T21:00:00Z [outing] (turn t9)\nWent to the park.\n\n"
        "## 2026-11-29T21:00:00Z\nCame back.\n\n"
    )
    (entry,) = mem.entries()
    assert (entry.collection, entry.stem, entry.body) == (
        "people",
        "josé",
        "A friend from school.\n",
    )
    assert entry.meta.title == "José"
    assert entry.meta.provenance == "inferred"
    assert entry.meta.created == "2026-11-29T21:00:00Z"
    assert mem.read_all_collections() == {
        "facts": {},
        "people": {"josé": "A friend from school.\n"},
        "preferences": {},
        "capabilities": {},
    }


def test_update_keeps_created_and_records_provenance(root: Path) -> None:
    times = iter([datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)])
    mem = CuratedMemory(root, clock=lambda: next(times))
    mem.apply_memory_op(Remember(collection="facts", name="tea", content="the owner likes tea"))
    result = mem.apply_memory_op(
        Remember(collection="facts", name="Tea", content="the owner likes green tea"),
        provenance="owner",
    )
    assert result.action == "update"
    (entry,) = mem.entries()
    assert entry.meta.created == "2026-01-01T00:00:00Z"
    assert entry.meta.modified == "2026-02-01T00:00:00Z"
    assert entry.meta.provenance == "owner"
    assert entry.body == "the owner likes green tea\n"


@pytest.mark.parametrize(
    "op",
    [
        RewriteAbout(content=""),
        RewriteAbout(content="   \n"),
        RewriteAbout(content="x" * (MAX_CONTENT_CHARS + 1)),
        RewriteSummary(content="nul\x00inside"),
        Remember(collection="facts", name="...", content="x"),
        Remember(collection="facts", name="", content="x"),
        Remember(collection="vault", name="key", content="x"),  # type: ignore[arg-type]
        Remember(collection="../", name="key", content="x"),  # type: ignore[arg-type]
        Remember(collection="facts", name=123, content="x"),  # type: ignore[arg-type]
        Remember(collection="facts", name="ok", content=b"bytes"),  # type: ignore[arg-type]
        LogEpisode(content="ok", tags=("",)),
        LogEpisode(content="ok", tags=tuple("abcdefghijklmnopq")),
        RewriteAbout(content="lone \ud800 surrogate"),
    ],
)
def test_invalid_ops_touch_nothing(
    mem: CuratedMemory, root: Path, monkeypatch: pytest.MonkeyPatch, op: object
) -> None:
    mem.apply_memory_op(RewriteAbout(content="original"))
    before = _snapshot(root)
    real_append = _native.durable_append

    def no_disk(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation must refuse before any write")

    def audit_only(path: Path, data: bytes, mode: int = 0o644, durable: bool = True) -> int:
        # The refusal itself is audited: history.jsonl is the one write allowed.
        if Path(path).name != "history.jsonl":
            raise AssertionError("validation must refuse before any write")
        return real_append(path, data, mode, durable)

    monkeypatch.setattr(_native, "atomic_write", no_disk)
    monkeypatch.setattr(_native, "durable_append", audit_only)
    with pytest.raises(MemoryOpError):
        mem.apply_memory_op(op)  # type: ignore[arg-type]
    after = _snapshot(root)
    audit_after = after.pop("history.jsonl")
    audit_before = before.pop("history.jsonl")
    assert after == before
    assert audit_after.startswith(audit_before) and b'"reason_code": "invalid"' in audit_after


def test_not_an_op_and_bad_provenance_are_refused(mem: CuratedMemory) -> None:
    with pytest.raises(MemoryOpError):
        mem.apply_memory_op("rewrite_about")  # type: ignore[arg-type]
    with pytest.raises(MemoryOpError):
        mem.apply_memory_op(RewriteAbout(content="x"), provenance="god")  # type: ignore[arg-type]


def test_a_device_name_windows_reserves_is_refused(mem: CuratedMemory, root: Path) -> None:
    """The fourth red team round (docs/gate-design.md): "con", "NUL", "Com1", "lpt9." were entries
    (facts/con.md), which no copy of the tree on Windows can hold. Refused, with the reason; a
    name that only starts like one ("console", "aux.txt" slugged to "aux-txt") is an entry."""
    for name in ("con", "NUL", "Com1", "lpt9.", " prn ", "aux"):
        with pytest.raises(MemoryOpError, match="device name Windows reserves"):
            mem.apply_memory_op(Remember(collection="facts", name=name, content="a note"))
    for name in ("console", "aux.txt", "com10", "null"):
        result = mem.apply_memory_op(
            Remember(collection="facts", name=name, content=f"the {name} note")
        )
        assert result.target.parent == root / "facts"
    assert sorted(p.stem for p in (root / "facts").glob("*.md")) == [
        "aux-txt",
        "com10",
        "console",
        "null",
    ]


def test_names_never_leave_the_collection(mem: CuratedMemory, root: Path) -> None:
    for name in ("../etc", "../../passwd", "/etc/passwd", "a/b/c", "..\\x", ".hidden", "~root"):
        result = mem.apply_memory_op(
            Remember(collection="facts", name=name, content="the owner keeps notes here")
        )
        assert result.target.parent == root / "facts"
        assert not result.target.name.startswith(".")
    assert (root / "facts" / "etc.md").is_file()
    assert not (root / "etc.md").exists()


def test_write_failure_keeps_old_content_and_raises_oserror(mem: CuratedMemory, root: Path) -> None:
    """A real mid-write failure, root or not: a forked child whose file-size limit is smaller
    than the new entry gets EFBIG from the kernel halfway through the write."""
    mem.apply_memory_op(Remember(collection="facts", name="tea", content="the old tea fact"))
    before = _snapshot(root)
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a kill
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
            try:
                # Passes the gate (few enough characters) yet is over 4 KB: 4-byte word characters.
                big = "the tea fact " + " ".join(["\U00020000" * 10] * 130)
                mem.apply_memory_op(Remember(collection="facts", name="tea", content=big))
            except OSError as exc:
                code = 0 if exc.errno == errno.EFBIG else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0, "the write should have failed with EFBIG"
    assert _snapshot(root) == before
    assert not list(root.rglob(f"*{_native.TEMP_MARKER}*")), "the temp file was removed"


def test_failed_atomic_write_is_oserror_with_errno_and_old_file_kept(tmp_path: Path) -> None:
    target = tmp_path / "entry.md"
    target.mkdir()  # renaming a file over a directory fails (EISDIR)
    with pytest.raises(OSError) as info:
        _native.atomic_write(target, b"new")
    assert info.value.errno is not None
    assert target.is_dir()
    assert list(tmp_path.iterdir()) == [target]


def test_symlinked_collection_is_refused(mem: CuratedMemory, root: Path) -> None:
    (root / "facts").rmdir()
    (root / "facts").symlink_to(root, target_is_directory=True)
    with pytest.raises(MemoryOpError):
        mem.apply_memory_op(Remember(collection="facts", name="directive", content="pwned"))
    assert not (root / "directive.md").exists()


def test_symlinked_entries_are_not_read(mem: CuratedMemory, root: Path) -> None:
    (root / "vault" / "secret.md").write_text("the pin is 1234")
    (root / "facts" / "leak.md").symlink_to(root / "vault" / "secret.md")
    assert mem.entries() == []
    (root / "about.md").symlink_to(root / "vault" / "secret.md")
    assert mem.read_about() is None


def test_unparseable_entry_reads_as_inferred(mem: CuratedMemory, root: Path) -> None:
    (root / "facts" / "hand.md").write_text("---\nprovenance: owner\nbroken\n---\nhand written")
    (entry,) = mem.entries()
    assert entry.meta.provenance == "inferred" and entry.defaulted
    assert entry.body == "hand written"


def test_leftover_temp_files_are_swept(root: Path) -> None:
    CuratedMemory(root)
    leftover = root / "facts" / f".tea.md{_native.TEMP_MARKER}{dead_pid()}-0"
    leftover.write_text("half")
    unrelated = root / "facts" / ".owner-notes"
    unrelated.write_text("mine")
    CuratedMemory(root)
    assert not leftover.exists()
    assert unrelated.exists()


def test_reader_creates_nothing_and_has_no_write_method(root: Path) -> None:
    reader = MemoryReader(root)
    assert not root.exists()
    assert reader.read_about() is None and reader.entries() == []
    for name in ("apply_memory_op", "forget", "retire_entry", "undo_change", "undo_unit", "audit"):
        assert not hasattr(reader, name), name
    assert isinstance(CuratedMemory(root), MemoryReader)  # core reads through the same code


# --- DIRECTIVE.md: no write path at all -----------------------------------------------------

DIRECTIVE_NAMES = [
    "DIRECTIVE",
    "DIRECTIVE.md",
    "directive",
    "directive.md",
    "Directive.MD",
    "../DIRECTIVE.md",
    "../DIRECTIVE",
    "../../memory/DIRECTIVE.md",
    "./DIRECTIVE.md",
    "/DIRECTIVE.md",
    "..\\DIRECTIVE.md",
    "%2e%2e%2fDIRECTIVE.md",
    "DIRECTIVE.md\x00.txt",
    "DIRECTIVE.md/",
    "DIRECTIVE.md/.",
    " DIRECTIVE.md ",
    "ＤＩＲＥＣＴＩＶＥ.ｍｄ",  # fullwidth
    "DİRECTİVE.md",  # dotted capital I
    "DIRECTIVE\u200b.md",  # zero-width space
    "\u202eDIRECTIVE.md",  # right-to-left override
    "DІRECTIVE.md",  # Cyrillic І
    "../" * 20 + "DIRECTIVE.md",
]


def test_no_op_and_no_name_can_reach_directive(mem: CuratedMemory, root: Path) -> None:
    directive = root / "DIRECTIVE.md"
    directive.write_text("Be kind. Never share my address.\n")
    before = directive.stat()
    attempts = 0
    for name in DIRECTIVE_NAMES:
        for collection in COLLECTION_NAMES:
            ops: list[object] = [
                Remember(
                    collection=collection,  # type: ignore[arg-type]
                    name=name,
                    content=f"note number {attempts} kept by the owner",
                ),
                RewriteAbout(content=name),
                RewriteSummary(content=name),
                LogEpisode(content=name, tags=(name.strip() or "x",)),
            ]
            for op in ops:
                attempts += 1
                try:
                    result = mem.apply_memory_op(op, provenance="owner", turn_id=name[:100])  # type: ignore[arg-type]
                except MemoryOpError:
                    continue
                assert (
                    result.target.name.casefold() != "directive.md" or result.target.parent != root
                )
    assert attempts > 300
    after = directive.stat()
    assert directive.read_text() == "Be kind. Never share my address.\n"
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (
        before.st_ino,
        before.st_mtime_ns,
        before.st_size,
    )
    top_level = {p.name for p in root.iterdir()}
    assert top_level <= {
        "DIRECTIVE.md",
        "about.md",
        "summary.md",
        "episodes.md",
        "vault",
        *COLLECTION_NAMES,
        # the index, the audit log, undo blobs, the writers' lock, the archive.
        "MEMORY.md",
        "archive",
        "history.jsonl",
        ".undo",
        ".write.lock",
        ".audit.lock",
    }
    assert mem.read_directive() == "Be kind. Never share my address.\n"


def test_decoded_ops_naming_directive_cannot_reach_it(mem: CuratedMemory, root: Path) -> None:
    (root / "DIRECTIVE.md").write_text("owner's")
    for raw in (
        b'{"op":"rewrite_directive","content":"x"}',
        b'{"op":"remember","collection":"DIRECTIVE","name":"x","content":"x"}',
        b'{"op":"remember","collection":"facts","name":"../DIRECTIVE.md","content":"x"}',
        b'{"op":"rewrite_about","content":"x","path":"DIRECTIVE.md"}',
    ):
        try:
            op = decode_op(raw)
        except ValueError:
            continue
        mem.apply_memory_op(op)  # type: ignore[arg-type]
    assert (root / "DIRECTIVE.md").read_text() == "owner's"


def test_directive_is_named_only_in_read_directive() -> None:
    modules = [memory_module] + [
        importlib.import_module(f"{memory_module.__name__}.{info.name}")
        for info in pkgutil.iter_modules(memory_module.__path__)
    ]
    assert len(modules) >= 5  # __init__, reader, plan, writer, lifecycle: every part is read
    owners: list[str] = []
    for func in (n for m in modules for n in ast.walk(ast.parse(inspect.getsource(m)))):
        if isinstance(func, ast.FunctionDef):
            for node in ast.walk(func):
                if isinstance(node, ast.Constant) and node.value == "DIRECTIVE.md":
                    owners.append(func.name)
    assert owners == ["read_directive"]


def test_directive_absent_reads_none(mem: CuratedMemory) -> None:
    assert mem.read_directive() is None


def test_entries_round_trip_through_front_matter(mem: CuratedMemory, root: Path) -> None:
    mem.apply_memory_op(
        Remember(collection="preferences", name="Replies", content="terse replies, please"),
        provenance="owner",
    )
    text = (root / "preferences" / "replies.md").read_text()
    parsed = parse_entry(text)
    assert parsed.meta.provenance == "owner" and parsed.meta.collection == "preferences"


def test_the_readers_parsed_entries_are_those_the_tree_holds_not_every_name_it_held(
    tmp_path: Path,
) -> None:
    from shelldon.core.memory.entry import EntryMeta, render_entry

    people = tmp_path / "memory" / "people"
    people.mkdir(parents=True)
    reader = MemoryReader(tmp_path / "memory")
    for n in range(60):  # 60 names, never more than 3 files at once (archived, deleted)
        meta = EntryMeta(title=f"Friend {n}", collection="people")
        (people / f"friend-{n}.md").write_text(render_entry(meta, f"Friend {n} plays chess.\n"))
        if n >= 3:
            (people / f"friend-{n - 3}.md").unlink()
        assert f"friend-{n}" in {e.stem for e in reader.entries()}
    assert sum(len(kept) for kept in reader._parsed.values()) == 3
    again = reader.entries()  # unchanged files are still not parsed again
    assert all(a is b for a, b in zip(again, reader.entries(), strict=True))
