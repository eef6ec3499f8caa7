"""Names and relations from curated memory, for history recall: "my sister" <-> Ana.

History rows say "Ana called" where the owner later asks "what did my sister say?": the two share
no word. Curated memory often holds the link ("Ana is my sister", "The owner's sister Ana…",
"Melanie's kids"), so before the history search the worker adds, for each relation the question
names, the names memory links to it, and for each name the question uses, its relations
(`expand_query`). Pure: the worker passes the entries it has already read; no I/O, no clock.

The patterns are English and narrow on purpose: a name is a capitalised word, a relation one of
RELATION_WORDS, linked by apposition ("my sister Ana", "Ana, my sister"), by "is/was" ("Ana is my
sister"), or by "named/called" ("a sister named Ana"). At most MAX_ADDED words are added, so a
memory full of relations cannot flood the query.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from shelldon.core.memory.entry import Entry

RELATION_WORDS = (
    "sister",
    "brother",
    "sibling",
    "mother",
    "mom",
    "mum",
    "father",
    "dad",
    "parent",
    "wife",
    "husband",
    "partner",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "son",
    "daughter",
    "kid",
    "children",
    "child",
    "baby",
    "grandma",
    "grandpa",
    "grandmother",
    "grandfather",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "friend",
    "colleague",
    "coworker",
    "boss",
    "neighbour",
    "neighbor",
    "roommate",
    "mentor",
    "cat",
    "dog",
    "pet",
)
MAX_ADDED = 4

_REL = r"(?P<rel>(?i:" + "|".join(RELATION_WORDS) + r"))(?:s|es)?"
_NAME = r"(?P<name>[A-Z][\w'-]*[a-z][\w-]*)"
_OWNER = r"(?:(?i:my|our|his|her|their|the owner's)|[A-Z]\w+'s)"
_LINKS = (
    re.compile(rf"\b{_OWNER} (?:\w+ )?{_REL},? (?:is |was |named |called )?{_NAME}"),
    re.compile(rf"\b{_NAME},? (?:is |was )?{_OWNER} (?:\w+ )?{_REL}\b"),
    re.compile(rf"\b(?i:a|an) {_REL} (?:named|called) {_NAME}"),
)
_QUERY_RELATION = re.compile(rf"\b{_REL}\b", re.IGNORECASE)
_QUERY_NAME = re.compile(r"\b[A-Z][\w'-]*[a-z]")
_NOT_NAMES = frozenset({"The", "This", "That", "She", "He", "They", "It", "What", "When", "Who"})


def links(texts: Iterable[str]) -> list[tuple[str, str]]:
    """Every (relation, name) pair the texts state, relation singular and lower-case."""
    found: list[tuple[str, str]] = []
    for text in texts:
        for pattern in _LINKS:
            for m in pattern.finditer(text):
                name = m.group("name").removesuffix("'s")
                if name in _NOT_NAMES:
                    continue
                pair = (_singular(m.group("rel").casefold()), name)
                if pair not in found:
                    found.append(pair)
    return found


def expand_query(query: str, entries: Sequence[Entry]) -> str:
    """`query` with the names memory links to the relations it names, and the relations of the
    names it uses, appended (at most MAX_ADDED words; unchanged when memory links nothing)."""
    active = (e for e in entries if e.meta.status == "active" and not e.archived)
    return expand_query_texts(query, (f"{e.meta.title}\n{e.body}" for e in active))


def expand_query_texts(query: str, texts: Iterable[str]) -> str:
    """`expand_query` over the active entries' texts (title, newline, body) as already read: the
    worker has them from core's entry terms (core.retrieval.terms) without reading the tree."""
    relations = {_singular(m.group("rel").casefold()) for m in _QUERY_RELATION.finditer(query)}
    names = {m.group(0).removesuffix("'s") for m in _QUERY_NAME.finditer(query)} - _NOT_NAMES
    if not relations and not names:
        return query
    # Only a text that holds one of the query's relations or names can link them: the others
    # are not searched (the patterns over 200 entries are ~1 ms, and this runs every turn).
    mentions = _Mentions(relations, names)
    added: list[str] = []
    present = {w.casefold() for w in re.findall(r"\w+", query)}
    for relation, name in links(t for t in texts if mentions.search(t) and _may_relate(t)):
        word = name if relation in relations else relation if name in names else None
        if word is not None and word.casefold() not in present and word not in added:
            added.append(word)
        if len(added) >= MAX_ADDED:
            break
    return f"{query} {' '.join(added)}" if added else query


_ANY_RELATION = re.compile("|".join(RELATION_WORDS))


class _Mentions:
    """Whether a text holds one of the query's names (as written) or relations (case-blind).
    Plain substring tests: a pattern built from each query would be compiled in every worker,
    whose `re` cache starts cold for it (~0.3 ms a turn). An ASCII text is lower-cased (the
    relations are ASCII and lower-case); any other goes through the case-blind pattern, built
    once per query and only then ("sıster" is "sister" to it, not to lower-casing)."""

    def __init__(self, relations: set[str], names: set[str]) -> None:
        self._relations = sorted(relations)
        self._names = sorted(names)
        self._blind: re.Pattern[str] | None = None
        # A relation the query wrote with a letter only case-blind matching folds ("sıster")
        # is not ASCII: then every text goes through the pattern.
        self._ascii = all(relation.isascii() for relation in self._relations)

    def search(self, text: str) -> bool:
        if any(name in text for name in self._names):
            return True
        if not self._relations:
            return False
        if self._ascii and text.isascii():
            lower = text.lower()
            return any(relation in lower for relation in self._relations)
        if self._blind is None:
            self._blind = re.compile(f"(?i:{'|'.join(self._relations)})")
        return self._blind.search(text) is not None


def _may_relate(text: str) -> bool:
    """False only when no pattern can match: every one needs a relation word. An ASCII text is
    lower-cased and searched plainly (a case-blind pattern is ~35 us a text); any other is kept
    (case-blind matching knows letters such as "ı" that lower-casing does not map)."""
    return not text.isascii() or _ANY_RELATION.search(text.lower()) is not None


def _singular(word: str) -> str:
    for relation in RELATION_WORDS:
        if word == relation or word in (f"{relation}s", f"{relation}es"):
            return relation
    return word
