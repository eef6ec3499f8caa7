"""Running the real pet in tests: `shelldon run --no-chat` in a subprocess, the CLI against it."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shelldon.paths import DataRoot

if TYPE_CHECKING:
    from fakes.fake_provider import FakeProvider

UP_TIMEOUT_S = 60.0


@dataclass
class Pet:
    root: DataRoot
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    up: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
            if "shelldon is up" in line:
                self.up.set()
        self.ended.set()
        with self.changed:
            self.changed.notify_all()

    def wait_for_log(self, pattern: str, timeout: float = UP_TIMEOUT_S) -> re.Match[str]:
        """The first log line matching `pattern`, waiting for it (woken by each new line)."""
        regex = re.compile(pattern)

        def found() -> re.Match[str] | None:
            return next((m for line in self.lines if (m := regex.search(line))), None)

        with self.changed:
            self.changed.wait_for(lambda: found() is not None or self.ended.is_set(), timeout)
            match = found()
        if match is None:
            pytest.fail(f"no log line matching {pattern!r}:\n{self.log}")
        return match

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def cli(
        self, *args: str, stdin: str | None = None, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "shelldon", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=os.environ.copy(),
            check=False,
        )

    def say(self, text: str) -> str:
        """One turn through `shelldon say`; the pet's reply."""
        done = self.cli("say", text)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def settled(self) -> None:
        """Wait until the turn just answered has applied its ops, by asking `status`.

        Core sends the owner's reply before it applies the turn's ops (core.turn.apply: the turn is
        journaled, then answered, then applied), so after `say` returns, what the turn stores
        besides its two history rows may not be written yet: memory entries, the audit log
        (memory/history.jsonl), learnings, reminders, state/prompts.jsonl. `status` waits for
        them (core.server's `settled`, bounded by SETTLE_WAIT_S). Call this before reading any of
        those directly. Not needed before another `say`, `dream --now` or a stop: each of those
        waits for the turn in flight on core's one-turn gate (core.runner.TurnGate)."""
        done = self.cli("status")
        assert done.returncode == 0, done.stderr

    def prompts(self) -> list[dict[str, Any]]:
        """The prompts core recorded (state/prompts.jsonl, SHELLDON_RECORD_PROMPTS=1), in order.
        A turn's prompt is written after its reply: `settled()` first while the pet runs."""
        path = self.root.state / "prompts.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()]

    def pid_of(self, name: str) -> int:
        return int((self.root.run_dir / f"{name}.pid").read_text())

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        self.ended.wait(timeout=10)
        return code


def prompt_section(record: dict[str, Any], kind: str) -> str:
    """The text of a recorded prompt's sections of one kind ("recent", "recall", "memory", ...)."""
    return "\n".join(s["text"] for s in record["prompt"]["sections"] if s["kind"] == kind)


def start_pet(extra_env: dict[str, str] | None = None) -> Pet:
    env = os.environ.copy()
    env.update(extra_env or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "shelldon", "run", "--no-chat"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    pet = Pet(DataRoot.resolve(env.get("SHELLDON_HOME")), proc)
    threading.Thread(target=pet.drain, daemon=True).start()
    if not pet.up.wait(UP_TIMEOUT_S):
        proc.kill()
        proc.wait()
        pytest.fail(f"the pet did not come up:\n{pet.log}")
    return pet


def start_to_exit(extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`shelldon run --no-chat` for a start that is expected to fail: run to its exit."""
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "run", "--no-chat"],
        env={**os.environ, **(extra_env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@contextlib.contextmanager
def running_pet(extra_env: dict[str, str] | None = None) -> Iterator[Pet]:
    """`start_pet()`, stopped on the way out if it is still running."""
    pet = start_pet(extra_env)
    try:
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """Block until every pid has exited (pidfds turn readable at exit), at most `timeout`
    seconds. The pids still running then."""
    fds: dict[int, int] = {}
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            fds[os.pidfd_open(pid)] = pid
    deadline = time.monotonic() + timeout
    try:
        while fds and (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select(list(fds), [], [], left)
            for fd in ready:
                fds.pop(fd)
                os.close(fd)
        return [pid for pid in fds.values() if alive(pid)]
    finally:
        for fd in fds:
            os.close(fd)


class Units:
    """The three processes started one by one, as systemd's Type=notify units would start them.

    Each gets NOTIFY_SOCKET (and optionally WATCHDOG_USEC) pointing at a datagram socket here; a
    process counts as started when its READY=1 arrives, identified by the kernel's SCM_CREDENTIALS.
    """

    def __init__(
        self, root: DataRoot, env: dict[str, str] | None = None, watchdog_usec: int | None = None
    ):
        self.root = root
        self.env = dict(os.environ, **(env or {}))
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.messages: list[tuple[int, str]] = []  # (sender pid, datagram)
        root.run_dir.mkdir(parents=True, exist_ok=True)
        self.notify_path = root.run_dir / "test-notify.sock"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.notify_path))
        self.notify.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.env["NOTIFY_SOCKET"] = str(self.notify_path)
        if watchdog_usec is not None:
            self.env["WATCHDOG_USEC"] = str(watchdog_usec)
        self.logs = {
            name: root.home / f"{name}-unit.log" for name in ("core", "broker", "forkserver")
        }
        root.home.mkdir(parents=True, exist_ok=True)

    def start(self, name: str, timeout: float = UP_TIMEOUT_S) -> int:
        with self.logs[name].open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "shelldon", name],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self.procs[name] = proc
        try:
            self.wait_for(proc.pid, "READY=1", timeout, proc)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        return proc.pid

    def wait_for(
        self, pid: int, state: str, timeout: float, proc: subprocess.Popen[bytes] | None = None
    ) -> None:
        if any(p == pid and state in m.split("\n") for p, m in self.messages):
            return
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {state} from pid {pid}; log:\n{self.log_text()}")
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"pid {pid} exited ({proc.returncode}); log:\n{self.log_text()}")
            readable, _, _ = select.select([self.notify], [], [], min(left, 0.5))
            if not readable:
                continue
            data, anc, _, _ = self.notify.recvmsg(4096, socket.CMSG_SPACE(12))
            sender = -1
            for level, kind, payload in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    sender = int.from_bytes(payload[:4], sys.byteorder, signed=True)
            message = data.decode(errors="replace")
            self.messages.append((sender, message))
            if sender == pid and state in message.split("\n"):
                return

    def cli(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """`shelldon <args>` against these units (their environment, so their data root)."""
        return subprocess.run(
            [sys.executable, "-m", "shelldon", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env,
            check=False,
        )

    def log_text(self) -> str:
        return "".join(p.read_text(errors="replace") for p in self.logs.values() if p.exists())

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs[name]
        proc.send_signal(sig)
        proc.wait(timeout=30)

    def stop_all(self) -> dict[str, int | None]:
        codes: dict[str, int | None] = {}
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for name, proc in self.procs.items():
            try:
                codes[name] = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                codes[name] = proc.wait()
        self._drain()
        with contextlib.suppress(OSError):
            self.notify.close()
        return codes

    def _drain(self) -> None:
        """Keep the datagrams still queued (STOPPING=1 arrives while the processes exit)."""
        if self.notify.fileno() < 0:
            return
        self.notify.setblocking(False)
        while True:
            try:
                data, anc, _, _ = self.notify.recvmsg(4096, socket.CMSG_SPACE(12))
            except (BlockingIOError, OSError):
                return
            sender = -1
            for level, kind, payload in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    sender = int.from_bytes(payload[:4], sys.byteorder, signed=True)
            self.messages.append((sender, data.decode(errors="replace")))


def owner_turns(pet: Pet, fake: FakeProvider, n: int) -> list[dict[str, Any]]:
    """`n` owner turns; each must be answered by the fake provider through a dropped worker."""
    before = len(fake.requests)
    for i in range(n):
        assert pet.cli("say", f"hello number {i}").returncode == 0, pet.log
        last = json.loads(pet.cli("status", "--json").stdout)
        assert last["vault_isolation"] is True
        assert last["last_turn"]["outcome"] == "ok", pet.log
        assert last["last_turn"]["provider"] == "fake", pet.log
    assert len(fake.requests) == before + n  # every turn reached the provider, none degraded
    return [last]
