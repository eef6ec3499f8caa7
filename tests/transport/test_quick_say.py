"""`shelldon say`'s client (transport.quick_say) against a real server on core's socket: what it
sends, how it reads each kind of answer, and that the configured timeout is read only for a turn
slow enough to show the "thinking" line."""

from __future__ import annotations

import _socket
import socket
import threading
from pathlib import Path

import pytest

from shelldon.contracts import wire
from shelldon.contracts.text import MAX_MESSAGE_BYTES
from shelldon.transport import quick_say
from shelldon.transport.waiting import ThinkingLine
from support.fake_core import serving_core


def never_slow() -> float:
    raise AssertionError("a fast answer read the configured timeout")


def test_a_reply_is_printed_cleaned_and_the_say_is_what_core_reads(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reply = wire.Reply(text="hello \x1b[31mred\x1b[0m", turn_id="t1", provider="offline")
    with serving_core(run_dir, lambda message: reply) as received:
        answer = quick_say.ask(str(run_dir / "core.sock"), "hi\x07 there 🐢", never_slow)
    assert received == [wire.Say(text="hi there 🐢")]  # the bell stripped before sending
    assert quick_say.print_answer(answer) == 0
    assert capsys.readouterr().out == "hello red\n"


def test_a_refusal_and_an_unexpected_answer_are_one_line_on_stderr(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers: list[wire._Msg] = [wire.Refused(reason="busy"), wire.Ack(detail="?")]
    with serving_core(run_dir, lambda message: answers.pop(0)):
        refused = quick_say.ask(str(run_dir / "core.sock"), "one", never_slow)
        unexpected = quick_say.ask(str(run_dir / "core.sock"), "two", never_slow)
    assert refused == ("refused", "busy")
    assert isinstance(unexpected, bytes)  # left to contracts.wire
    assert quick_say.print_answer(refused) == 1
    assert quick_say.print_answer(unexpected) == 1
    assert capsys.readouterr().err.splitlines() == [
        "shelldon refused: busy",
        "shelldon: unexpected answer Ack",
    ]


def test_a_slow_turn_reads_the_configured_timeout_and_shows_the_wait(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server answers only once the client has shown the "thinking" line, which it shows
    only past THINKING_AFTER_S, after reading the configured timeout: the client must keep
    waiting, on that timeout, for the answer."""
    monkeypatch.setattr(quick_say, "THINKING_AFTER_S", 0.05)
    shown = threading.Event()
    asked: list[bool] = []

    class Shown(ThinkingLine):
        def _show(self, elapsed: float) -> None:
            super()._show(elapsed)
            shown.set()

    monkeypatch.setattr(quick_say, "ThinkingLine", Shown)

    def slow_timeout() -> float:
        asked.append(True)
        return 60.0

    def answer(message: wire.Message) -> wire._Msg:
        assert shown.wait(30), "the client never showed the thinking line"
        return wire.Reply(text="took a while", turn_id="t")

    with serving_core(run_dir, answer):
        got = quick_say.ask(str(run_dir / "core.sock"), "think hard", slow_timeout)
    assert got == ("reply", "took a while")
    assert asked == [True]
    assert "shelldon is thinking…" in capsys.readouterr().err


def test_nobody_listening_is_not_running_and_too_long_sends_nothing(run_dir: Path) -> None:
    path = str(run_dir / "core.sock")
    with pytest.raises(quick_say.NotRunning, match=r"shelldon is not running .*No such file"):
        quick_say.ask(path, "hi", never_slow)
    with (
        serving_core(run_dir, lambda message: wire.Ack()) as received,
        pytest.raises(quick_say.TooLong, match="the limit is"),
    ):
        quick_say.ask(path, "x" * (MAX_MESSAGE_BYTES + 1), never_slow)
    assert received == []


def _closed_before_taken() -> socket.socket:
    """A connection core closed before it read anything (for room, under a storm of the owner's
    uid): its send breaks with nothing to read."""
    mine, cores = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    cores.close()
    return mine


def test_a_say_core_closed_before_taking_it_goes_again_and_is_answered_once(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clean-clone CI run: the owner's `say` read "lost core (… Broken pipe)" under a ping
    storm at core's cap."""
    reply = wire.Reply(text="hello", turn_id="t1", provider="offline")
    real_connect = quick_say.connect_core
    opened: list[str] = []

    def connect_core(path: str) -> _socket.socket:
        opened.append(path)
        return _closed_before_taken() if len(opened) == 1 else real_connect(path)

    monkeypatch.setattr(quick_say, "connect_core", connect_core)
    with serving_core(run_dir, lambda message: reply) as received:
        answer = quick_say.ask(str(run_dir / "core.sock"), "hi", never_slow)
    assert answer == ("reply", "hello")
    assert received == [wire.Say(text="hi")]  # taken once
    assert len(opened) == 2


def test_a_chats_message_core_closed_before_taking_it_goes_again(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chat keeps one connection: core may close it between the chat's check for a close
    and its send."""
    from shelldon.paths import DataRoot
    from shelldon.transport.terminal import Session

    reply = wire.Reply(text="hello", turn_id="t1", provider="offline")
    with serving_core(run_dir, lambda message: reply) as received:
        root = DataRoot(tmp_path / "home", run_override=run_dir)
        session = Session(root)
        try:
            session.sock.close()
            session.sock = _closed_before_taken()
            monkeypatch.setattr(session, "_closed_by_core", lambda: False)  # closed just after
            answer = session.ask(wire.Say(text="hi"), 10.0)
        finally:
            session.close()
    assert answer == reply
    assert received == [wire.Say(text="hi")]
