"""MEMORY.md: one line per entry, never over 200 lines or 25 KB, and a 'N more' line when cut."""

from __future__ import annotations

from shelldon.core.memory.entry import Entry, EntryMeta
from shelldon.core.memory.index import MAX_BYTES, MAX_LINES, index_line, render_index


def entry(stem: str, title: str, *, status: str = "active", collection: str = "facts") -> Entry:
    meta = EntryMeta(
        title=title,
        collection=collection,
        provenance="owner",
        modified="2026-11-29T21:00:00Z",
        status=status,  # type: ignore[arg-type]
        superseded_by="new" if status == "superseded" else "",
    )
    return Entry(meta, "body", stem=stem, collection=collection)


def test_one_line_per_entry_active_first() -> None:
    text = render_index(
        [entry("old", "Call me Sam", status="superseded"), entry("cat", "Mia's cat is Oscar")]
    )
    lines = text.splitlines()
    assert lines[-2] == "- [Mia's cat is Oscar](facts/cat.md) — owner, 2026-11-29"
    assert lines[-1] == "- [Call me Sam](facts/old.md) — owner, 2026-11-29, superseded by new"


def test_empty_memory_says_so() -> None:
    assert "(no entries yet)" in render_index([])


def test_line_bound_with_a_more_line() -> None:
    entries = [entry(f"e{i:04d}", f"entry {i}") for i in range(500)]
    text = render_index(entries)
    lines = text.splitlines()
    assert len(lines) == MAX_LINES
    listed = [line for line in lines if line.startswith("- [")]
    assert lines[-1] == (
        f"- … {500 - len(listed)} more entries not listed here; "
        "`shelldon memory list` shows them all."
    )


def test_byte_bound_with_a_more_line() -> None:
    entries = [entry(f"e{i:03d}", "ü" * 200) for i in range(150)]  # ~300 bytes a line
    text = render_index(entries)
    assert len(text.encode()) <= MAX_BYTES
    lines = text.splitlines()
    listed = [line for line in lines if line.startswith("- [")]
    assert 0 < len(listed) < 150
    assert lines[-1].startswith(f"- … {150 - len(listed)} more entries not listed")


def test_exactly_full_needs_no_more_line() -> None:
    room = MAX_LINES - 4  # the header is four lines
    text = render_index([entry(f"e{i:04d}", f"entry {i}") for i in range(room)])
    assert len(text.splitlines()) == MAX_LINES
    assert "more entr" not in text
    text = render_index([entry(f"e{i:04d}", f"entry {i}") for i in range(room + 1)])
    assert len(text.splitlines()) == MAX_LINES
    assert text.splitlines()[-1].startswith("- … 2 more entries")


def test_long_titles_are_shortened_and_lines_stay_single() -> None:
    line = index_line(entry("x", "word " * 100))
    assert "\n" not in line
    assert len(line) < 200
