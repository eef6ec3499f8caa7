"""`shelldon run` in a terminal: the chat opens, answers and leaves cleanly; a death is reported."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
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


# A chat at its prompt whose Ctrl-C was caught while readline was not in its wait: the flag is up
# (`_thread.interrupt_main` does what the signal's handler does, and interrupts no wait), and
# readline would sit in its select until the next key. The helper waits for SIGUSR2 to do it.
_CAUGHT_BETWEEN_WAITS = """
import _thread, signal, sys, threading
from shelldon.paths import DataRoot
from shelldon.transport.terminal import EXIT_INTERRUPTED, nudge_until
from shelldon.transport.terminal_console import Console

console = Console(DataRoot.resolve(), interactive=True)
over = threading.Event()
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})  # the helper takes it, with sigwait

def caught_between_waits():
    signal.sigwait({signal.SIGUSR2})
    _thread.interrupt_main(signal.SIGINT)
    if sys.argv[1] == "nudge":
        nudge_until(threading.main_thread().ident, over)

threading.Thread(target=caught_between_waits, daemon=True).start()
try:
    console.read()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    over.set()
    sys.exit(EXIT_INTERRUPTED)
"""


def test_a_ctrl_c_caught_between_readline_waits_ends_the_chat_once_nudged(run_dir: Path) -> None:
    """The chat's thread is nudged until the chat is over (transport.terminal `nudge_until`): a
    Ctrl-C caught while readline was echoing a key ends the chat with 130. Without the nudge the
    chat sat at its prompt until the next key (run with "wait" instead of "nudge": it does)."""
    term = Terminal(argv=[sys.executable, "-c", _CAUGHT_BETWEEN_WAITS, "nudge"])
    try:
        term.expect(r"you> ")
        os.kill(term.proc.pid, signal.SIGUSR2)
        term.expect(r"interrupted")
        assert term.proc.wait(timeout=60) == 130
    finally:
        term.close()
