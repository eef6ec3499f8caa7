"""Properties of gate.decide over generated collections and candidates (hypothesis).

Whatever the inputs: the target is an entry the gate was shown; an owner entry is never
superseded or updated by a lower provenance; a create never lands in a collection already at its
cap unless it is a merge that does not grow it; reasons never contain a credential; and deciding
is deterministic (same inputs, same decision)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shelldon.core.gate import Candidate, ExistingEntry, Limits, decide

SECRET = "ghp_gaKjIg8xNbe3nNyjOq9wMxEhh2FDEEtfjgVv"
WORDS = [
    "Mia",
    "Tom",
    "Oscar",
    "owner",
    "sister",
    "cat",
    "dog",
    "likes",
    "tea",
    "coffee",
    "lives",
    "in",
    "Lyon",
    "Paris",
    "always",
    "never",
    "reply",
    "French",
    "English",
    "2",
    "3",
    "not",
    "called",
    "named",
    "has",
    "the",
    "a",
    "and",
]
PROVENANCE = st.sampled_from(["owner", "observed", "inferred"])
COLLECTIONS = st.sampled_from(["facts", "people", "preferences"])
BODY = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join),
    st.just(f"the deploy token is {SECRET}"),
)


@st.composite
def entries(draw: st.DrawFn) -> list[ExistingEntry]:
    n = draw(st.integers(0, 8))
    return [
        ExistingEntry(
            stem=f"e{i}",
            collection=draw(COLLECTIONS),
            title=f"entry {i}",
            body=draw(BODY.filter(lambda b: SECRET not in b)),
            provenance=draw(PROVENANCE),
            status=draw(st.sampled_from(["active", "active", "superseded"])),
        )
        for i in range(n)
    ]


@st.composite
def candidates(draw: st.DrawFn) -> Candidate:
    return Candidate(
        collection=draw(COLLECTIONS),
        title="a candidate",
        body=draw(BODY),
        provenance=draw(PROVENANCE),
        stem=draw(st.one_of(st.none(), st.sampled_from([f"e{i}" for i in range(10)]))),
        merges=tuple(draw(st.lists(st.sampled_from([f"e{i}" for i in range(10)]), max_size=3))),
    )


RANK = {"owner": 3, "observed": 2, "inferred": 1}


@settings(max_examples=150, deadline=None)
@given(candidates(), entries(), st.integers(1, 6))
def test_decide_invariants(candidate: Candidate, existing: list[ExistingEntry], cap: int) -> None:
    limits = Limits(collection_cap=cap)
    decision = decide(candidate, existing, limits)
    assert decision == decide(candidate, existing, limits)
    assert SECRET not in decision.reason
    active = {e.stem: e for e in existing if e.status == "active"}
    shown = {e.stem for e in existing}
    if decision.target is not None:
        assert decision.target in shown
    for stem in decision.supersedes:
        assert stem in active
        if active[stem].provenance == "owner":
            assert candidate.provenance == "owner"
    if decision.action == "update":
        target = active[decision.target or ""]
        assert RANK[candidate.provenance] >= RANK[target.provenance]
    if decision.action == "create":
        in_collection = sum(1 for e in active.values() if e.collection == candidate.collection)
        after = in_collection - len(decision.supersedes) + 1
        assert after <= cap or after <= in_collection
    if SECRET in candidate.body:
        assert (decision.action, decision.reason_code) == ("reject", "secret")
