"""Provenance has one order, owner > observed > inferred, and every user reads it from one place."""

from __future__ import annotations

import pytest

from shelldon._native import RankEntry, Ranker
from shelldon.contracts.provenance import PROVENANCES, most_trusted, outranks, rank


def test_the_order_is_owner_observed_inferred() -> None:
    assert PROVENANCES == ("owner", "observed", "inferred")
    assert [rank(p) for p in PROVENANCES] == [0, 1, 2]
    assert outranks("owner", "observed") and outranks("observed", "inferred")
    assert not outranks("inferred", "owner") and not outranks("owner", "owner")


def test_an_unknown_provenance_ranks_with_the_least_trusted() -> None:
    assert rank("rumour") == rank("inferred")
    assert not outranks("rumour", "inferred") and not outranks("inferred", "rumour")


@pytest.mark.parametrize(
    ("a", "b", "kept"),
    [
        ("owner", "inferred", "owner"),
        ("inferred", "owner", "owner"),
        ("observed", "inferred", "observed"),
        ("inferred", "inferred", "inferred"),
    ],
)
def test_most_trusted_keeps_the_higher(a: str, b: str, kept: str) -> None:
    assert most_trusted(a, b) == kept  # type: ignore[arg-type]


def test_the_rust_ranker_reads_the_same_order() -> None:
    """Two entries alike but for provenance: the ranker puts the more trusted first."""

    def entry(ident: str, provenance: str) -> RankEntry:
        return RankEntry(
            id=ident,
            title=[],
            tags=[],
            body=["tea"],
            paths=[],
            trust=rank(provenance),
            confidence=1.0,
            updated=1.8e9,
            stale=False,
        )

    for high, low in [("owner", "observed"), ("observed", "inferred")]:
        ranked = Ranker([entry("a", low), entry("b", high)]).rank(["tea"], [], 1.8e9, 2)
        assert [i for i, _, _ in ranked] == [1, 0], (high, low)
