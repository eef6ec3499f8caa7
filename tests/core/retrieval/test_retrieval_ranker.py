"""The Rust Ranker: its ordering properties, bad input, and agreement with the Python reference."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.ranker import ReferenceRanker
from shelldon._native import RankEntry, Ranker

DAY = 86_400.0
NOW = 1_800_000_000.0


def make(
    ident: str,
    body: str,
    *,
    title: str = "",
    tags: str = "",
    paths: tuple[str, ...] = (),
    trust: int = 2,
    confidence: float = 1.0,
    updated: float = NOW,
    stale: bool = False,
    unverified: bool = False,
) -> RankEntry:
    return RankEntry(
        id=ident,
        title=title.split(),
        tags=tags.split(),
        body=body.split(),
        paths=list(paths),
        trust=trust,
        confidence=confidence,
        updated=updated,
        stale=stale,
        unverified=unverified,
    )


def order(entries: list[RankEntry], query: str, paths: tuple[str, ...] = ()) -> list[str]:
    ranker = Ranker(entries)
    return [entries[i].id for i, _, _ in ranker.rank(query.split(), list(paths), NOW, 100)]


def test_shared_words_decide_before_anything_else() -> None:
    entries = [
        make("a", "owner drinks green tea every morning"),
        make("b", "the cat is called oscar", trust=2),
        make("c", "sister ana lives in lisbon", trust=0),
    ]
    assert order(entries, "what is the cat called")[0] == "b"
    assert order(entries, "green tea")[0] == "a"
    assert order(entries, "lisbon")[0] == "c"


def test_title_and_tag_words_weigh_more_than_body_words() -> None:
    entries = [make("a", "x y z tea"), make("b", "x y z w", title="tea")]
    assert order(entries, "tea") == ["b", "a"]
    entries = [make("a", "x y z tea"), make("b", "x y z w", tags="tea")]
    assert order(entries, "tea") == ["b", "a"]


def test_rarer_words_count_more() -> None:
    entries = [
        make("common", "cat cat"),
        make("rare", "oscar"),
        *(make(f"filler{i}", "cat") for i in range(5)),
    ]
    assert order(entries, "cat oscar")[0] == "rare"


def test_owner_outranks_every_inference_of_equal_relevance() -> None:
    # The owner's entry is as old and unsure as it can be; the inference fresh and certain.
    owner = make("z", "cat oscar", trust=0, confidence=0.0, updated=NOW - 3650 * DAY)
    observed = make("y", "cat oscar", trust=1, confidence=0.0, updated=NOW - 3650 * DAY)
    fresh_observed = make("x", "cat oscar", trust=1, confidence=1.0, updated=NOW)
    inferred = make("a", "cat oscar", trust=2, confidence=1.0, updated=NOW)
    assert order([inferred, observed, fresh_observed, owner], "cat") == ["z", "x", "y", "a"]


def test_recency_and_confidence_order_equals() -> None:
    old = make("a", "tea", updated=NOW - 90 * DAY)
    new = make("b", "tea", updated=NOW)
    assert order([old, new], "tea") == ["b", "a"]
    unsure = make("a", "tea", confidence=0.2)
    sure = make("b", "tea", confidence=0.9)
    assert order([sure, unsure], "tea") == ["b", "a"]


def test_an_unverified_entry_never_outranks_a_confirmed_one_of_equal_relevance() -> None:
    # The strongest unverified (the owner's, fresh, sure) against the weakest confirmed (an old,
    # unsure inference): the confirmed one still goes first.
    strong = make("a-unverified", "build with make", trust=0, unverified=True)
    weak = make("z-confirmed", "build with make", trust=2, confidence=0.0, updated=NOW - 3650 * DAY)
    assert order([strong, weak], "build") == ["z-confirmed", "a-unverified"]
    without_mark = make("a-unverified", "build with make", trust=0)
    assert order([without_mark, weak], "build") == ["a-unverified", "z-confirmed"]  # it is the mark


def test_a_stale_entry_ranks_below_its_fresh_twin() -> None:
    assert order(
        [make("a", "build with make", stale=True), make("b", "build with make")], "build"
    ) == [
        "b",
        "a",
    ]


def test_shared_paths_count_as_relevance() -> None:
    entries = [make("a", "notes"), make("b", "notes", paths=("src/main.rs",))]
    ranked = Ranker(entries).rank([], ["src/main.rs"], NOW, 10)
    assert [entries[i].id for i, _, _ in ranked] == ["b", "a"]
    assert ranked[0][2] == pytest.approx(2.0)
    assert ranked[1][2] == 0.0


def test_ties_break_by_id_whatever_the_build_order() -> None:
    entries = [make(ident, "same words") for ident in ("m", "c", "x", "a")]
    assert order(entries, "same") == ["a", "c", "m", "x"]
    assert order(list(reversed(entries)), "same") == ["a", "c", "m", "x"]


def test_limit_len_and_empty() -> None:
    ranker = Ranker([make("a", "x"), make("b", "x")])
    assert len(ranker) == 2
    assert len(ranker.rank(["x"], [], NOW, 1)) == 1
    assert Ranker([]).rank(["x"], [], NOW, 5) == []


def _fields(entry: RankEntry) -> dict[str, object]:
    names = (
        "id",
        "title",
        "tags",
        "body",
        "paths",
        "trust",
        "confidence",
        "updated",
        "stale",
        "unverified",
    )
    return {name: getattr(entry, name) for name in names}


def test_rank_entry_is_a_keyword_only_record() -> None:
    entry = make("facts/cat", "the cat oscar", title="cat", paths=("a.md",), trust=0)
    assert (entry.id, entry.title, entry.body, entry.paths) == (
        "facts/cat",
        ["cat"],
        ["the", "cat", "oscar"],
        ["a.md"],
    )
    assert (entry.trust, entry.confidence, entry.updated, entry.stale) == (0, 1.0, NOW, False)
    assert entry == make("facts/cat", "the cat oscar", title="cat", paths=("a.md",), trust=0)
    assert entry != make("facts/cat", "the cat oscar", title="cat", paths=("a.md",), trust=1)
    assert repr(entry).startswith("RankEntry(id='facts/cat', title=['cat'], tags=[], body=")
    with pytest.raises(TypeError):
        RankEntry("a", [], [], [], [], 0, 1.0, NOW, False)  # type: ignore[misc]
    with pytest.raises(TypeError):  # a string is not a list of tokens
        RankEntry(**{**_fields(entry), "title": "cat"})
    with pytest.raises(AttributeError):
        entry.trust = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    "entry",
    [
        make("a", "x", trust=3),
        make("a", "x", confidence=math.nan),
        make("a", "x", updated=math.inf),
    ],
)
def test_bad_entries_are_value_errors(entry: RankEntry) -> None:
    with pytest.raises(ValueError):
        Ranker([entry])


def test_bad_calls_are_clear_errors() -> None:
    ranker = Ranker([make("a", "x")])
    with pytest.raises(ValueError):
        ranker.rank(["x"], [], math.nan, 1)
    with pytest.raises(TypeError):
        ranker.rank("x", [], NOW, 1)  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        ranker.rank(["x"], [], NOW, -1)


# --- differential: the Rust ranker and the Python reference agree ---------------------------

_words = st.lists(
    st.sampled_from(["cat", "oscar", "tea", "mia", "tom", "é", "中", "x1", "a_b"]), max_size=8
)
_paths = st.lists(st.sampled_from(["a.md", "src/x.rs", "notes/", "b"]), max_size=3)
_entries = st.lists(
    st.builds(
        RankEntry,
        id=st.text(alphabet="abcdefé", min_size=1, max_size=4),
        title=_words,
        tags=_words,
        body=_words,
        paths=_paths,
        trust=st.integers(0, 2),
        confidence=st.floats(-1.0, 2.0, allow_nan=False),
        updated=st.floats(NOW - 400 * DAY, NOW + DAY, allow_nan=False),
        stale=st.booleans(),
        unverified=st.booleans(),
    ),
    max_size=12,
)


@settings(max_examples=400, deadline=None)
@given(entries=_entries, query=_words, paths=_paths, limit=st.integers(0, 20))
def test_rust_and_reference_agree(
    entries: list[RankEntry], query: list[str], paths: list[str], limit: int
) -> None:
    got = Ranker(entries).rank(query, paths, NOW, limit)
    want = ReferenceRanker(entries).rank(query, paths, NOW, limit)
    assert [i for i, _, _ in got] == [i for i, _, _ in want]
    for (_, score, rel), (_, ref_score, ref_rel) in zip(got, want, strict=True):
        assert score == pytest.approx(ref_score, rel=1e-12, abs=1e-15)
        assert rel == pytest.approx(ref_rel, rel=1e-12, abs=1e-15)
