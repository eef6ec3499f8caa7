"""The Rust storage functions against their pure-Python references, and hostile-input properties."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from reference import storage as ref
from shelldon import _native
from shelldon.contracts.ops import OpDecodeError, decode_op, decode_ops
from support.unicode import comparable, shared

# fsync per example: fewer examples, same shapes.
DISK_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SETTINGS = settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# FTS5 syntax, quotes, separators and a few scripts: the characters most likely to break a MATCH.
_TOKENS = [
    *"\"'*^:()-+{}[],.;!?/\\ \t\n\r\x00_",
    *("AND", "OR", "NOT", "NEAR", "content", "rowid", " ", "abc", "Z9"),
    *("é", "中", "ß", "İ", "\u0301", "٣", "\ufffd", "\u200b", "ﬁ", "Σ"),
]
HOSTILE = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=200), HOSTILE)


# --- fts_query ------------------------------------------------------------------------------


@SETTINGS
@given(ANY_TEXT, st.integers(0, 20), st.integers(0, 70))
@example("cats AND NEAR(dogs*)", 16, 64)
@example("a b a c", 2, 8)
def test_fts_query_matches_reference(query: str, max_terms: int, max_chars: int) -> None:
    # Characters only one Unicode version assigns have no shared answer (support/unicode.py).
    assume(comparable(query))
    assert _native.fts_query(query, max_terms, max_chars) == ref.fts_query(
        query, max_terms, max_chars
    )


def test_fts_query_defaults_match_reference() -> None:
    text = " ".join(f"w{i}" + "x" * i for i in range(80))
    assert _native.fts_query(text) == ref.fts_query(text)


def test_lone_surrogates_are_separators_in_both() -> None:
    for text in ("ab\ud800cd", "\udfff", "x\ud83dy"):
        assert _native.fts_query(text) == ref.fts_query(text)
        rust, python = _both(text)
        assert rust == python
    assert _native.filename_stem("ab\ud800cd") == "ab-cd"


@pytest.fixture(scope="module")
def fts_db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        """
        CREATE TABLE messages (id INTEGER PRIMARY KEY, content TEXT NOT NULL);
        CREATE VIRTUAL TABLE messages_fts
            USING fts5(content, content='messages', content_rowid='id');
        CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
        END;
        """
    )
    for text in ("cats and dogs", "José likes 中文", "NEAR the AND gate", "straße ß", "x_y z"):
        conn.execute("INSERT INTO messages (content) VALUES (?)", (text,))
    return conn


@SETTINGS
@given(ANY_TEXT)
@example('"')
@example("NEAR(")
@example("_")
@example("content:x")
def test_no_sanitised_query_makes_match_raise(fts_db: sqlite3.Connection, query: str) -> None:
    match = _native.fts_query(query)
    if match is None:
        assert ref.fts_query(query) is None
        return
    fts_db.execute(
        "SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH ? "
        "ORDER BY rank LIMIT 5",
        (match,),
    ).fetchall()


def test_raw_queries_would_raise_without_the_sanitiser(fts_db: sqlite3.Connection) -> None:
    # The property above can fail: these raw inputs do break MATCH.
    for raw in ('"', "NEAR(", "cats AND", "content:"):
        with pytest.raises(sqlite3.OperationalError):
            fts_db.execute(
                "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", (raw,)
            ).fetchall()


# --- filename_stem --------------------------------------------------------------------------


def _both(name: str, max_bytes: int = ref.MAX_STEM_BYTES) -> tuple[str | None, str | None]:
    try:
        rust: str | None = _native.filename_stem(name, max_bytes)
    except ValueError:
        rust = None
    try:
        python: str | None = ref.filename_stem(name, max_bytes)
    except ValueError:
        python = None
    return rust, python


@SETTINGS
@given(ANY_TEXT, st.integers(1, 130))
@example("José", 120)
@example("../etc", 120)
@example("İstanbul ΣΊΣΥΦΟΣ Straße ﬁ", 120)
def test_filename_stem_matches_reference(name: str, max_bytes: int) -> None:
    assume(comparable(name))
    rust, python = _both(name, max_bytes)
    assert rust == python


def test_filename_stem_matches_reference_on_every_code_point() -> None:
    # Exhaustive over single characters: casefold, \w and NFC tables, every code point but those
    # only one of the two Unicode versions assigns (none when this Python's is the tables' own).
    mismatches = []
    compared = 0
    for cp in range(0x110000):
        if not shared(cp):
            continue
        compared += 1
        ch = chr(cp)
        rust, python = _both(f"a{ch}b{ch}")
        if rust != python:
            mismatches.append(f"U+{cp:04X}: {rust!r} != {python!r}")
    assert not mismatches, mismatches[:20]
    assert compared > 0x110000 - 10_000  # 14.0 → 15.1 adds ~5,100 code points, 16.0 ~5,200


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("José", "josé"),
        ("Jose\u0301", "josé"),
        ("東京タワー", "東京タワー"),
        ("../etc", "etc"),
        ("A  B", "a-b"),
    ],
)
def test_spec_examples(name: str, stem: str) -> None:
    assert _native.filename_stem(name) == stem == ref.filename_stem(name)


@pytest.mark.parametrize("name", ["", "...", "/", "---", "\x00", "\u0301", "  "])
def test_empty_stem_is_value_error(name: str) -> None:
    with pytest.raises(ValueError):
        _native.filename_stem(name)


@SETTINGS
@given(st.one_of(st.text(max_size=300), HOSTILE, st.just("../" * 50)))
def test_stem_never_leaves_its_directory(tmp_path: Path, name: str) -> None:
    try:
        stem = _native.filename_stem(name)
    except ValueError:
        return
    directory = tmp_path / "facts"
    target = directory / f"{stem}.md"
    assert target.parent == directory
    assert os.path.realpath(target).startswith(os.path.realpath(directory) + os.sep)
    assert "/" not in stem and "\x00" not in stem and not stem.startswith(".")
    assert len(f"{stem}.md".encode()) <= 255


# --- atomic_write / durable_append ------------------------------------------------------------


@DISK_SETTINGS
@given(st.binary(max_size=4096), st.sampled_from([0o600, 0o640, 0o644, 0o444]), st.booleans())
def test_atomic_write_matches_reference(
    tmp_path: Path, data: bytes, mode: int, exists: bool
) -> None:
    results = []
    for label, writer in (("rust", _native.atomic_write), ("python", ref.atomic_write)):
        directory = tmp_path / label
        directory.mkdir(exist_ok=True)
        target = directory / "entry.md"
        # A file of an earlier example may be 0444: a non-root user cannot write over it.
        target.unlink(missing_ok=True)
        if exists:
            target.write_bytes(b"old content")
        writer(target, data, mode)
        results.append(
            (
                target.read_bytes(),
                stat.S_IMODE(target.stat().st_mode),
                sorted(os.listdir(directory)),
            )
        )
    assert results[0] == results[1]
    assert results[0][0] == data


_RECORDS = st.binary(max_size=300).map(lambda b: b.replace(b"\n", b" ") + b"\n")


@DISK_SETTINGS
@given(
    st.lists(_RECORDS, min_size=1, max_size=6),
    st.sampled_from([0o600, 0o644]),
    st.sampled_from([b"", b"whole\n", b"torn tail"]),
)
def test_durable_append_matches_reference(
    tmp_path: Path, records: list[bytes], mode: int, before: bytes
) -> None:
    outcomes = []
    for label, appender in (("rust", _native.durable_append), ("python", ref.durable_append)):
        target = tmp_path / f"{label}-{len(os.listdir(tmp_path))}.md"
        if before:
            target.write_bytes(before)
            os.chmod(target, mode)
        sizes = [appender(target, record, mode) for record in records]
        outcomes.append((target.read_bytes(), sizes, stat.S_IMODE(target.stat().st_mode)))
    assert outcomes[0] == outcomes[1]
    # A torn tail is kept, but on a line of its own: every record appended is a whole line.
    separator = b"\n" if before and not before.endswith(b"\n") else b""
    assert outcomes[0][0] == before + separator + b"".join(records)


def test_durable_append_refuses_a_record_without_its_newline(tmp_path: Path) -> None:
    for appender in (_native.durable_append, ref.durable_append):
        for data in (b"", b"no newline"):
            with pytest.raises(ValueError, match="end with a newline"):
                appender(tmp_path / "episodes.md", data)
    assert not (tmp_path / "episodes.md").exists()


def test_writers_report_errno(tmp_path: Path) -> None:
    for writer in (_native.atomic_write, _native.durable_append):
        with pytest.raises(FileNotFoundError) as info:
            writer(tmp_path / "missing" / "x.md", b"x\n")
        assert info.value.errno == 2
    with pytest.raises(ValueError):
        _native.atomic_write(tmp_path / "x", b"", 0o10000)


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "about.md"
    target.write_bytes(b"old")
    (tmp_path / "blocker").mkdir()
    with pytest.raises(IsADirectoryError):
        _native.atomic_write(tmp_path / "blocker", b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["about.md", "blocker"]


def test_atomic_write_mode_ignores_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        _native.atomic_write(tmp_path / "a", b"x", 0o644)
        _native.durable_append(tmp_path / "b", b"x\n", 0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b").stat().st_mode) == 0o644


# --- op decoding ----------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
_TAGS = [
    "rewrite_about",
    "remember",
    "log_episode",
    "rewrite_summary",
    "capture_learning",
    "resolve_learning",
    "nope",
]
_FIELDS = [
    "content",
    "collection",
    "name",
    "tags",
    "observation",
    "pattern_key",
    "id",
    "status",
    "op",
    "extra",
]
_OPLIKE = st.builds(
    lambda tag, fields: {"op": tag, **fields},
    st.sampled_from(_TAGS),
    st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=5),
)


@SETTINGS
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)))
@example(b'{"op":"remember"')
@example(b"\xff\xfe{")
@example(b"[" * 5000)
def test_malformed_bytes_only_ever_raise_op_decode_error(raw: bytes | str) -> None:
    with contextlib.suppress(OpDecodeError):
        decode_op(raw)


@SETTINGS
@given(_OPLIKE)
def test_op_shaped_mappings_decode_or_raise_op_decode_error(raw: dict[str, Any]) -> None:
    import msgspec

    try:
        op = decode_op(raw)
    except OpDecodeError:
        pass
    else:
        assert decode_op(msgspec.json.encode(raw)) == op
    ops, dropped = decode_ops([raw, raw])
    assert len(ops) + len(dropped) == 2


def test_fsync_dir_takes_a_directory_and_reports_errno(tmp_path: Path) -> None:
    _native.fsync_dir(tmp_path)
    (tmp_path / "plain.md").write_bytes(b"x")
    with pytest.raises(NotADirectoryError):
        _native.fsync_dir(tmp_path / "plain.md")
    with pytest.raises(FileNotFoundError) as info:
        _native.fsync_dir(tmp_path / "missing")
    assert info.value.errno == 2
