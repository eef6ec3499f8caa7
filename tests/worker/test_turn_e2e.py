"""CAP-6 with real processes: a fact said in turn 1 reaches the brain in a related turn 3.

`shelldon run` starts core, broker and fork-server; three turns go through `shelldon say`; the
worker's assembled prompt comes back in TurnResult (asked for by core under
SHELLDON_RECORD_PROMPTS=1, and only then) and core keeps it in state/prompts.jsonl. Once the fact
is in the recent window, once (with a window of two messages) the window has moved past it and FTS
recall brings it back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.core.history.store import open_readonly
from shelldon.core.runner import WorkerRunner
from shelldon.paths import DataRoot
from support.marks import needs_root
from support.pet import Pet, Units, prompt_section, start_pet
from support.users import TestUser

FACT = "we planted tulips by the old fence"
OTHER = "the kettle is broken again"
QUESTION = "where did we plant the tulips?"


@pytest.mark.parametrize(("window", "via"), [("12", "recent"), ("2", "recall")])
def test_a_fact_from_turn_one_is_in_the_prompt_of_turn_three(
    run_dir: Path, window: str, via: str
) -> None:
    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1", "SHELLDON_RECENT_WINDOW": window})
    try:
        pet.say(FACT)
        pet.say(OTHER)
        answer = pet.say(QUESTION)
    finally:
        assert pet.stop() == 0, pet.log

    records = pet.prompts()
    assert [r["purpose"] for r in records] == ["turn", "turn", "turn"]
    third = records[2]
    kinds = [s["kind"] for s in third["prompt"]["sections"]]
    assert kinds[0] == "system" and kinds[-1] == "message"
    assert prompt_section(third, "message").endswith(QUESTION)

    other = "recall" if via == "recent" else "recent"
    shown = prompt_section(third, via)
    assert f"owner: {FACT}" in shown or f"): {FACT}" in shown
    assert FACT not in prompt_section(third, other)  # shown once: recall is de-duplicated by row id
    if via == "recall":
        # The window has moved past turn 1: it holds turn 2 only.
        assert prompt_section(third, "recent").splitlines()[1:] == [
            f"owner: {OTHER}",
            f"pet: {_pet_reply(pet, 1)}",
        ]
    # The offline brain answered from it, and the three turns are in history.
    assert "tulips by the old fence" in answer
    with open_readonly(pet.root.history_db) as reader:
        owner_rows = [r["content"] for r in reader.recent(6) if r["role"] == "owner"]
    assert owner_rows == [FACT, OTHER, QUESTION]


def test_the_prompt_travels_back_only_when_core_asks_for_it(run_dir: Path) -> None:
    """A real fork-server, worker and broker (offline brain); this test stands in for core (its
    pid is in core.pid, so the fork-server takes its SpawnTurn)."""
    root = DataRoot.resolve()
    units = Units(root)
    try:
        units.start("broker")
        units.start("forkserver")
        ipc.write_pid_file(root.run_dir, "core")
        plain = WorkerRunner(root).spawn("t-plain", "turn", QUESTION)
        asked = WorkerRunner(root, capture_prompts=True).spawn("t-asked", "turn", QUESTION)
    finally:
        assert set(units.stop_all().values()) == {0}, units.log_text()
    assert isinstance(plain, wire.TurnResult) and isinstance(asked, wire.TurnResult)
    assert plain.reply and plain.prompt is None
    assert asked.prompt is not None
    assert asked.prompt.sections[-1].kind == "message"
    assert asked.prompt.sections[-1].text.endswith(QUESTION)


def _pet_reply(pet: Pet, turn: int) -> str:
    with open_readonly(pet.root.history_db) as reader:
        pets = [r["content"] for r in reader.recent(20) if r["role"] == "pet"]
    return pets[turn]


def test_a_named_person_is_remembered_and_answered_from_memory(run_dir: Path) -> None:
    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1", "SHELLDON_RECENT_WINDOW": "0"})
    try:
        said = pet.say("my sister is called Ana")
        pet.say(OTHER)
        answer = pet.say("what's my sister called?")
    finally:
        assert pet.stop() == 0, pet.log
    assert "Ana" in said
    entry = pet.root.memory / "people" / "sister.md"
    assert "The owner's sister is called Ana." in entry.read_text()
    third = pet.prompts()[2]
    assert "The owner's sister is called Ana." in prompt_section(third, "memory")
    # from memory (recall is "You told me …"), in one of its wordings ("Your sister …")
    assert answer.endswith("our sister is called Ana.") and "told me" not in answer, answer
    audit = [json.loads(x) for x in (pet.root.memory / "history.jsonl").read_text().splitlines()]
    assert any(r["action"] == "create" and "sister" in (r["target"] or "") for r in audit)


@needs_root("a real uid drop")
def test_cap6_with_a_dropped_worker_and_a_config_it_cannot_read(
    world_home: Path, worker_user: TestUser
) -> None:
    """The appliance's shape: the worker runs as its own user, shelldon.toml is 0640 root's, and the
    [prompt] window it sets still applies (the fork-server read it before the drop)."""
    config = world_home / "shelldon.toml"
    config.write_text("[prompt]\nrecent_window = 2\n")
    os.chmod(config, 0o640)
    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1", "SHELLDON_WORKER_USER": worker_user.name})
    try:
        pet.say(FACT)
        pet.say(OTHER)
        answer = pet.say(QUESTION)
        status = json.loads(pet.cli("status", "--json").stdout)
    finally:
        assert pet.stop() == 0, pet.log
    assert status["vault_isolation"] is True
    third = pet.prompts()[2]
    assert prompt_section(third, "recent").splitlines()[1:] == [
        f"owner: {OTHER}",
        f"pet: {_pet_reply(pet, 1)}",
    ]
    assert f"): {FACT}" in prompt_section(third, "recall")
    assert "tulips by the old fence" in answer


def test_the_owners_zone_reaches_the_prompt_through_cores_clock_line(run_dir: Path) -> None:
    """Core makes the "# Now" line from the owner's zone and sends it (wire.SpawnTurn.clock_line):
    the zone set with `shelldon timezone` shows in the prompt, though no worker reads it."""
    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1"})
    try:
        assert pet.cli("timezone", "Asia/Tokyo").returncode == 0
        pet.say("what time is it for me?")
        pet.settled()
    finally:
        assert pet.stop() == 0, pet.log
    line = prompt_section(pet.prompts()[-1], "time").splitlines()[1]
    assert line.endswith(", time zone Asia/Tokyo (UTC+09:00)"), line
    assert "imported after fork" not in pet.log  # the worker loaded no zone database
