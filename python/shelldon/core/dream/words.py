"""The dream's own words: which words carry content, and when two texts are about the same thing.

Used to pair a promotion with the write that keeps it, to hold back what the owner corrected,
and to match an owner rule against a learning. Kept apart so the word lists can later be merged
with the other modules' in one place without touching the dream's logic.
"""

from __future__ import annotations

import re
import unicodedata

_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "your",
        "with",
        "that",
        "this",
        "have",
        "has",
        "had",
        "was",
        "were",
        "will",
        "would",
        "can",
        "could",
        "they",
        "them",
        "their",
        "there",
        "then",
        "than",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "how",
        "all",
        "any",
        "some",
        "into",
        "from",
        "over",
        "under",
        "about",
        "after",
        "before",
        "again",
        "more",
        "most",
        "other",
        "such",
        "only",
        "own",
        "same",
        "very",
        "just",
        "also",
        "owner",
        "pet",
        "its",
        "it's",
        "i'm",
        "she",
        "her",
        "his",
        "him",
        "our",
        "ours",
        "seems",
        "likely",
        "often",
        "usually",
        "says",
        "said",
    ]
)


def _stem(word: str) -> str:
    """A crude suffix strip so "called"/"call" and "likes"/"like" meet; enough for overlap tests."""
    for suffix in ("ing", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return {_stem(w) for w in re.findall(r"\w+", folded) if len(w) >= 3 and w not in _STOPWORDS}


def shares_words(a: str, b: str, *, at_least: int = 1) -> bool:
    return len(content_words(a) & content_words(b)) >= at_least


def near(text: str, observation: str) -> bool:
    """`text` says most of what `observation` says (at least two of its content words, or half)."""
    words = content_words(observation)
    if not words:
        return False
    shared = words & content_words(text)
    return len(shared) >= max(2, (len(words) + 1) // 2)
