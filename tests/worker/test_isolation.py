"""The vault is kept by the kernel: a real forked, dropped worker tries what a hostile brain would.

Root tests (CI runs as root) use a real unprivileged uid of their own, the run's throwaway worker
user (`worker_user`, tests/support/users.py): `nobody` is refused as shared. The data root lives in
a world-traversable temporary directory, because pytest's own tmp tree is 0700 and the worker must
be able to reach the memory tree it reads.
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot
from support.marks import needs_root
from support.pet import Pet, start_pet, start_to_exit
from support.users import TestUser

needs_uid_drop = needs_root("a real uid drop and the kernel's refusal")


def _seed_memory(root: DataRoot) -> None:
    """Files core would have written: every one must be out of the worker's reach for writing."""
    root.memory.mkdir(parents=True, exist_ok=True)
    (root.memory / "DIRECTIVE.md").write_text("Be kind.\n")
    (root.memory / "about.md").write_text("I am a pet.\n")
    (root.memory / "facts").mkdir(exist_ok=True)
    (root.memory / "facts" / "tea.md").write_text("The owner likes tea.\n")
    for path in root.memory.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)


def _probe(pet: Pet) -> tuple[bool, dict[str, object]]:
    answer = ipc.request(pet.root.socket("core"), wire.IsolationProbe(), timeout=60)
    assert isinstance(answer, wire.ProbeReport), answer
    return answer.isolated, json.loads(answer.report)


def _by_name(report: dict[str, object]) -> dict[str, dict[str, object]]:
    checks = report["checks"]
    assert isinstance(checks, list)
    return {str(c["check"]): c for c in checks}


@pytest.fixture
def isolated_pet(world_home: Path, worker_user: TestUser) -> Iterator[Pet]:
    root = DataRoot.resolve()
    _seed_memory(root)
    pet = start_pet({"SHELLDON_WORKER_USER": worker_user.name})
    try:
        assert pet.cli("vault", "set", "probe", stdin="the-secret-value-123\n").returncode == 0
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()


@needs_uid_drop
def test_the_kernel_refuses_the_worker_the_vault_and_every_write(
    isolated_pet: Pet, worker_user: TestUser
) -> None:
    isolated, report = _probe(isolated_pet)
    assert isolated is True
    assert report["resuid"] == [worker_user.uid] * 3
    assert report["resgid"] == [worker_user.gid] * 3
    assert report["groups"] in ([], [worker_user.gid])
    status = report["status"]
    assert isinstance(status, dict)
    assert int(status["CapEff"], 16) == 0
    assert int(status["CapPrm"], 16) == 0
    assert int(status["CapAmb"], 16) == 0
    assert status["NoNewPrivs"] == "1"

    checks = _by_name(report)
    for name in ("list vault/", "read vault/<key>.md"):
        assert checks[name]["error"] == "PermissionError", checks[name]
        assert checks[name]["errno"] == errno.EACCES
    assert checks["setuid(0)"]["error"] == "PermissionError"
    assert checks["setuid(0)"]["errno"] == errno.EPERM
    writes = [c for n, c in checks.items() if "for writing" in n or n.startswith("create a file")]
    names = {n for n in checks if "for writing" in n}
    # Every file of the tree and the database was tried, not just a sample.
    for expected in ("memory/DIRECTIVE.md", "memory/about.md", "memory/facts/tea.md", "history.db"):
        assert any(expected in n for n in names), (expected, sorted(names))
    assert any(n.startswith("create a file in memory/facts") for n in checks)
    for check in writes:
        assert check["outcome"] == "refused", check
        assert check["error"] == "PermissionError", check
    assert checks["write history.db through sqlite"]["outcome"] == "refused"
    assert all(c["outcome"] != "allowed" for c in checks.values()), report


@needs_uid_drop
def test_an_isolated_worker_still_answers_a_turn(isolated_pet: Pet) -> None:
    said = isolated_pet.cli("say", "hello, are you there?")
    assert said.returncode == 0, said.stderr
    status = json.loads(isolated_pet.cli("status", "--json").stdout)
    assert status["vault_isolation"] is True
    assert status["last_turn"]["outcome"] == "ok", isolated_pet.log
    assert "vault isolation OFF" not in isolated_pet.log


def test_without_a_worker_user_the_probe_shows_the_vault_open(world_home: Path) -> None:
    """The control: the same probe in dev mode reaches the vault, so the test above can fail."""
    _seed_memory(DataRoot.resolve())
    pet = start_pet()
    try:
        assert pet.cli("vault", "set", "probe", stdin="dev-secret-value\n").returncode == 0
        isolated, report = _probe(pet)
        assert isolated is False
        checks = _by_name(report)
        assert checks["list vault/"]["outcome"] == "allowed"
        assert checks["open memory/about.md for writing"]["outcome"] == "allowed"
        pet.wait_for_log("vault isolation OFF, dev mode")
        assert "OFF (dev mode)" in pet.cli("status").stdout
    finally:
        pet.stop()


@needs_uid_drop
def test_a_worker_user_that_does_not_exist_stops_the_fork_server(run_dir: Path) -> None:
    done = start_to_exit({"SHELLDON_WORKER_USER": "no-such-user-shelldon"})
    assert done.returncode == 1
    assert "worker user 'no-such-user-shelldon' does not exist" in done.stderr
    assert "forkserver (pid" in done.stderr and "exited with status 2 while starting" in done.stderr


@needs_uid_drop
def test_a_data_root_the_worker_cannot_reach_stops_the_start_with_the_reason(
    run_dir: Path, home: Path, worker_user: TestUser
) -> None:
    # `home` is under pytest's 0700 tmp tree: the worker could never read the memory tree.
    done = start_to_exit({"SHELLDON_WORKER_USER": worker_user.name})
    assert done.returncode == 1
    assert f"(mode 0700) keeps {worker_user.name} from reaching" in done.stderr
    assert "exited with status 2 while starting" in done.stderr


@needs_uid_drop
def test_doctor_shows_the_kernels_refusal(isolated_pet: Pet, worker_user: TestUser) -> None:
    done = isolated_pet.cli("doctor", "--offline")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert re.search(
        rf"ok\s+isolation vault read\s+worker uid {worker_user.uid}: 1/1 refused by the kernel: "
        r"PermissionError \(errno 13\)",
        out,
    ), out
    assert re.search(r"ok\s+isolation root again .*PermissionError \(errno 1\)", out), out
    assert re.search(r"ok\s+isolation memory writes\s+worker uid \d+: (\d+)/\1 refused", out), out
    assert re.search(r"ok\s+isolation caps\s+CapEff 0+ CapPrm 0+ NoNewPrivs 1", out), out
    assert re.search(r"ok\s+process forkserver", out), out


def test_doctor_warns_when_isolation_is_off(world_home: Path) -> None:
    pet = start_pet()
    try:
        out = pet.cli("doctor", "--offline").stdout
        assert re.search(r"WARN\s+vault isolation\s+OFF \(dev mode\)", out), out
    finally:
        pet.stop()


@needs_uid_drop
def test_a_shared_account_as_the_worker_stops_the_fork_server_with_the_reason(
    world_home: Path,
) -> None:
    done = start_to_exit({"SHELLDON_WORKER_USER": "nobody"})
    assert done.returncode == 1
    assert "worker user 'nobody' is a shared account (uid 65534 is the overflow user" in done.stderr
    assert "forkserver (pid" in done.stderr and "exited with status 2 while starting" in done.stderr
