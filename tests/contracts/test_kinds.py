"""contracts.kinds: the kinds of things an owner likes, one home for ranking and the offline
brain."""

from __future__ import annotations

from shelldon.broker import offline_topics
from shelldon.contracts.kinds import KIND_INSTANCES, KIND_NAMES


def test_every_kind_has_words_that_ask_and_words_that_name() -> None:
    assert set(KIND_NAMES) == set(KIND_INSTANCES)
    for kind in KIND_NAMES:
        assert KIND_NAMES[kind] and KIND_INSTANCES[kind], kind
        asked = set(KIND_NAMES[kind])
        assert not asked & set(KIND_INSTANCES[kind]), kind  # a word asks or names, not both
        for other in KIND_NAMES:
            if other != kind:
                assert not asked & set(KIND_NAMES[other]), (kind, other)


def test_the_offline_brain_reads_the_same_words() -> None:
    for kind, words in KIND_INSTANCES.items():
        for word in words:
            assert offline_topics.names_kind(f"The owner loves {word}.", kind), (kind, word)
    assert offline_topics.kind_asked("what do I like to drink?") == "drink"
    assert offline_topics.kind_asked("what music do I like?") == "listen"
    assert offline_topics.kind_asked("where do I live?") is None
