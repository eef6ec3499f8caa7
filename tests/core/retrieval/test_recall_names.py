"""`expand_query_texts` reads only the entries that can link the question's names or relations:
the same words come out as reading every entry."""

from __future__ import annotations

import re

import pytest

from shelldon.core.retrieval import names as recall_names

TEXTS = [
    "Ana is my sister.",
    "MY SISTER Noor moved to Lisbon",
    "Tomas, my brother, plays piano",
    "Melanie's kids love the beach",
    "a dog named Rex",
    "The owner's cousin Ines visits in June",
    "my sıster Kofi",  # a dotless i: case-blind matching reads it as "sister"
    "Mei told the owner about the garden",
    "our friends Ana and Mei",
    "Ana's garden is lovely",
] * 3


def _reading_every_entry(query: str, texts: list[str]) -> str:
    """The loop before the filter: every entry's links."""
    relations = {
        recall_names._singular(m.group("rel").casefold())
        for m in recall_names._QUERY_RELATION.finditer(query)
    }
    names = {m.group(0).removesuffix("'s") for m in recall_names._QUERY_NAME.finditer(query)}
    added: list[str] = []
    present = {w.casefold() for w in re.findall(r"\w+", query)}
    for relation, name in recall_names.links(texts):
        word = name if relation in relations else relation if name in names else None
        if word is not None and word.casefold() not in present and word not in added:
            added.append(word)
        if len(added) >= recall_names.MAX_ADDED:
            break
    return f"{query} {' '.join(added)}" if added else query


@pytest.mark.parametrize(
    "query",
    [
        "what did my sister say?",
        "How is Rex?",
        "What did Ana and Tomas do?",
        "what about the kids and my brother",
        "Is Kofi well?",
        "What did you do today?",
        "Hey, what did I tell you about Mei?",
        "my cousin and my friend",
    ],
)
def test_filtering_the_entries_changes_no_word(query: str) -> None:
    expected = _reading_every_entry(query, TEXTS)
    assert recall_names.expand_query_texts(query, TEXTS) == expected


def test_the_filter_keeps_what_links() -> None:
    assert recall_names.expand_query_texts("what did my sister say?", TEXTS).endswith("Ana Noor")
    assert recall_names.expand_query_texts("Is Kofi well?", TEXTS) == "Is Kofi well? sıster"


EDGES = [
    "my sister Ana",
    "MY SISTER Noor",
    "my sıster Kofi",  # dotless i
    "a \u212aid named Rex",  # the Kelvin sign folds to "k" case-blind, not by lower-casing
    "Ana's garden",
    "nothing to see",
    "Tomas plays piano",
    "Ines, the owner's cousin",
    "Çağla is my friend",
]


@pytest.mark.parametrize(
    ("relations", "names"),
    [
        ({"sister"}, set()),
        ({"sister", "kid"}, {"Rex"}),
        (set(), {"Ana", "Tomas"}),
        ({"sıster"}, set()),  # a query's own dotless i: folds to "sister" in any text
        ({"cousin", "friend"}, {"Çağla"}),
    ],
)
def test_the_mention_test_is_the_case_blind_pattern(relations: set[str], names: set[str]) -> None:
    """names._Mentions (substring tests) keeps exactly the texts the pattern it replaced kept."""
    alternatives = [f"(?i:{'|'.join(sorted(relations))})"] if relations else []
    alternatives.extend(re.escape(name) for name in sorted(names))
    pattern = re.compile("|".join(alternatives))
    mentions = recall_names._Mentions(relations, names)
    for text in [*EDGES, *TEXTS]:
        assert mentions.search(text) == bool(pattern.search(text)), text
