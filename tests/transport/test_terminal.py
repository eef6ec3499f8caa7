"""`shelldon run` in a terminal: the chat opens, answers and leaves cleanly; a death is reported."""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.paths import DataRoot
from support.pet import Pet, alive
from support.terminal import Terminal


@pytest.fixture
def terminal(run_dir: Path) -> Iterator[Terminal]:
    term = Terminal("run")
    try:
        yield term
    finally:
        term.close()


def test_run_opens_the_chat_answers_and_quits(terminal: Terminal) -> None:
    terminal.expect(r"Talk to your pet")
    terminal.expect(r"you> ")
    terminal.type("hello there, my name is Robin")
    terminal.expect(r"shelldon> \S")
    terminal.expect(r"you> ")
    terminal.type("/status")
    terminal.expect(r"vault isolation: ")
    pids = {
        name: int((DataRoot.resolve().run_dir / f"{name}.pid").read_text())
        for name in ("core", "broker", "forkserver")
    }
    terminal.type("/quit")
    assert terminal.proc.wait(timeout=60) == 0
    assert not any(alive(pid) for pid in pids.values())
    # In the chat the processes' logs go to files, not over the conversation.
    logs = DataRoot.resolve().home / "logs"
    assert (logs / "core.log").exists()
    assert " INFO " not in terminal.transcript
    assert "shelldon is up" in terminal.transcript


def test_a_child_that_dies_during_the_chat_is_reported(terminal: Terminal) -> None:
    terminal.expect(r"you> ")
    forkserver = int((DataRoot.resolve().run_dir / "forkserver.pid").read_text())
    os.kill(forkserver, signal.SIGKILL)
    found = terminal.expect(r"forkserver \(pid (\d+)\) was killed by SIGKILL; stopping the others")
    assert int(found.group(1)) == forkserver
    assert terminal.proc.wait(timeout=60) == 1


def test_chat_without_a_running_pet_says_how_to_start_it(run_dir: Path) -> None:
    term = Terminal("chat")
    try:
        term.expect(r"shelldon is not running .*shelldon run")
        assert term.proc.wait(timeout=60) == 1
    finally:
        term.close()


def test_owner_commands_in_the_chat_are_commands_not_messages(pet: Pet) -> None:
    """`/help` and the other owner commands (core.commands, the Telegram chat's table) are answered
    by core as commands: nothing reaches the brain, nothing is stored as a message."""
    chat = pet.cli("chat", stdin="/help\n/reminders\n/quit\n")
    assert chat.returncode == 0, chat.stderr
    assert "I understand:" in chat.stdout, chat.stdout
    assert "/reminders - " in chat.stdout
    conn = sqlite3.connect(f"{pet.root.history_db.as_uri()}?mode=ro", uri=True)
    try:
        stored = [row[0] for row in conn.execute("SELECT content FROM messages")]
    finally:
        conn.close()
    assert not any(text.startswith("/") for text in stored), stored
