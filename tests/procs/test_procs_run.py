"""The pet as real processes: `shelldon run`, the owner's CLI against it, shutdown, deaths."""

from __future__ import annotations

import json
import os
import signal
import stat

from procs_support import Pet, alive

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.brain import CompletionRequest, PromptSection


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
    assert pet.stop() == 0
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
    assert "refused SpawnTurn from pid" in pet.log or _log_eventually(pet, "refused SpawnTurn")


def test_only_a_worker_may_ask_for_a_completion(pet: Pet) -> None:
    request = CompletionRequest(
        purpose="turn", sections=(PromptSection(kind="message", text="hi"),)
    )
    answer = ipc.request(pet.root.socket("broker"), wire.Complete(turn_id="t", request=request))
    assert isinstance(answer, wire.Refused)
    assert "only a worker" in answer.reason


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
