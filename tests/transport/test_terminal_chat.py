"""The terminal chat behaves like a chat, in a real pseudo-terminal running `shelldon run`: a byte
that is not UTF-8 is replaced, line editing and a private history, a long paste read whole (and
refused past the limit with its message), Ctrl-C exits 130 with one line, a restart's log lines
go to the log file, and a reminder due while the owner sits at the prompt is printed as it comes."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.contracts.text import MAX_MESSAGE_BYTES
from shelldon.paths import DataRoot
from support.pet import Pet
from support.terminal import Terminal

UP_ARROW = b"\x1b[A"


@pytest.fixture
def chat(run_dir: Path) -> Iterator[Terminal]:
    # The owner's locale says UTF-8: a Latin-1 byte is then not what the terminal promised.
    term = Terminal("run", env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    term.expect(r"you> ")
    try:
        yield term
    finally:
        term.close()


def _owner_messages() -> list[str]:
    db = DataRoot.resolve().history_db
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT content FROM messages WHERE role = 'owner'")]
    finally:
        conn.close()


def test_a_byte_that_is_not_utf8_is_replaced_and_the_chat_goes_on(chat: Terminal) -> None:
    chat.send(b"I love caf\xe9 au lait\n")  # "café" typed in a Latin-1 terminal
    chat.expect(r"shelldon> \S")
    chat.expect(r"you> ")
    chat.type("hello")
    chat.expect(r"shelldon> \S")
    assert chat.proc.poll() is None, chat.transcript
    assert "internal error" not in chat.transcript
    # readline drops a byte that starts no character; without readline it becomes U+FFFD.
    assert {"I love caf\ufffd au lait", "I love caf au lait"} & set(_owner_messages())


def test_chat_and_say_from_a_pipe_take_bytes_that_are_not_utf8(pet: Pet) -> None:
    chat = subprocess.run(
        [sys.executable, "-m", "shelldon", "chat"],
        input=b"I love caf\xe9 au lait\n/quit\n", capture_output=True, timeout=120, check=False,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    )  # fmt: skip
    assert chat.returncode == 0, chat.stderr
    assert b"shelldon> " in chat.stdout
    said = subprocess.run(
        [sys.executable, "-m", "shelldon", "say", "-"],
        input=b"I love th\xe9 vert", capture_output=True, timeout=120, check=False,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    )  # fmt: skip
    assert said.returncode == 0, said.stderr
    stored = _owner_messages()
    assert "I love caf\ufffd au lait" in stored and "I love th\ufffd vert" in stored


def test_arrow_keys_edit_and_recall_lines_and_the_history_is_private(run_dir: Path) -> None:
    first = Terminal("run")
    try:
        first.expect(r"you> ")
        first.type("my sister is called Ana")
        first.expect(r"shelldon> \S")
        first.expect(r"you> ")
        # Left arrow twice, then a letter: typed in the middle of the line, not "^[[D" in it.
        first.send(b"I like te\x1b[D\x1b[Dx\n")
        first.expect(r"shelldon> \S")
        first.type("/quit")
        assert first.proc.wait(timeout=60) == 0
    finally:
        first.close()
    history = DataRoot.resolve().chat_history
    assert stat.S_IMODE(history.stat().st_mode) == 0o600
    assert "my sister is called Ana" in history.read_text()
    assert "I like xte" in _owner_messages()

    again = Terminal("run")
    try:
        again.expect(r"you> ")
        again.send(UP_ARROW * 3 + b"\n")  # before "/quit" and "I like xte": the first line
        again.expect(r"shelldon> \S")
        again.type("/quit")
        assert again.proc.wait(timeout=60) == 0
    finally:
        again.close()
    assert _owner_messages().count("my sister is called Ana") == 2


def test_a_long_paste_is_read_whole_and_one_past_the_limit_is_refused(chat: Terminal) -> None:
    whole = "remember that " + "ab " * 3_000  # 9,014 bytes: twice the terminal's line
    chat.send(whole.encode() + b"\n")
    chat.expect(r"shelldon> \S")
    chat.expect(r"you> ")
    assert whole.strip() in _owner_messages()
    too_long = "x" * (MAX_MESSAGE_BYTES + 100)
    chat.send(too_long.encode() + b"\n")
    chat.expect(rf"that message is {MAX_MESSAGE_BYTES + 100:,} bytes; the limit is 16,384")
    chat.expect(r"you> ")
    chat.type("hello")
    chat.expect(r"shelldon> \S")


def test_ctrl_c_leaves_with_130_and_one_line(chat: Terminal) -> None:
    chat.send(b"half a thou")
    chat.expect(r"half a thou")  # readline has it (echoed): the chat is reading, not starting up
    chat.send(b"\x03")
    chat.expect(r"shelldon: interrupted")
    assert chat.proc.wait(timeout=60) == 130
    after = chat.transcript.split("shelldon: interrupted", 1)[1]
    assert "Traceback" not in chat.transcript and after.strip() == "", after


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (signal.SIGINT, signal.SIGTERM),
        (signal.SIGINT, signal.SIGHUP),
        (signal.SIGHUP, signal.SIGTERM),
    ],
)
def test_two_signals_caught_in_one_wait_stop_the_pet_at_once(
    chat: Terminal, first: signal.Signals, second: signal.Signals
) -> None:
    """Ctrl-C and SIGTERM caught in the same wait of readline (held while the pet is stopped, let
    go together), as when the Ctrl-C came between two of readline's waits and the SIGTERM found it
    still pending: CPython's input() runs the second's handler with the first's exception still
    set. That handler took the stop Event's lock before its call failed, the chat's own stop then
    waited for that lock for ever, and the pet never exited, SIGTERM or not. Both are answered:
    Ctrl-C's line and 130, or a quiet stop; never a hang or a traceback."""
    chat.send(b"half a thou")
    chat.expect(r"half a thou")
    pid = chat.proc.pid
    os.kill(pid, signal.SIGSTOP)
    os.waitid(os.P_PID, pid, os.WSTOPPED | os.WNOWAIT)  # stopped: both signals wait for it
    os.kill(pid, first)
    os.kill(pid, second)
    os.kill(pid, signal.SIGCONT)
    code = chat.proc.wait(timeout=60)
    shown = chat.read_to_the_end().split("half a thou", 1)[1]
    assert "Traceback" not in shown and "internal error" not in shown, shown
    assert code in (0, 130), shown
    assert shown.count("shelldon: interrupted") == (code == 130), shown


def test_a_restart_logs_to_the_file_not_over_the_prompt(chat: Terminal) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", "restart"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = DataRoot.resolve().home / "logs" / "run.log"
    assert "restarted (" in log.read_text()
    chat.type("hello")
    chat.expect(r"shelldon> \S")
    assert "WARNING" not in chat.transcript and "restarting" not in chat.transcript
    # The restart ran on the chat's watcher thread, which blocks the chat's signals: the new
    # processes must not inherit that mask, or they never see SIGTERM (the stop below waited
    # 10 s, SIGKILLed all three and exited 1 before the fix).
    root = DataRoot.resolve()
    for name in ("core", "broker", "forkserver"):
        pid = int((root.run_dir / f"{name}.pid").read_text())
        assert not _blocked(pid) & {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}, name
    chat.type("/quit")
    assert chat.proc.wait(timeout=60) == 0, log.read_text()[-2000:]
    assert "ignored SIGTERM" not in log.read_text()


def _blocked(pid: int) -> set[int]:
    """The signals `pid` blocks (/proc/<pid>/status, SigBlk)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigBlk:"):
            mask = int(line.split()[1], 16)
            return {n for n in range(1, 65) if mask & (1 << (n - 1))}
    raise AssertionError(f"no SigBlk for pid {pid}")


def test_a_reminder_due_at_the_prompt_is_printed_as_it_comes(chat: Terminal) -> None:
    chat.type("remind me in 3 seconds to stretch")
    chat.expect(r"shelldon> Okay, I'll remind you in 3 seconds to stretch\.")
    chat.expect(r"you> ")
    # Nothing more is typed: the reminder shows up by itself, above a fresh prompt.
    chat.expect(r"shelldon> Reminder: stretch\r?\n")
    chat.expect(r"you> ")
    chat.type("/quit")
    assert chat.proc.wait(timeout=60) == 0


def test_a_second_pet_on_the_same_home_in_chat_mode_says_why_it_stops(pet: Pet) -> None:
    second = Terminal("run")
    try:
        second.expect(r"while starting \(.*is another shelldon running on this run dir\?")
        assert second.proc.wait(timeout=60) == 1
    finally:
        second.close()
    assert pet.proc.poll() is None  # the first goes on serving
    assert pet.say("hello")
