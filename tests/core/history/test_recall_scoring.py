"""History recall's passage scoring in Rust (rust/src/passages.rs) ranks exactly as the
pure-Python scoring it replaced (tests/reference/passages.py) on generated chat."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from reference import passages as recall_reference
from shelldon import _native
from shelldon.core.history import recall
from shelldon.core.history.store import open_readonly
from support.scripts import load_script

SCALE = load_script("recall_scale")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("scoring") / "history.db"
    SCALE.fill(db, 3_000).close()
    return db


def _queries() -> list[str]:
    words = SCALE.vocabulary()
    return [
        *SCALE.QUERIES.values(),
        f"tell me about the {words[200]} and the {words[900]} {words[2500]}",
        f"what did I say yesterday about {words[120]}?",
        f"the {words[80]} {words[81]} {words[82]} last week",
        "how are you",
        "you",
    ]


def test_rust_scoring_ranks_as_the_python_reference(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = open_readonly(history)
    newest = reader.recent(1)[0]["ts"]
    now = datetime.fromisoformat(newest) + timedelta(hours=1)
    queries = _queries()
    try:
        rust = [reader.search(q, 22, now=now) for q in queries]
        monkeypatch.setattr(recall, "_rank_passages", recall_reference.rank_passages)
        python = [reader.search(q, 22, now=now) for q in queries]
    finally:
        reader.close()
    assert sum(1 for hits in rust if len(hits) >= 10) >= len(queries) - 1
    assert rust == python


def test_the_scorer_refuses_what_is_not_a_query_term() -> None:
    scorer = _native.PassageScorer(
        terms=["ramen"],
        weights=[1.5],
        k1=0.9,
        b=0.3,
        avg_len=10.0,
        previous_weight=0.7,
        next_weight=0.5,
        date_boost=1.0,
    )
    with pytest.raises(ValueError, match="not a query term"):
        scorer.add([(1, 4)], [(1, "tea", 1)])
    scorer.add([(1, 4), (2, 6)], [(1, "ramen", 2)])
    assert len(scorer) == 2 and 2 in scorer
    assert scorer.best(5) == [1, 2]
    assert scorer.rank(5) == [1, 2]  # row 2 borrows row 1's word: it scores, below row 1


_SUFFIXES = [
    "s",
    "ies",
    "sses",
    "eed",
    "ed",
    "ing",
    "y",
    "ational",
    "tional",
    "enci",
    "izer",
    "abli",
    "alli",
    "entli",
    "ousli",
    "ization",
    "ator",
    "iveness",
    "aliti",
    "biliti",
    "logi",
    "icate",
    "ative",
    "alize",
    "iciti",
    "ical",
    "ful",
    "ness",
    "ement",
    "ion",
    "e",
]
_SUFFIXED = [
    stem + suffix + tail
    for stem in ("relat", "condit", "hop", "happ", "sensibil", "generaliz", "fall", "agre", "sky")
    for suffix in ("", *_SUFFIXES)
    for tail in ("", "s", "ed", "ly")
]


def _wrongly_assumed(words: set[str]) -> list[tuple[str, str]]:
    ordered = sorted(words)
    stems = dict(recall._tokenizer().terms(list(enumerate(ordered, 1))))
    assert len(stems) == len(ordered)
    return [
        (w, stems[i])
        for i, w in enumerate(ordered, 1)
        if not w.startswith(stems[i][: max(0, len(stems[i]) - recall.STEM_GROWS)])
    ]


def test_a_stem_is_its_word_beginning_plus_at_most_stem_grows_letters() -> None:
    # What recall._term_counts relies on to stem only the words that can match.
    assert not _wrongly_assumed({w.lower() for w in SCALE.vocabulary()} | set(_SUFFIXED))


def test_so_is_every_word_of_locomo(shared_data: Path) -> None:
    words: set[str] = set()
    for path in sorted((shared_data / "memory").glob("locomo_*.json")):
        words |= set(re.findall(r"[a-z0-9]+", path.read_text().lower()))
    assert len(words) > 1_000
    assert not _wrongly_assumed(words)


def test_term_counts_match_the_tokenizer_reading_whole_rows() -> None:
    texts = [
        "Relational RELATIONS related, relating; relate_d re-lated",
        "happy HAPPIER happiness happily happy happy",
        "the café's relations — relational naïve",  # not ASCII: tokenized whole
        "x" * 70 + "ing relations " + "relat" * 20,  # longer than porter stems
        "2relations relations2 relations",
        "nothing to see",
        "",
    ]
    rows = {i: (i, "t", "owner", text, "") for i, text in enumerate(texts, 1)}
    tokenizer = recall._tokenizer()
    for query in ("relations happy", "happiness", "see to", "relat" * 20, "a"):
        stems = {term for _, term in tokenizer.terms([(1, query)])}
        weights = dict.fromkeys(stems, 1.0)
        whole = tokenizer.counts([(i, r[3]) for i, r in rows.items()], weights)
        assert sorted(recall._term_counts(tokenizer, rows, weights)) == sorted(whole), query
