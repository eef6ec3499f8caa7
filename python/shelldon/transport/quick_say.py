"""`shelldon say`: one Say on core's socket and its answer, with only what that needs loaded.

A `say` from a script or a shell alias is the command the owner runs most, and on a Pi a second
of start-up is felt. So this path imports the frames (`shelldon.frames`), the Say codec
(`contracts.wire_say`), the owner-text rules and the "thinking" line, and none of msgspec,
logging, pathlib, dataclasses or the config loader (tests/cli/test_cli_start.py holds the list;
docs/cli.md, "Start time", has the figures). What it cannot answer cheaply is handed on:

- the configured turn timeout is read (`slow_timeout`) only once a turn has run past
  THINKING_AFTER_S, when the "thinking" line starts; until then the wait is the 120 s floor
  every `say_timeout` is at least;
- an answer that is not exactly a Reply or a Refused is decoded by `contracts.wire` and printed
  as transport.terminal prints it, so no answer reads differently on this path.
"""

from __future__ import annotations

import _socket
import select
import sys
import time

from shelldon import frames
from shelldon.contracts.text import clean_text, message_size_error
from shelldon.contracts.wire_say import encode_say, reply_or_refused
from shelldon.transport.waiting import MIN_WAIT_S, THINKING_AFTER_S, ThinkingLine

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `say` does not import typing
if TYPE_CHECKING:
    from collections.abc import Callable

    from shelldon.contracts import wire

CONNECT_TIMEOUT_S = 5.0


class NotRunning(Exception):
    pass


class TooLong(ValueError):
    """An owner message over contracts.text.MAX_MESSAGE_BYTES: refused before anything is sent."""


def not_running(path: object, exc: OSError) -> NotRunning:
    pid = _live_core(str(path))
    if pid is not None:  # core runs, its socket was removed or replaced (`rm core.sock`)
        return NotRunning(
            f"shelldon's core (pid {pid}) is running, but its socket {path} cannot be reached "
            f"({exc.strerror}): it was removed or replaced; restart the pet (`shelldon restart`)"
        )
    return NotRunning(
        f"shelldon is not running (no core at {path}: {exc.strerror}); start it with `shelldon run`"
    )


def _live_core(path: str) -> int | None:
    """The pid in core.pid beside the socket when that process is alive and is shelldon's (its
    command line names it): "start it with `shelldon run`" would start a second pet on the same
    data. Only on the failure path: a few small reads."""
    try:
        with open(path.rsplit("/", 1)[0] + "/core.pid", "rb") as fh:
            pid = int(fh.read(64).strip())
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmdline = fh.read(4096)
    except (OSError, ValueError):
        return None
    return pid if pid > 0 and b"shelldon" in cmdline else None


def connect_core(path: str) -> _socket.socket:
    """A connection to core's socket; NotRunning when nobody is there (a full queue is
    ConnectBusy: core runs, and the caller says "lost core")."""
    try:
        return frames.connect(path, _socket.socket, timeout=CONNECT_TIMEOUT_S)
    except frames.ConnectBusy:
        raise
    except OSError as exc:
        raise not_running(path, exc) from None


def ask(path: str, text: str, slow_timeout: Callable[[], float]) -> tuple[str, str] | bytes:
    """Say `text` to core at `path`: ("reply", text) or ("refused", reason), or the answer's
    payload when it is anything else. Raises TooLong (nothing sent), NotRunning, and
    frames.IpcError / OSError for a connection lost on the way."""
    text = clean_text(text)
    too_long = message_size_error(text)
    if too_long:
        raise TooLong(too_long)
    data = frames.frame_bytes(encode_say(text))
    started = time.monotonic()

    def wait(sock: _socket.socket) -> float | None:
        remaining = max(0.0, started + THINKING_AFTER_S - time.monotonic())
        if select.select([sock], [], [], remaining)[0]:
            return None
        deadline = started + slow_timeout()
        ThinkingLine(after_s=THINKING_AFTER_S).wait_readable(sock, deadline, started=started)
        return deadline

    payload = frames.exchange_on(
        lambda: connect_core(path),
        data,
        deadline=started + MIN_WAIT_S,
        taken_within=started + CONNECT_TIMEOUT_S,
        wait=wait,
    )
    return reply_or_refused(payload) or payload


def print_answer(answer: tuple[str, str] | bytes) -> int:
    """Print core's answer as `print_reply` does; the exit status."""
    if isinstance(answer, bytes):
        from shelldon.contracts import wire

        try:
            message = wire.decode(answer)
        except wire.WireError as exc:  # what ipc.recv raises for it, as ask_running_core says it
            print(f"shelldon: lost core ({exc})", file=sys.stderr)
            return 1
        return print_reply(message)
    kind, words = answer
    if kind == "reply":
        print(clean_text(words), flush=True)
        return 0
    print(f"shelldon refused: {words}", file=sys.stderr)
    return 1


def print_reply(answer: wire.Message) -> int:
    from shelldon.contracts import wire

    if isinstance(answer, wire.Reply):
        print(clean_text(answer.text), flush=True)
        return 0
    return print_refused_or_unexpected(answer)


def print_refused_or_unexpected(answer: wire.Message) -> int:
    """What came instead of the answer asked for, on stderr; the exit status (1)."""
    from shelldon.contracts import wire

    if isinstance(answer, wire.Refused):
        print(f"shelldon refused: {answer.reason}", file=sys.stderr)
        return 1
    print(f"shelldon: unexpected answer {type(answer).__name__}", file=sys.stderr)
    return 1
