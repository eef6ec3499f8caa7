"""The chat's side of the terminal: reading a line, and printing what the pet says first over it.

`Console.read` reads one line with the stdlib's readline when the chat runs in a terminal (line
editing, arrow keys, a history kept in `DataRoot.chat_history`, created 0600 and kept so by
core.storage.layout.settle_modes). readline also takes the line out of the terminal's canonical
mode, so a paste longer than the kernel's 4,095-byte line is read whole and the 16 KB limit can say
its message (contracts.text.message_size_error).

Bytes that are not UTF-8 become U+FFFD (stdin is reconfigured with errors="replace", and any
surrogate left is repaired): a Latin-1 "é" never ends the chat.

`Console.interject` prints a line while the owner sits at the prompt (a reminder due now): it
clears the prompt's line, prints, then draws the prompt and what was typed so far again. It does
nothing while a turn is on its way (the chat prints what came after the reply then).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from types import ModuleType

from shelldon.contracts.text import repair_surrogates
from shelldon.paths import DataRoot

log = logging.getLogger("shelldon.terminal")

PROMPT = "you> "
HISTORY_LINES = 1000
_HISTORY_MODE = 0o600


def _load_readline() -> ModuleType | None:
    try:
        import readline
    except ImportError:  # a Python built without it: plain input() still works
        return None
    return readline


def _tolerant_stream(stream: object) -> None:
    """A text stream that replaces what it cannot decode or encode instead of raising."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")


def _first_signal(exc: BaseException) -> BaseException:
    """What input() raised, as the first signal of its wait raised it.

    Two signals caught in one wait (Ctrl-C then SIGTERM, two SIGTERMs): CPython's input() runs the
    second's handler with the first's exception still set. The SystemError "returned a result
    with an exception set" that handler's first call may meet is caused by the first, which is at
    the root of the chain (input() is called outside any handler: nothing else is there) and is
    answered: Ctrl-C's 130. A handler that raised cleanly replaced the first: its stop is."""
    seen = {id(exc)}
    first = exc
    while (earlier := first.__cause__ or first.__context__) is not None and id(earlier) not in seen:
        seen.add(id(earlier))
        first = earlier
    return first


class Console:
    """One chat's terminal. `interactive` is a terminal on stdin and stdout."""

    def __init__(self, root: DataRoot, *, interactive: bool) -> None:
        _tolerant_stream(sys.stdin)
        _tolerant_stream(sys.stdout)
        _tolerant_stream(sys.stderr)
        self.interactive = interactive
        self.history = root.chat_history
        self._lock = threading.Lock()
        self._prompting = False
        self.history_ok = False
        self.readline = _load_readline() if interactive else None
        if self.readline is not None:
            self._open_history()

    def _open_history(self) -> None:
        assert self.readline is not None
        try:
            fd = os.open(self.history, os.O_RDONLY | os.O_CREAT, _HISTORY_MODE)
            os.close(fd)
            os.chmod(self.history, _HISTORY_MODE)  # one an earlier run left open is closed
            self.readline.read_history_file(self.history)
        except OSError as exc:  # a read-only home: the chat works, without a history
            log.debug("chat history off: %s", exc)
            self.history_ok = False
            return
        self.readline.set_history_length(HISTORY_LINES)
        self.history_ok = True

    def read(self) -> str:
        """One line the owner typed (EOFError at the end of input, KeyboardInterrupt on Ctrl-C)."""
        with self._lock:
            self._prompting = True
        try:
            line = input(PROMPT)
        except Exception as exc:
            raise _first_signal(exc) from None
        finally:
            with self._lock:
                self._prompting = False
        line = repair_surrogates(line)
        if self.readline is not None and self.history_ok and line.strip():
            try:  # each line as it is typed: a chat that is killed keeps what it had
                self.readline.append_history_file(1, self.history)
                self.readline.set_history_length(HISTORY_LINES)
            except OSError as exc:
                log.debug("chat history not written: %s", exc)
        return line

    def at_prompt(self) -> bool:
        with self._lock:
            return self._prompting

    def interject(self, lines: list[str]) -> bool:
        """Print `lines` above the prompt the owner is typing at; False (nothing printed) when
        the chat is not at its prompt."""
        with self._lock:
            if not self._prompting:
                return False
            typed = self.readline.get_line_buffer() if self.readline is not None else ""
            text = "".join(f"{line}\n" for line in lines)
            sys.stdout.write(f"\r\x1b[K{text}{PROMPT}{typed}")
            sys.stdout.flush()
            return True
