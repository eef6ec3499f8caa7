"""One turn, inside a dropped worker: assemble the prompt, ask the broker, hand back reply + raw
ops.

Runs after `worker.drop` in a child of the fork-server. It opens nothing writable: memory is
read through `worker.prompt.gather_context` (read-only handles), the brain is reached only
through the broker's socket. The result goes back to the fork-server on the turn's pipe; core
decides what, if anything, is written.

`purpose == "probe"` runs no brain: it tries what a hostile worker would try (read the vault,
write the memory tree and history.db, regain root, every call the seccomp filter lists) and
reports what the kernel said. `shelldon
doctor` and the isolation tests use it."""

from __future__ import annotations

import errno
import json
import logging
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Literal

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.digest import reflect_request
from shelldon.paths import DataRoot
from shelldon.worker import sandbox
from shelldon.worker.prompt import gather_context

log = logging.getLogger("shelldon.worker.turn")

# Of what is left of the turn, kept back from the broker's chain: the time its answer takes to come
# back through this worker to the fork-server before the fork-server's deadline kills the worker.
RELAY_MARGIN_S = 1.0


def _assemble(root: DataRoot, spawn: wire.SpawnTurn) -> CompletionRequest:
    if spawn.purpose == "reflect":  # core's digest carries all it reads, existing entries too
        return reflect_request(spawn.dream_directive)
    purpose: Literal["turn", "dream", "checkin"] = "turn"
    if spawn.purpose == "dream" or spawn.purpose == "checkin":
        purpose = spawn.purpose
    return gather_context(
        root,
        spawn.message,
        purpose=purpose,
        dream_directive=spawn.dream_directive,
        owner_languages=spawn.owner_languages,
        clock_line=spawn.clock_line,
    )


def run_turn(
    root: DataRoot,
    spawn: wire.SpawnTurn,
    *,
    isolated: bool,
    deadline: float,
    token: str,
    admitted: Callable[[], bool] = lambda: True,
) -> wire.TurnResult | wire.TurnFailed:
    """Everything the worker does for one turn. Never raises: failures become TurnFailed.
    `token`: this turn's, from the fork-server (worker.admission); the broker serves no
    Complete without it. `admitted` blocks until the fork-server has settled this worker's
    admission at the broker, and says whether it was admitted: called only once the prompt is
    read, so the read and the admission's round trip overlap (the broker needs the admission for
    the Complete alone). A broker that did not admit it, or that is not there to take the
    Complete (not up yet at the pet's start, or restarting), is stage "unreached": no brain ran,
    so a check-in is asked again soon rather than charged (a clean-clone CI run: core's first
    check-in ran 30 ms before the broker was up, and was lost to its cooldown)."""
    if spawn.purpose == "probe":
        report = probe_isolation(root)
        return wire.TurnResult(
            turn_id=spawn.turn_id, reply=json.dumps(report), provider="probe", isolated=isolated
        )
    try:
        request = _assemble(root, spawn)
    except Exception as exc:
        log.exception("prompt assembly failed")
        return wire.TurnFailed(
            turn_id=spawn.turn_id,
            stage="prompt",
            reason=f"prompt assembly failed: {type(exc).__name__}",
        )
    if not admitted():
        return wire.TurnFailed(
            turn_id=spawn.turn_id, stage="unreached", reason="the broker did not admit this worker"
        )
    try:
        sock = ipc.connect(root.socket("broker"), timeout=max(0.1, deadline - time.monotonic()))
    except OSError as exc:  # no broker listening: nothing was sent
        return wire.TurnFailed(
            turn_id=spawn.turn_id, stage="unreached", reason=f"broker: {type(exc).__name__}: {exc}"
        )
    try:
        with sock:
            left = max(0.1, deadline - time.monotonic() - RELAY_MARGIN_S)
            complete = wire.Complete(
                turn_id=spawn.turn_id, request=request, deadline_s=left, token=token
            )
            answer = ipc.exchange(sock, complete, deadline=deadline)
    except ipc.NotTaken as exc:  # closed before it took the Complete: no brain ran
        return wire.TurnFailed(
            turn_id=spawn.turn_id, stage="unreached", reason=f"broker: {type(exc).__name__}: {exc}"
        )
    except (OSError, ipc.IpcError) as exc:
        return wire.TurnFailed(
            turn_id=spawn.turn_id, stage="brain", reason=f"broker: {type(exc).__name__}: {exc}"
        )
    if isinstance(answer, wire.Completion):
        reply = answer.reply
        return wire.TurnResult(
            turn_id=spawn.turn_id,
            reply=reply.text,
            ops=reply.ops,
            provider=reply.provider,
            usage=reply.usage,
            dropped=reply.dropped,
            prompt=request if spawn.capture_prompt else None,
            isolated=isolated,
            failures=reply.failures,
        )
    if isinstance(answer, wire.CompletionFailed):
        return wire.TurnFailed(
            turn_id=spawn.turn_id,
            stage="brain",
            reason=f"{answer.kind or 'failed'}: {answer.reason}",
            failures=answer.failures,
        )
    if isinstance(answer, wire.Refused):
        return wire.TurnFailed(
            turn_id=spawn.turn_id, stage="brain", reason=f"broker refused: {answer.reason}"
        )
    return wire.TurnFailed(
        turn_id=spawn.turn_id, stage="protocol", reason=f"broker answered {type(answer).__name__}"
    )


# --- the isolation probe ------------------------------------------------------------------------


def _attempt(name: str, action: Callable[[], object]) -> dict[str, object]:
    """Run one hostile action; record whether the kernel refused it and with what."""
    try:
        action()
    except PermissionError as exc:
        return {"check": name, "outcome": "refused", "error": "PermissionError", "errno": exc.errno}
    except OSError as exc:
        refused = exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
        return {
            "check": name,
            "outcome": "refused" if refused else "error",
            "error": type(exc).__name__,
            "errno": exc.errno,
        }
    except Exception as exc:  # sqlite3 raises its own types for a read-only file
        return {
            "check": name,
            "outcome": "refused",
            "error": type(exc).__name__,
            "errno": None,
            "detail": str(exc)[:120],
        }
    return {"check": name, "outcome": "allowed", "error": None, "errno": None}


def _append_byte(path: Path) -> None:
    # O_WRONLY without O_TRUNC/O_CREAT: if it opens, the worker could write; we write nothing.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    os.close(fd)


def _create_file(directory: Path) -> None:
    path = directory / f".probe-{os.getpid()}.md"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.close(fd)
    os.unlink(path)  # dev mode: leave nothing behind


def _sqlite_write(db: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=rw", uri=True)
    try:
        # mode=rw quietly falls back to read-only on a write-protected file, and a lock alone is
        # not a write: make a real change, then roll it back so even dev mode keeps nothing.
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE shelldon_probe_must_not_exist (x)")
        finally:
            conn.execute("ROLLBACK")
    finally:
        conn.close()


def _status_fields(*names: str) -> dict[str, str]:
    found: dict[str, str] = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in names:
                found[key] = value.strip()
    except OSError as exc:
        found["error"] = str(exc)
    return found


def probe_isolation(root: DataRoot) -> dict[str, object]:
    """What a hostile worker can do. Every check's good outcome is "refused"."""
    checks: list[dict[str, object]] = []
    vault = root.vault
    checks.append(_attempt("list vault/", lambda: os.listdir(vault)))
    checks.append(_attempt("read vault/<key>.md", lambda: (vault / "probe.md").read_bytes()))
    memory = root.memory
    targets: list[Path] = []
    try:
        for dirpath, dirnames, filenames in os.walk(memory):
            dirnames[:] = [d for d in dirnames if Path(dirpath, d) != vault]
            targets.extend(Path(dirpath, f) for f in filenames)
            checks.append(
                _attempt(
                    f"create a file in {Path(dirpath).relative_to(root.home)}/",
                    partial(_create_file, Path(dirpath)),
                )
            )
    except OSError as exc:
        checks.append(
            {
                "check": "walk memory/",
                "outcome": "error",
                "error": type(exc).__name__,
                "errno": exc.errno,
            }
        )
    for path in sorted(targets):
        checks.append(
            _attempt(f"open {path.relative_to(root.home)} for writing", partial(_append_byte, path))
        )
    for suffix in ("", "-wal", "-shm"):
        db_file = root.history_db.with_name(root.history_db.name + suffix)
        if db_file.exists():
            checks.append(
                _attempt(f"open {db_file.name} for writing", partial(_append_byte, db_file))
            )
    if root.history_db.exists():
        checks.append(
            _attempt("write history.db through sqlite", lambda: _sqlite_write(root.history_db))
        )
    checks.append(_attempt("setuid(0)", lambda: os.setuid(0)))
    calls = sandbox.try_listed_calls()
    notes = sorted(t for t in targets if t.suffix == ".md")  # what a turn reads
    allowed = sandbox.try_allowed(notes[0] if notes else Path("/proc/self/status"))
    log.info(
        "isolation probe: %d checks; %d filtered calls tried, %d refused",
        len(checks),
        len(calls),
        sum(1 for c in calls if c["outcome"] == "refused"),
    )
    return {
        "uid": os.getuid(),
        "gid": os.getgid(),
        "resuid": list(os.getresuid()),
        "resgid": list(os.getresgid()),
        "groups": os.getgroups(),
        "status": _status_fields("CapEff", "CapPrm", "CapAmb", "CapBnd", "NoNewPrivs", "Seccomp"),
        "checks": checks,
        "syscalls": calls,
        "allowed": allowed,
    }
