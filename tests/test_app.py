"""The pet as real processes: `shelldon run`, the owner's CLI against it, shutdown, deaths."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.app import stdlib_compiled_without_docstrings
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support import users
from support.marks import needs_root
from support.pet import Pet, alive, start_pet, start_to_exit, wait_gone
from support.users import TestUser


def test_say_status_and_vault_through_the_cli(pet: Pet) -> None:
    said = pet.cli("say", "hello there")
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip()

    status = pet.cli("status", "--json")
    assert status.returncode == 0, status.stderr
    report = json.loads(status.stdout)
    names = {p["name"]: p for p in report["processes"]}
    assert set(names) == {"core", "broker", "forkserver"}
    assert all(p["up"] for p in names.values())
    assert report["last_turn"]["outcome"] == "ok"
    assert report["vault_isolation"] is (
        os.geteuid() == 0 and bool(os.environ.get("SHELLDON_WORKER_USER"))
    )

    stored = pet.cli("vault", "set", "api_key", stdin="sk-test-abcdef123456\n")
    assert stored.returncode == 0, stored.stderr
    listed = pet.cli("vault", "list")
    assert listed.returncode == 0
    assert listed.stdout.split() == ["api_key"]
    secret_file = pet.root.vault / "api_key.md"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(pet.root.vault.stat().st_mode) == 0o700
    assert secret_file.read_text().strip() == "sk-test-abcdef123456"
    everything = said.stdout + status.stdout + listed.stdout + pet.cli("status").stdout + pet.log
    assert "sk-test-abcdef123456" not in everything


def test_a_bad_vault_key_is_refused(pet: Pet) -> None:
    refused = pet.cli("vault", "set", "../escape", stdin="value\n")
    assert refused.returncode == 1
    assert "vault key" in refused.stderr
    assert not (pet.root.memory / "escape.md").exists()


def test_sigterm_stops_everything_cleanly(pet: Pet) -> None:
    pids = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    assert all(alive(pid) for pid in pids.values())
    assert pet.stop() == 0, pet.log
    assert not any(alive(pid) for pid in pids.values())
    for name in pids:
        assert not pet.root.socket(name).exists(), name
        assert not (pet.root.run_dir / f"{name}.pid").exists(), name


def test_a_dead_child_is_reported_and_the_rest_stopped(pet: Pet) -> None:
    pids = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    os.kill(pids["broker"], signal.SIGKILL)
    code = pet.proc.wait(timeout=60)
    pet.ended.wait(timeout=10)
    assert code == 1
    assert f"broker (pid {pids['broker']}) was killed by SIGKILL" in pet.log
    assert not alive(pids["core"]) and not alive(pids["forkserver"])


def test_only_core_may_spawn_a_turn(pet: Pet) -> None:
    answer = ipc.request(
        pet.root.socket("forkserver"), wire.SpawnTurn(turn_id="t", purpose="turn", message="hi")
    )
    assert isinstance(answer, wire.Refused)
    assert "only core" in answer.reason
    # Logged once per uid and reason (ipc.RefusalLog), naming the peer and why.
    refused = "unheard: only core may spawn a turn"
    assert refused in pet.log or _log_eventually(pet, refused)


def test_only_a_worker_may_ask_for_a_completion(pet: Pet) -> None:
    request = CompletionRequest(
        purpose="turn", sections=(PromptSection(kind="message", text="hi"),)
    )
    answer = ipc.request(pet.root.socket("broker"), wire.Complete(turn_id="t", request=request))
    assert isinstance(answer, wire.Refused)
    assert "only the worker the fork-server spawned for a live turn" in answer.reason


def test_only_core_may_read_the_vault(pet: Pet) -> None:
    assert pet.cli("vault", "set", "token", stdin="hunter2-hunter2\n").returncode == 0
    answer = ipc.request(pet.root.socket("broker"), wire.VaultRead(key="token"))
    assert isinstance(answer, wire.Refused)
    assert "only core" in answer.reason


def _log_eventually(pet: Pet, text: str) -> bool:
    # The refusal is logged before the answer is sent, so by now it is in the pipe; stop the pet
    # to flush stderr and look again.
    pet.stop()
    return text in pet.log


@needs_root("a peer of another uid")
def test_a_stranger_cannot_connect_to_the_fork_server_core_or_the_broker(
    pet: Pet, stranger_user: TestUser
) -> None:
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - reports through the pipe
        answers = []
        try:
            users.become(stranger_user)
            for name in ("forkserver", "core", "broker"):
                try:
                    ipc.request(pet.root.socket(name), wire.Ping(), timeout=10)
                    answers.append(f"{name} answered")
                except PermissionError:
                    answers.append(f"{name}.sock: permission denied")
        except BaseException as exc:
            answers.append(f"{type(exc).__name__}: {exc}")
        os.write(write_end, "\n".join(answers).encode())
        os._exit(0)
    os.close(write_end)
    out = b""
    while chunk := os.read(read_end, 4096):
        out += chunk
    os.close(read_end)
    os.waitpid(child, 0)
    assert out.decode().splitlines() == [
        "forkserver.sock: permission denied",
        "core.sock: permission denied",
        "broker.sock: permission denied",
    ]


def test_status_counts_what_the_turns_stored(pet: Pet) -> None:
    assert pet.cli("say", "my sister is called Ana").returncode == 0
    assert pet.cli("say", "hello again").returncode == 0
    counts = json.loads(pet.cli("status", "--json").stdout)["memory_counts"]
    assert counts["messages"] == 4  # two turns, owner and pet rows each
    assert counts["people"] == 1  # the offline brain's remember, through the gate
    assert counts["vault"] == 0


def test_a_second_pet_on_the_same_run_dir_is_refused_and_the_first_keeps_serving(pet: Pet) -> None:
    pids = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    second = start_to_exit()
    assert second.returncode == 1
    assert "is in use: is another shelldon running on this run dir?" in second.stderr
    # The refusal names who holds the run dir: the listener and every pid file.
    assert "listening: pid " in second.stderr
    for name, pid in pids.items():
        assert f"{name} pid {pid}" in second.stderr, name
    assert pet.cli("say", "still there?").returncode == 0
    assert all(pet.root.socket(n).exists() for n in ("core", "broker", "forkserver"))


def test_after_a_hard_crash_the_next_start_replaces_the_stale_sockets(pet: Pet) -> None:
    pids = [pet.pid_of(n) for n in ("core", "broker", "forkserver")]
    # The supervisor is stopped first: once one child is dead it would SIGTERM the others, and
    # those would remove their sockets on the way out (seen under load in CI).
    pet.proc.send_signal(signal.SIGSTOP)
    _, status = os.waitpid(pet.proc.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    assert wait_gone(pids, timeout=60) == []  # a SIGKILL lands once the kernel lets it
    pet.proc.kill()
    pet.proc.wait(timeout=30)
    assert all(pet.root.socket(n).exists() for n in ("core", "broker", "forkserver"))
    again = start_pet()
    try:
        said = again.cli("say", "are you back?")
        assert said.returncode == 0, said.stderr + again.log
    finally:
        assert again.stop() == 0, again.log


def test_turns_leave_no_late_import_and_no_traceback_in_the_logs(pet: Pet) -> None:
    for text in ("my sister is called Ana", "remember that I like green tea", "who is Ana?"):
        assert pet.cli("say", text).returncode == 0
    assert pet.stop() == 0  # the whole log is in once the processes are gone
    assert "imported after fork" not in pet.log  # every worker module is preloaded
    assert "Traceback" not in pet.log


def test_sigint_stops_everything_cleanly(pet: Pet) -> None:
    pids = [pet.pid_of(n) for n in ("core", "broker", "forkserver")]
    pet.proc.send_signal(signal.SIGINT)
    assert pet.proc.wait(timeout=60) == 0
    assert not any(alive(pid) for pid in pids)


def test_restart_restarts_the_processes_of_shelldon_run_and_says_so(pet: Pet) -> None:
    before = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    done = pet.cli("restart")
    assert done.returncode == 0, done.stderr + pet.log
    assert f"under `shelldon run` (pid {pet.proc.pid})" in done.stdout
    after = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    assert all(after[name] != before[name] for name in before), (before, after)
    assert not any(alive(pid) for pid in before.values())
    assert pet.proc.poll() is None  # the supervisor itself goes on
    assert pet.say("hello again")


def test_restart_with_nothing_running_says_so(run_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", "restart"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "shelldon restart: shelldon is not running, so there is nothing to restart: `shelldon run`"
    )


def test_a_killed_supervisor_takes_its_children_with_it_and_the_next_start_works(
    pet: Pet,
) -> None:
    pids = [pet.pid_of(n) for n in ("core", "broker", "forkserver")]
    assert pet.cli("say", "hello").returncode == 0
    pet.proc.kill()  # SIGKILL: the supervisor runs no clean-up at all
    pet.proc.wait(timeout=30)
    assert wait_gone(pids, timeout=60) == [], "children outlived their supervisor"
    again = start_pet()
    try:
        said = again.cli("say", "are you back?")
        assert said.returncode == 0, said.stderr + again.log
        assert again.pid_of("core") not in pids
    finally:
        assert again.stop() == 0, again.log


HUNG_AT_STOP = """
import signal, sys, threading
from shelldon.daemon import stacks_on_sigquit

def a_stop_that_never_ends():
    threading.Event().wait()

stacks_on_sigquit()
signal.signal(signal.SIGTERM, lambda *_: None)
print("ready", flush=True)
a_stop_that_never_ends()
"""


def test_a_child_that_ignores_sigterm_writes_its_stacks_and_is_killed(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The supervisor's last resort says where a child hung: SIGQUIT (its stacks, by
    faulthandler, to its log), then SIGKILL."""
    from shelldon import app
    from shelldon.paths import DataRoot

    monkeypatch.setattr(app, "STOP_TIMEOUT_S", 0.5)
    proc = subprocess.Popen(
        [sys.executable, "-c", HUNG_AT_STOP],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"ready\n"  # its handlers are in place
    supervisor = app.Supervisor(DataRoot.resolve(None))
    supervisor.children["core"] = app.Child("core", proc)
    codes = supervisor.stop()
    assert codes == {"core": -signal.SIGKILL}
    stacks = proc.stderr.read().decode()
    assert "a_stop_that_never_ends" in stacks, stacks


def test_the_processes_keep_no_column_tables_and_no_docstrings(pet: Pet) -> None:
    """`shelldon run` starts the three as the card's units do (PYTHONNODEBUGRANGES=1, -OO), and
    they work so: every other test here talks to them."""
    for name in ("core", "broker", "forkserver"):
        environ = Path(f"/proc/{pet.pid_of(name)}/environ").read_bytes().split(b"\0")
        assert b"PYTHONNODEBUGRANGES=1" in environ, name
        # -OO only where the stdlib's -OO byte-code is there (see app.py)
        assert (b"PYTHONOPTIMIZE=2" in environ) is stdlib_compiled_without_docstrings(), name
