"""How long `shelldon say`/`chat` wait (the config's turns, not a fixed 120 s), and the
"thinking…" line: shown only when the answer is slow, once on a pipe, wiped on a terminal; and the
real CLI against a turn held mid-flight."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider, hold, raw
from shelldon.paths import DataRoot
from shelldon.transport.waiting import THINKING_TEXT, ThinkingLine, say_timeout
from support.pet import start_pet
from support.providers import configure_pet, store_key


def test_the_wait_follows_the_configured_turn(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHELLDON_TURN_DEADLINE", raising=False)
    home.mkdir(parents=True, exist_ok=True)
    assert say_timeout(DataRoot.resolve()) == 150  # two default turns of 60 s, plus the margin
    (home / "shelldon.toml").write_text("[worker]\nturn_timeout = 600\n")
    assert say_timeout(DataRoot.resolve()) == 1230
    (home / "shelldon.toml").write_text("[worker]\nturn_timeout = 5\n")
    assert say_timeout(DataRoot.resolve()) == 120  # never less than before
    monkeypatch.setenv("SHELLDON_TURN_DEADLINE", "900")
    assert say_timeout(DataRoot.resolve()) == 1830


class Watched(io.StringIO):
    """A stream that says when something was written to it."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.written = threading.Event()

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        count = super().write(text)
        self.written.set()
        return count


def test_a_quick_answer_shows_nothing() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"x")
        stream = Watched(tty=True)
        ThinkingLine(stream, after_s=30).wait_readable(ours, time.monotonic() + 60)
        assert stream.getvalue() == ""


@pytest.mark.parametrize("tty", [False, True])
def test_a_slow_answer_shows_the_line(tty: bool) -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        stream = Watched(tty=tty)
        waiter = threading.Thread(
            target=ThinkingLine(stream, after_s=0.01).wait_readable,
            args=(ours, time.monotonic() + 60),
        )
        waiter.start()
        assert stream.written.wait(30)
        theirs.sendall(b"x")  # the answer comes
        waiter.join(30)
        assert not waiter.is_alive()
    shown = stream.getvalue()
    if tty:
        assert shown.startswith(f"\r{THINKING_TEXT}") and shown.endswith("\r\033[K")
    else:
        assert shown == f"{THINKING_TEXT}\n"


@pytest.fixture
def provider_fake() -> Iterator[FakeProvider]:
    """The LLM fake (this directory's `fake` is Telegram's)."""
    with FakeProvider(require_key=FAKE_KEY) as server:
        yield server


def test_say_shows_thinking_on_stderr_and_only_the_reply_on_stdout(
    run_dir: Path, home: Path, provider_fake: FakeProvider
) -> None:
    fake = provider_fake
    store_key(home)
    configure_pet(home, fake)
    fake.script(hold(then=raw("There you are.")))
    pet = start_pet()
    try:
        say = subprocess.Popen(
            [sys.executable, "-m", "shelldon", "say", "hello"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert fake.wait_held(60)
        assert say.stderr is not None
        line = say.stderr.readline()  # blocks until the client has waited THINKING_AFTER_S
        fake.release()
        out, err = say.communicate(timeout=60)
    finally:
        pet.stop()
    assert line.strip() == THINKING_TEXT
    assert say.returncode == 0, err
    assert out.strip() == "There you are."
