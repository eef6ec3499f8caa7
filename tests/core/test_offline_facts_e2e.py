"""Everyday facts said to a real pet with the offline brain become memory entries through the
gate, and "what do you know about me?" is answered from them."""

from __future__ import annotations

from pathlib import Path

from shelldon.core.retrieval.rank import query_tokens
from support.pet import start_pet


def test_everyday_facts_become_entries_and_answer_what_do_you_know_about_me(
    run_dir: Path,
) -> None:
    pet = start_pet()
    try:
        pet.say("my sister is called Ana")
        pet.say("My sister Ana lives in Lisbon")
        pet.say("I really like rainy afternoons")
        pet.say("I work at the harbour office")
        for filler in ("the bus was late", "it rained", "my fan is noisy", "ok", "hm", "right"):
            pet.say(filler)  # the statements leave the recent window
        about = pet.say("what do you know about me?")
    finally:
        assert pet.stop() == 0, pet.log
    people = {p.name: p.read_text() for p in (pet.root.memory / "people").glob("*.md")}
    assert "The owner's sister Ana lives in Lisbon." in people.get("sister-home.md", ""), people
    likes = [p.read_text() for p in (pet.root.memory / "preferences").glob("*.md")]
    assert any("rainy afternoons" in text for text in likes), likes
    facts = [p.read_text() for p in (pet.root.memory / "facts").glob("*.md")]
    assert any("harbour office" in text for text in facts), facts
    audit = (pet.root.memory / "history.jsonl").read_text()
    assert "people/sister-home.md" in audit  # written through the gate, audited
    assert about.startswith("Here's what I know about you:"), about
    assert "Lisbon" in about and "harbour office" in about and "rainy afternoons" in about


def test_a_question_about_the_owner_as_a_whole_is_ranked_by_owner() -> None:
    assert "owner" in query_tokens("what do you know about me?")
    assert "owner" in query_tokens("Tell me about myself")
    assert "owner" not in query_tokens("where does my sister live?")
