"""The offline dream never treats the owner's questions as facts."""

from __future__ import annotations

from shelldon.broker.offline_dream import extractive_summary


def test_questions_never_reach_the_summary() -> None:
    recent = [
        ("owner", "where does my sister live?"),
        ("pet", "You told me your sister lives in Lisbon."),
        ("owner", "Where does my brother work these days"),
        ("owner", "My sister Ana lives in Lisbon near the river."),
        ("owner", "what is my favourite tea called?"),
    ]
    summary = extractive_summary(recent)
    assert summary.splitlines()[1:] == ["- My sister Ana lives in Lisbon near the river."]
    assert "?" not in summary and "brother" not in summary


def test_only_questions_give_no_summary() -> None:
    assert extractive_summary([("owner", "where does my sister live?")]) == ""


def test_words_the_owner_forwarded_are_not_what_the_owner_told() -> None:
    """A forwarded message (contracts.relayed) is someone else's: none of its sentences is
    summarised as something the owner said."""
    from shelldon.contracts import relayed

    said = relayed.frame("Anna", "I moved to Lisbon last spring. My sister is called Ana Maria.")
    assert extractive_summary([("owner", said)]) == ""
    assert "Ana Maria" in extractive_summary([("owner", relayed.body_of(said))])
