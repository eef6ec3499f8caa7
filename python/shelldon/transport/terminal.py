"""The terminal chat client: the owner's side of core's socket, one line in, the pet's reply out.

`shelldon chat` and `shelldon run` (in the foreground) talk through `chat_loop`; `shelldon say`,
`status`, `vault` and `dream` ask one question with `ask_core`. In the chat, `/quit` is local and
every other `/command` goes to core as an OwnerCommand (core.commands: the same table the owner's
Telegram chat uses).

What the pet says first (reminders, check-ins, notices: core.proactive.service) is shown when the
chat starts, after each reply, and while the owner sits at the prompt as it comes (asked every
PROACTIVE_POLL_S on a second connection, printed above the line being typed:
transport.terminal_console), then reported delivered (channel "terminal"); core keeps an item
until then, so a chat killed in between shows it again next time. While a Telegram chat is
paired, core gives the terminal nothing: the phone is where the pet speaks first.
"""

from __future__ import annotations

import contextlib
import select
import signal
import socket
import sys
import threading
import time

import msgspec

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.text import clean_text, message_size_error
from shelldon.paths import DataRoot
from shelldon.transport.quick_say import NotRunning as NotRunning
from shelldon.transport.quick_say import TooLong as TooLong
from shelldon.transport.quick_say import not_running
from shelldon.transport.quick_say import print_refused_or_unexpected as print_refused_or_unexpected
from shelldon.transport.quick_say import print_reply as print_reply
from shelldon.transport.terminal_console import Console
from shelldon.transport.waiting import ThinkingLine, say_timeout

EXIT_INTERRUPTED = 130  # Ctrl-C, as every command (docs/cli.md)
# How often a chat at its prompt asks core whether the pet has something to say first.
PROACTIVE_POLL_S = 2.0
CHAT_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1}
# How often a stop asked is told again to a chat that has not ended yet (nudge_until).
NUDGE_S = 0.05


COMMAND_TIMEOUT_S = 30.0
# How long a chat's message goes again on a new connection while core closes each one before it
# takes the message (frames.NotTaken), as `say` does (transport.quick_say).
RETAKE_S = 5.0


def owner_command(text: str) -> wire.OwnerCommand | None:
    """`/name arg` as an OwnerCommand; None for a message (or a bare "/")."""
    if not text.startswith("/") or len(text) < 2 or text[1].isspace():
        return None
    name, _, arg = text[1:].partition(" ")
    return wire.OwnerCommand(name=name.lower(), arg=arg.strip())


class Session:
    """One connection to core, kept open for a whole chat."""

    def __init__(self, root: DataRoot) -> None:
        self.path = root.socket("core")
        self.sock = self._connect()
        self.say_timeout = say_timeout(root)

    def _connect(self) -> socket.socket:
        try:
            return ipc.connect(self.path, timeout=5.0)
        except ipc.ConnectBusy:
            raise  # core runs but its queue stayed full: "lost core (…)", not "not running"
        except OSError as exc:
            raise not_running(self.path, exc) from None

    def _closed_by_core(self) -> bool:
        """Core lets a chat idle past its timeout go; a quiet EOF here means: connect again."""
        readable, _, _ = select.select([self.sock], [], [], 0)
        if not readable:
            return False
        try:
            return self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except OSError:
            return True

    def ask(self, message: wire._Msg, timeout: float | None = None) -> wire.Message:
        """Send one message, return core's answer. This is the terminal's edge: what the owner
        typed and what the pet answers pass `clean_text`; an oversize message raises TooLong."""
        if isinstance(message, wire.Say):
            message = msgspec.structs.replace(message, text=clean_text(message.text))
            too_long = message_size_error(message.text)
            if too_long:
                raise TooLong(too_long)
        answer = self._exchange(message, self.say_timeout if timeout is None else timeout)
        if isinstance(answer, wire.Reply):
            answer = msgspec.structs.replace(answer, text=clean_text(answer.text))
        return answer

    def _exchange(self, message: wire._Msg, timeout: float) -> wire.Message:
        deadline = time.monotonic() + timeout
        if self._closed_by_core():  # nothing was sent yet, so asking again is safe
            self.sock.close()
            self.sock = self._connect()
        # A connection core refused at accept (too many open) holds its Refused frame: that is
        # the answer, not the broken pipe of the send. A turn: the owner sees the pet is at it.
        wait = (
            (lambda: ThinkingLine().wait_readable(self.sock, deadline))
            if isinstance(message, wire.Say)
            else None
        )
        tries = 0

        def attempt() -> wire.Message:
            # Closed between the check above and the send (idle, or for room under a storm of
            # this uid): core never took it, so it goes again on a new connection.
            nonlocal tries
            if tries:
                self.sock.close()
                self.sock = self._connect()
            tries += 1
            return ipc.exchange(self.sock, message, deadline=deadline, wait=wait)

        return ipc.retake(attempt, deadline=deadline, taken_within=time.monotonic() + RETAKE_S)

    def close(self) -> None:
        self.sock.close()


def ask_core(root: DataRoot, message: wire._Msg, timeout: float | None = None) -> wire.Message:
    session = Session(root)
    try:
        return session.ask(message, timeout)
    finally:
        session.close()


def show_proactive(session: Session) -> int:
    """Print what the pet wants to say first, then tell core it was delivered. How many were
    shown. Never raises: a core that cannot answer just shows nothing now."""
    try:
        answer = session.ask(wire.ProactiveFetch(), 10.0)
    except (ipc.IpcError, OSError):
        return 0
    if not isinstance(answer, wire.ProactiveBatch) or not answer.items:
        return 0
    for item in answer.items:
        print(f"shelldon> {item.text}", flush=True)
    ids = tuple(item.id for item in answer.items)
    with contextlib.suppress(ipc.IpcError, OSError):  # else shown again next time, never lost
        session.ask(wire.ProactiveDelivered(ids=ids, channel="terminal"), 10.0)
    return len(ids)


def chat_loop(root: DataRoot) -> int:
    """Read a line, print the pet's reply, until EOF or /quit (0), or Ctrl-C (130)."""
    try:
        session = Session(root)
    except NotRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    console = Console(root, interactive=sys.stdin.isatty() and sys.stdout.isatty())
    print("Talk to your pet. /help lists the commands, /quit (or Ctrl-D) leaves.", flush=True)
    stop = threading.Event()
    if console.interactive:
        start_without_signals(
            threading.Thread(
                target=_say_first_as_it_comes, args=(root, console, stop), daemon=True,
                name="chat-proactive",
            )
        )  # fmt: skip
    try:
        show_proactive(session)
        return _converse(session, console)
    except KeyboardInterrupt:
        print("\nshelldon: interrupted", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    finally:
        stop.set()
        session.close()


def _converse(session: Session, console: Console) -> int:
    while True:
        try:
            line = console.read()
        except EOFError:
            print()
            return 0
        text = line.strip()
        if not text:
            continue
        if text in ("/quit", "/exit"):
            return 0
        try:
            command = owner_command(text)
            if command is not None:  # handled in core (core.commands), as from Telegram
                answer = session.ask(command, COMMAND_TIMEOUT_S)
                if isinstance(answer, wire.CommandReply):
                    print(answer.text, flush=True)
                else:
                    print_reply(answer)
                continue
            answer = session.ask(wire.Say(text=text))
        except TooLong as exc:
            print(f"shelldon: {exc}", file=sys.stderr, flush=True)
            continue
        except (ipc.IpcError, OSError) as exc:
            print(f"shelldon: lost core ({exc})", file=sys.stderr)
            return 1
        if isinstance(answer, wire.Reply):
            print(f"shelldon> {answer.text}", flush=True)
            show_proactive(session)
        else:
            print_reply(answer)


def start_without_signals(thread: threading.Thread) -> None:
    """Start a helper thread of the chat with the chat's signals blocked from its first instruction.

    Ctrl-C and the supervisor's signals are the main thread's: one delivered to another thread
    leaves readline waiting for a key (it only looks at signals when its own wait is interrupted).
    A thread inherits its creator's mask, so the mask is set around `start()`: blocking them in
    the thread's own body would leave a window in which the kernel may pick it."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, CHAT_SIGNALS)
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def nudge_until(thread_id: int, done: threading.Event) -> None:
    """SIGWINCH to the chat's thread every NUDGE_S until `done`: a signal already caught there
    (Ctrl-C, SIGTERM) is acted on even if it came while readline was handling a key.

    CPython's readline looks at signals only when its select() is interrupted. One that lands
    between two selects (Ctrl-C right after a typed letter, on a loaded machine: readline is still
    echoing it) is held until the next key, and the chat waited for ever, SIGTERM included (docs/
    cli.md). SIGWINCH has readline's own C handler (it notes the window size; no Python code), so
    a nudge that lands outside the select costs nothing and the next one is tried; without
    readline (the chat on a pipe) it is ignored."""
    while not done.wait(NUDGE_S):
        signal.pthread_kill(thread_id, signal.SIGWINCH)


def _say_first_as_it_comes(root: DataRoot, console: Console, stop: threading.Event) -> None:
    """While the owner sits at the prompt, what the pet says first (a reminder due now) is printed
    above it as it comes, on a connection of its own. An item fetched when the owner has just
    sent a line is left unacknowledged: the chat shows it after the reply (core offers it again)."""
    session: Session | None = None  # started by start_without_signals: no signal lands here
    while not stop.wait(PROACTIVE_POLL_S):
        if not console.at_prompt():
            continue
        try:
            session = session or Session(root)
            answer = session.ask(wire.ProactiveFetch(), 10.0)
            if not isinstance(answer, wire.ProactiveBatch) or not answer.items:
                continue
            if console.interject([f"shelldon> {item.text}" for item in answer.items]):
                ids = tuple(item.id for item in answer.items)
                session.ask(wire.ProactiveDelivered(ids=ids, channel="terminal"), 10.0)
        except (NotRunning, ipc.IpcError, OSError):  # core restarting: ask again next time
            if session is not None:
                session.close()
            session = None
