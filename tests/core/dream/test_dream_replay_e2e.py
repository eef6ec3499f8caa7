"""A dream never makes a right answer wrong. The same conversation is replayed on two real pets
with the offline brain; one of them dreams (`shelldon dream --now`) before the same questions are
asked of both. Every answer right without the dream is right after it, and the dream's summary
holds none of the owner's questions."""

from __future__ import annotations

from pathlib import Path

from support.pet import Pet, start_pet

CONVERSATION = (
    "I usually walk by the river after work",  # a habit said twice: the dream promotes it
    "my sister is called Ana",
    "My sister lives in Lisbon near the old cathedral",
    "where does my sister live?",
    "I work at the harbour office downtown",
    "what is my sister called?",
    "I love green tea with honey in the morning",
    "I am allergic to peanuts and cashews",
    "what am I allergic to?",
    "my favourite colour is deep blue",
    "Where does my sister Ana live these days?",
    "I usually walk by the river after work",
)
# Each question and a word its right answer holds.
QUESTIONS = (
    ("where does my sister live?", "Lisbon"),
    ("what is my sister called?", "Ana"),
    ("where do I work?", "harbour"),
    ("what am I allergic to?", "peanuts"),
    ("what is my favourite colour?", "blue"),
    ("what is your name?", "shelldon"),
)


def _replay(home: Path, *, dream: bool) -> tuple[list[str], str]:
    pet: Pet = start_pet({"SHELLDON_HOME": str(home)})
    summary = ""
    try:
        for text in CONVERSATION:
            pet.say(text)
        if dream:
            dreamt = pet.cli("dream", "--now")
            assert dreamt.returncode == 0, dreamt.stderr + pet.log
            assert dreamt.stdout.startswith("dream-1: done"), dreamt.stdout
            summary = (pet.root.memory / "summary.md").read_text()
        answers = [pet.say(question) for question, _ in QUESTIONS]
    finally:
        assert pet.stop() == 0, pet.log
    return answers, summary


def test_a_dream_makes_no_right_answer_wrong(run_dir: Path, tmp_path: Path) -> None:
    before, _ = _replay(tmp_path / "no-dream", dream=False)
    after, summary = _replay(tmp_path / "dreamt", dream=True)

    assert "?" not in summary and "where does" not in summary.casefold(), summary
    assert "deep blue" in summary  # the summary holds the owner's statements
    right_before = [i for i, (_, word) in enumerate(QUESTIONS) if word in before[i]]
    assert len(right_before) == len(QUESTIONS), before  # the replay means something
    broken = {
        QUESTIONS[i][0]: (before[i], after[i])
        for i in right_before
        if QUESTIONS[i][1] not in after[i]
    }
    assert broken == {}
