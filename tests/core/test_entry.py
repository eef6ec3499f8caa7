"""Entry front matter: render/parse round trip, tolerant parse."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shelldon.core.entry import EntryMeta, parse_entry, render_entry

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
