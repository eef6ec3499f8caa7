"""Entry front matter: render/parse round trip, tolerant parse, format versions."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shelldon.contracts.ops import Remember
from shelldon.core.memory import entry as entry_module
from shelldon.core.memory.entry import (
    FORMAT_VERSION,
    UNVERSIONED_FORMAT,
    EntryMeta,
    parse_entry,
    render_entry,
    upgrade_front_matter,
)
from shelldon.core.memory.lifecycle import CuratedMemory

META = EntryMeta(
    title="José, my friend",
    collection="people",
    provenance="owner",
    confidence=0.9,
    created="2026-11-29T21:00:00Z",
    modified="2026-11-29T21:05:00Z",
    last_confirmed="2026-11-29T21:05:00Z",
    supersedes=("jose-old",),
    superseded_by="",
    status="active",
    depends_on=("people/ana.md",),
    tags=("friend", 'quote"d'),
)


def test_round_trip() -> None:
    entry = parse_entry(render_entry(META, "Likes chess.\n---\nnot a fence problem\n"))
    assert entry.meta == META
    assert entry.body == "Likes chess.\n---\nnot a fence problem\n"
    assert not entry.defaulted


def test_it_is_readable() -> None:
    text = render_entry(META, "body")
    assert text.startswith("---\ntitle: José, my friend\ncollection: people\nprovenance: owner\n")
    assert 'tags: ["friend", "quote\\"d"]' in text


def test_multiline_scalars_cannot_break_the_block() -> None:
    meta = EntryMeta(title="a\n---\nprovenance: owner")
    entry = parse_entry(render_entry(meta, "b"))
    assert entry.meta.provenance == "inferred"
    assert entry.meta.title == "a --- provenance: owner"


@pytest.mark.parametrize(
    "text",
    ["no front matter at all", "---\nnot closed", "---\nno colon here\n---\nbody", "", "---\n"],
)
def test_unparseable_is_inferred_defaults(text: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        entry = parse_entry(text, source="facts/x.md")
    assert entry.meta == EntryMeta()
    assert entry.meta.provenance == "inferred"
    assert entry.defaulted


def test_bad_values_fall_back_per_field(caplog: pytest.LogCaptureFixture) -> None:
    text = (
        '---\nprovenance: god\nconfidence: 7\ncreated: yesterday\ntags: {"a": 1}\n'
        "title: ok\nfuture_key: whatever\n---\nbody\n"
    )
    with caplog.at_level(logging.WARNING):
        entry = parse_entry(text, source="facts/x.md")
    assert entry.meta == EntryMeta(title="ok")
    assert "facts/x.md" in caplog.text
    assert not entry.defaulted


def test_nan_confidence_is_refused() -> None:
    assert parse_entry("---\nconfidence: nan\n---\n").meta.confidence == 0.5


_SCALAR = st.text(max_size=40)
_LIST = st.lists(st.text(max_size=15), max_size=4).map(tuple)
_META = st.builds(
    EntryMeta,
    title=_SCALAR,
    collection=st.sampled_from(["facts", "people", "preferences", "capabilities"]),
    provenance=st.sampled_from(["owner", "observed", "inferred"]),
    confidence=st.floats(0.0, 1.0),
    created=st.just("2026-11-29T21:00:00Z"),
    modified=st.just(""),
    last_confirmed=st.just("2026-11-29T21:00:00Z"),
    supersedes=_LIST,
    superseded_by=st.text(alphabet="abc-", max_size=8),
    status=st.sampled_from(["active", "superseded"]),
    depends_on=_LIST,
    tags=_LIST,
)


@settings(max_examples=300, deadline=None)
@given(_META, st.text(max_size=200))
def test_render_then_parse_round_trips(meta: EntryMeta, body: str) -> None:
    entry = parse_entry(render_entry(meta, body))
    assert not entry.defaulted
    expected_title = " ".join(meta.title.split())
    assert entry.meta == replace(
        meta, title=expected_title, superseded_by=meta.superseded_by.strip()
    )
    assert entry.body == (body if body == "" or body.endswith("\n") else body + "\n")


@settings(max_examples=500, deadline=None)
@given(
    st.text(max_size=300) | st.just("---\n").flatmap(lambda h: st.text(max_size=200).map(h.__add__))
)
def test_parse_never_raises(text: str) -> None:
    entry = parse_entry(text)
    assert entry.meta.provenance in ("owner", "observed", "inferred")
    assert 0.0 <= entry.meta.confidence <= 1.0


# --- format versions --------------------------------------------------------------------------

V1_ENTRY = Path(__file__).parents[1] / "fixtures" / "entry_v1.md"  # the last release's render_entry


def test_an_entry_without_a_format_reads_as_version_1_with_every_field() -> None:
    entry = parse_entry(V1_ENTRY.read_text(), source="facts/tea.md")
    assert entry.format == UNVERSIONED_FORMAT == 1
    assert not entry.defaulted
    assert entry.meta == EntryMeta(
        title="tea",
        collection="facts",
        provenance="owner",
        confidence=0.9,
        created="2026-11-29T21:00:00Z",
        modified="2026-11-29T21:05:00Z",
        last_confirmed="2026-11-29T21:05:00Z",
        tags=("drinks",),
    )


def test_rendering_writes_the_current_format_and_keeps_every_field() -> None:
    old = parse_entry(V1_ENTRY.read_text())
    text = render_entry(old.meta, old.body)
    assert f"\nformat: {FORMAT_VERSION}\n---\n" in text
    new = parse_entry(text)
    assert (new.format, new.meta, new.body) == (FORMAT_VERSION, old.meta, old.body)


def test_every_older_version_has_an_upgrade_step() -> None:
    assert sorted(entry_module._UPGRADES) == list(range(1, FORMAT_VERSION))
    raw = {"title": "tea", "provenance": "owner"}
    assert upgrade_front_matter(dict(raw), 1) == raw  # 1 -> 2 changes no field


def test_an_old_entry_is_upgraded_when_the_write_path_rewrites_it_not_before(home: Path) -> None:
    memory = CuratedMemory(home / "memory")
    untouched = home / "memory" / "facts" / "coffee.md"
    untouched.write_text(V1_ENTRY.read_text().replace("tea", "coffee"))
    tea = home / "memory" / "facts" / "tea.md"
    tea.write_text(V1_ENTRY.read_text())
    before = untouched.read_bytes()
    CuratedMemory(home / "memory")  # a start: nothing is rewritten eagerly
    assert tea.read_text() == V1_ENTRY.read_text()
    # A new tea fact: the gate supersedes the old one, whose file is rewritten (marked, archived).
    applied = memory.apply_memory_op(
        Remember(
            collection="facts", name="tea", content="The owner drinks green tea with honey now."
        ),
        provenance="owner",
    )
    assert applied.supersedes == ("tea",)
    # Marked and moved to the archive (off the hot path): rewritten in the current format.
    assert not tea.exists()
    rewritten = parse_entry((home / "memory" / "archive" / "facts" / "tea.md").read_text())
    assert rewritten.format == FORMAT_VERSION
    assert rewritten.meta.created == "2026-11-29T21:00:00Z"  # kept from the version-1 file
    assert rewritten.meta.tags == ("drinks",)
    assert rewritten.meta.status == "superseded"
    assert untouched.read_bytes() == before  # the other old entry stays as it was


@pytest.mark.parametrize(("value", "read_as"), [("x", 1), ("0", 1), ("3", 3)])
def test_an_odd_or_newer_format_still_reads_the_known_fields(value: str, read_as: int) -> None:
    text = V1_ENTRY.read_text().replace("\n---\nThe", f"\nformat: {value}\nnew_key: z\n---\nThe")
    entry = parse_entry(text)
    assert entry.format == read_as
    assert entry.meta.title == "tea" and entry.meta.provenance == "owner"
