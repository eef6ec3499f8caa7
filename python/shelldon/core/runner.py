"""How core runs a worker: one at a time (TurnGate), asked of the fork-server (WorkerRunner).

Both the owner's turns (core.server) and the dream (core.dream) run their workers through these;
core never forks a worker itself and never imports worker/ (it only talks to the fork-server's
socket).

For tests, SHELLDON_RECORD_PROMPTS=1 makes core ask each worker for the prompt it assembled and
append it to `state/prompts.jsonl` (`record_prompt`): every kind of turn runs through here.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from shelldon import ipc
from shelldon.config import load_config
from shelldon.contracts import wire
from shelldon.contracts.languages import OwnerLanguages
from shelldon.core.storage import layout
from shelldon.paths import PROMPTS_LOG, DataRoot

log = logging.getLogger(__name__)

TURN_DEADLINE_ENV = "SHELLDON_TURN_DEADLINE"
DEFAULT_TURN_DEADLINE_S = 30.0
RECORD_PROMPTS_ENV = "SHELLDON_RECORD_PROMPTS"
RELAY_GRACE_S = 5.0  # beyond the turn deadline, for the fork-server to kill, reap and relay
# The three processes start side by side (the units order none after another): a turn that comes
# while the fork-server is still importing waits this long for its socket to appear or to accept.
STARTING_WAIT_S = 90.0
STARTING_POLL_S = 0.25


class TurnGate:
    """One worker in flight. Owner turns are served before a waiting dream or check-in."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._owners_waiting = 0

    def acquire(self, purpose: str) -> None:
        with self._cond:
            if purpose in ("dream", "checkin", "reflect"):  # the pet's own wait behind the owner
                self._cond.wait_for(lambda: not self._busy and self._owners_waiting == 0)
            else:
                self._owners_waiting += 1
                try:
                    self._cond.wait_for(lambda: not self._busy)
                finally:
                    self._owners_waiting -= 1
            self._busy = True

    def release(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()

    def drain(self, timeout: float) -> bool:
        """Wait for the turn in flight to finish (its reply is out; its ops and history row are
        being written). False if it did not finish within `timeout`."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy, timeout=timeout)


class WorkerRunner:
    """Asks the fork-server for one worker and relays what it returned. `gate` is the one-worker
    slot every caller takes first (owner turns ahead of a dream)."""

    def __init__(
        self,
        root: DataRoot,
        *,
        turn_deadline_s: float | None = None,
        capture_prompts: bool = False,
        clock_line: Callable[[], str] | None = None,
    ) -> None:
        self.root = root
        self.capture_prompts = capture_prompts  # workers send their prompt back (core.turn.apply)
        # The owner's time as each worker's prompt shows it (owner_time.owner_clock_line); None:
        # the worker makes it (tests that run no stores).
        self.clock_line = clock_line
        self.turn_deadline_s = (
            turn_deadline_s if turn_deadline_s is not None else turn_deadline(root)
        )
        self.gate = TurnGate()

    def _clock_line(self) -> str:
        """The owner's clock line, or "" when it cannot be made (history.db unreadable, say):
        the worker then makes its own, fail-soft, and the turn goes on."""
        if self.clock_line is None:
            return ""
        try:
            return self.clock_line()
        except Exception:  # a spawn never raises (its callers rely on an outcome)
            log.warning("core: the owner's clock line could not be made", exc_info=True)
            return ""

    def spawn(
        self,
        turn_id: str,
        purpose: wire.TurnPurpose,
        message: str,
        dream_directive: str = "",
        *,
        deadline_s: float | None = None,
        owner_languages: OwnerLanguages | None = None,
    ) -> wire.TurnResult | wire.TurnFailed:
        """One worker's outcome: a result or a failure, never an exception. `deadline_s`: a
        tighter deadline than every worker's (a reflection's 30 s per attempt);
        `owner_languages`: the profile core built for the turn (wire.SpawnTurn)."""
        deadline = self.turn_deadline_s
        if deadline_s is not None:
            deadline = min(deadline, deadline_s)
        ipc.keep_pid_file(self.root.run_dir, "core")  # the fork-server admits core by it
        request = wire.SpawnTurn(
            turn_id=turn_id,
            purpose=purpose,
            message=message,
            dream_directive=dream_directive,
            deadline_s=deadline,
            capture_prompt=self.capture_prompts,
            owner_languages=owner_languages,
            clock_line=self._clock_line(),
        )
        try:
            answer = self._request_forkserver(request, deadline)
        except OSError as exc:
            return wire.TurnFailed(
                turn_id=turn_id, stage="spawn", reason=f"fork-server unreachable: {exc}"
            )
        except ipc.FrameTimeout:
            return wire.TurnFailed(
                turn_id=turn_id, stage="timeout", reason="no answer from the fork-server"
            )
        except ipc.IpcError as exc:
            return wire.TurnFailed(turn_id=turn_id, stage="protocol", reason=f"fork-server: {exc}")
        if isinstance(answer, (wire.TurnResult, wire.TurnFailed)) and answer.turn_id == turn_id:
            return answer
        if isinstance(answer, wire.Refused):
            return wire.TurnFailed(
                turn_id=turn_id, stage="spawn", reason=f"fork-server refused: {answer.reason}"
            )
        return wire.TurnFailed(
            turn_id=turn_id,
            stage="protocol",
            reason=f"fork-server answered {type(answer).__name__}",
        )

    def _request_forkserver(self, request: wire.SpawnTurn, deadline: float) -> wire.Message:
        """The spawn request; while no fork-server listens yet (no socket, or refused: it is
        starting), tried again for up to STARTING_WAIT_S, within the turn's own deadline."""
        path = self.root.socket("forkserver")
        waited_until = time.monotonic() + min(STARTING_WAIT_S, deadline)
        while True:
            try:
                return ipc.request(path, request, timeout=deadline + RELAY_GRACE_S)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() >= waited_until:
                    raise
                pause(STARTING_POLL_S)


def pause(seconds: float) -> None:
    """The start window's poll: a socket that does not exist yet has no event to wait on."""
    time.sleep(seconds)


def turn_deadline(root: DataRoot) -> float:
    """SHELLDON_TURN_DEADLINE (tests), else `[worker] turn_timeout` in shelldon.toml."""
    raw = os.environ.get(TURN_DEADLINE_ENV)
    if not raw:
        return float(load_config(root).worker.turn_timeout)
    try:
        value = float(raw)
    except ValueError:
        log.error(
            "%s=%r is not a number; using %.0f s", TURN_DEADLINE_ENV, raw, DEFAULT_TURN_DEADLINE_S
        )
        return DEFAULT_TURN_DEADLINE_S
    return value if value > 0 else DEFAULT_TURN_DEADLINE_S


def prompts_recorded() -> bool:
    """SHELLDON_RECORD_PROMPTS=1: core asks each worker for its prompt and keeps it (tests)."""
    return os.environ.get(RECORD_PROMPTS_ENV) == "1"


def record_prompt(root: DataRoot, turn_id: str, purpose: str, prompt: Any) -> None:
    """Append the worker's assembled prompt to state/prompts.jsonl (tests only, opt-in)."""
    if not prompts_recorded() or prompt is None:
        return
    line = json.dumps(
        {"turn_id": turn_id, "purpose": purpose, "prompt": msgspec.to_builtins(prompt)},
        ensure_ascii=False,
    )
    try:
        state = Path(root.state)
        layout.ensure_dir(state, layout.DIR_MODE)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
        with os.fdopen(os.open(state / PROMPTS_LOG, flags, layout.FILE_MODE), "a") as fh:
            fh.write(line + "\n")
    except OSError as exc:
        log.warning("turn %s: cannot append the prompt record: %s", turn_id, exc)
