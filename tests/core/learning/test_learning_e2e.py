"""The seed's whole learning loop with real processes and the offline brain.

`shelldon run` starts core, broker and fork-server. A habit said in several turns becomes one
pending learning with a recurrence count; `shelldon dream --now` runs a real dream worker whose
offline brain promotes it into a curated file and resolves it; a later turn's prompt (kept in
state/prompts.jsonl, SHELLDON_RECORD_PROMPTS=1) carries it in the curated section while neither the
recent window (two messages) nor recall holds it. Then `shelldon memory undo --dream 1` reverts
the dream whole: the file and the learning's status.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from support.pet import Pet, prompt_section, start_pet

HABIT = "I usually drink jasmine tea in the evening"
FILLER = ("the bus was late today", "my laptop fan is noisy", "it rained all afternoon")
QUESTION = "what does my owner enjoy?"


def _learnings(pet: Pet) -> list[tuple[int, str, int, str]]:
    uri = f"file:{pet.root.history_db}?mode=ro"
    with sqlite3.connect(uri, uri=True) as conn:
        rows = conn.execute(
            "SELECT id, observation, recurrence_count, status FROM learnings ORDER BY id"
        ).fetchall()
    return [(int(a), str(b), int(c), str(d)) for a, b, c, d in rows]


def test_a_repeated_habit_is_dreamt_into_memory_and_shapes_a_later_prompt(run_dir: Path) -> None:
    pet = start_pet(
        {"SHELLDON_RECORD_PROMPTS": "1", "SHELLDON_RECENT_WINDOW": "2", "SHELLDON_RECALL_K": "3"}
    )
    try:
        for _ in range(3):
            pet.say(HABIT)
        pet.settled()  # the third capture is applied after its reply
        # The offline brain notes the habit (and, separately, that it was said more than once).
        habit = [
            r for r in _learnings(pet) if "jasmine tea" in r[1] and "more than once" not in r[1]
        ]
        assert len(habit) == 1, _learnings(pet)
        learning_id, _observation, seen, status = habit[0]
        assert (seen, status) == (3, "pending")

        for text in FILLER:
            pet.say(text)
        pet.settled()  # the last turn's prompt is recorded after its reply
        before = pet.prompts()[-1]
        # Nothing the model reads carries it yet: the window moved on. (The request's language
        # profile holds the owner's frequent words, but only the broker's reply check reads it.)
        assert "jasmine" not in json.dumps(before["prompt"]["sections"])

        dreamt = pet.cli("dream", "--now")
        assert dreamt.returncode == 0, dreamt.stderr + pet.log
        assert dreamt.stdout.startswith("dream-1: done"), dreamt.stdout
        assert " promoted" in dreamt.stdout and "0 promoted" not in dreamt.stdout

        rows = {row[0]: row for row in _learnings(pet)}
        assert rows[learning_id][3] == "promoted"
        written = [
            p
            for p in pet.root.memory.rglob("*.md")
            if p.parent.name in ("facts", "preferences") and "jasmine tea" in p.read_text()
        ]
        assert len(written) == 1, written
        assert "provenance: inferred" in written[0].read_text()
        summary = (pet.root.memory / "summary.md").read_text()
        assert "jasmine tea" in summary or "laptop fan" in summary

        answer = pet.say(QUESTION)
        status = pet.cli("status")
        assert status.returncode == 0
        assert "last dream: dream-1 done" in status.stdout and "budget:" in status.stdout
        assert "next dream:" in status.stdout
    finally:
        assert pet.stop() == 0, pet.log

    last = pet.prompts()[-1]
    assert last["purpose"] == "turn" and prompt_section(last, "message").endswith(QUESTION)
    assert "jasmine tea" in prompt_section(last, "memory")
    assert "jasmine" not in prompt_section(last, "recent")
    assert "jasmine" not in prompt_section(last, "recall")
    dream_prompts = [r for r in pet.prompts() if r["purpose"] == "dream"]
    assert len(dream_prompts) == 1
    assert f"[id={learning_id}]" in prompt_section(dream_prompts[0], "dream")
    assert "(seen 3×" in prompt_section(dream_prompts[0], "dream")
    assert answer  # the pet answered


def test_undo_of_a_dream_reverts_it_whole(run_dir: Path) -> None:
    pet = start_pet()
    try:
        # Nothing pending: no worker is forked and nothing is spent.
        empty = pet.cli("dream", "--now")
        assert empty.stdout.startswith("dream: skipped (nothing to consolidate)"), empty.stdout
        status = pet.cli("status", "--json")
        report = json.loads(status.stdout)
        forkserver = next(p for p in report["processes"] if p["name"] == "forkserver")
        assert "0 spawned" in forkserver["detail"], forkserver
        assert any(line.startswith("budget: 60/60") for line in report["extra_lines"])
        for _ in range(2):
            pet.say(HABIT)
        dreamt = pet.cli("dream", "--now")
        assert dreamt.returncode == 0 and "1 promoted" in dreamt.stdout, dreamt.stdout + pet.log
        written = [
            p
            for p in pet.root.memory.rglob("*.md")
            if p.parent.name in ("facts", "preferences") and "jasmine tea" in p.read_text()
        ]
        assert len(written) == 1
        undone = pet.cli("memory", "undo", "--dream", "1")
        assert undone.returncode == 0, undone.stderr
        assert "learning(s) back to pending" in undone.stdout, undone.stdout
        assert not written[0].exists()
        jasmine = [row[3] for row in _learnings(pet) if "jasmine" in row[1]]
        assert jasmine and set(jasmine) == {"pending"}
        # A second dream finds it pending again and promotes it again.
        again = pet.cli("dream", "--now")
        assert again.stdout.startswith("dream-2: done") and "1 promoted" in again.stdout
    finally:
        assert pet.stop() == 0, pet.log


def test_a_learning_the_owner_corrected_is_never_promoted(run_dir: Path) -> None:
    pet = start_pet()
    try:
        pet.say("I usually drink black coffee at midnight")
        pet.say("I usually drink black coffee at midnight")
        pet.say("No, that's wrong, forget it.")
        pet.say("I usually cycle along the river")
        pet.say("I usually cycle along the river")
        dreamt = pet.cli("dream", "--now")
        assert dreamt.returncode == 0, dreamt.stderr + pet.log
    finally:
        assert pet.stop() == 0, pet.log
    statuses = {row[1]: row[3] for row in _learnings(pet)}
    coffee = [s for text, s in statuses.items() if "coffee" in text]
    cycling = [
        s for text, s in statuses.items() if "cycle" in text and "more than once" not in text
    ]
    assert coffee and "promoted" not in coffee, statuses
    assert cycling == ["promoted"], statuses
    tree = "".join(p.read_text() for p in pet.root.memory.rglob("*.md") if p.parent.name != ".undo")
    assert "coffee" not in tree
    lines = [json.loads(x) for x in (pet.root.memory / "history.jsonl").read_text().splitlines()]
    assert any(x["unit"] == "dream-1" and x["reason_code"] == "owner_corrected" for x in lines)
