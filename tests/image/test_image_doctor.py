"""The appliance's doctor checks, on files and reports made here (the live run is in the boot
test: `shelldon doctor` inside the booted check root)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shelldon.appliance import doctor_checks as dc
from shelldon.appliance.doctor import DoctorContext
from shelldon.paths import DataRoot


def elf(path: Path, machine: int) -> str:
    header = b"\x7fELF\x02\x01\x01" + bytes(11) + machine.to_bytes(2, "little") + bytes(44)
    path.write_bytes(header)
    return str(path)


def test_native_architecture_must_match(tmp_path):
    arm = elf(tmp_path / "arm.so", 0xB7)
    assert dc.native_result(arm, "aarch64").status == "ok"
    wrong = dc.native_result(arm, "x86_64")
    assert wrong.status == "fail" and "0xb7" in wrong.detail
    (tmp_path / "text.so").write_text("not an elf at all, no")
    assert dc.native_result(str(tmp_path / "text.so"), "aarch64").status == "fail"


def test_memory_parsed_and_low_memory_warns():
    ok = dc.memory_result("MemTotal:  427000 kB\nMemFree: 1 kB\nMemAvailable:  300000 kB\n")
    assert ok.status == "ok" and ok.detail == "292 MB available of 416 MB"
    low = dc.memory_result("MemTotal:  427000 kB\nMemAvailable:  30000 kB\n")
    assert low.status == "warn"


@pytest.fixture
def tree(tmp_path) -> DoctorContext:
    root = DataRoot(tmp_path / "home")
    for path, mode in ((root.home, 0o2750), (root.memory, 0o2750), (root.vault, 0o700)):
        path.mkdir()
        os.chmod(path, mode)
    (root.vault / "openrouter.md").write_text("sk-x\n")
    os.chmod(root.vault / "openrouter.md", 0o600)
    return DoctorContext(root=root, network=False)


def test_modes_ok(tree):
    [result] = dc.check_modes(tree)
    assert result.status == "ok", result.detail


@pytest.fixture
def appliance(monkeypatch):
    monkeypatch.setattr(dc, "on_appliance", lambda ctx: True)


def test_loose_vault_fails(tree, appliance):
    os.chmod(tree.root.vault, 0o755)
    [result] = dc.check_modes(tree)
    assert result.status == "fail" and "0755" in result.detail


def test_loose_vault_only_warns_on_a_dev_box(tree, monkeypatch):
    monkeypatch.setattr(dc, "on_appliance", lambda ctx: False)
    os.chmod(tree.root.vault, 0o755)
    [result] = dc.check_modes(tree)
    assert result.status == "warn" and "0755" in result.detail


def test_history_open_to_other_uids_fails(tree, appliance):
    db = tree.root.history_db
    db.write_text("")
    os.chmod(db, 0o644)  # as the earlier release left it
    [result] = dc.check_modes(tree)
    assert result.status == "fail" and "1 paths open to other uids" in result.detail
    assert "history.db" in result.detail


def test_loose_vault_entry_fails(tree, appliance):
    os.chmod(tree.root.vault / "openrouter.md", 0o644)
    [result] = dc.check_modes(tree)
    assert result.status == "fail" and "openrouter" in result.detail and "sk-x" not in result.detail


def test_units_reported_from_systemctl():
    answers = {"shelldon-broker.service": "failed"}

    def run(argv):
        import subprocess

        return subprocess.CompletedProcess(argv, 0, answers.get(argv[-1], "active") + "\n", "")

    assert dc.unit_states(run) == [
        ("shelldon-core", "active"),
        ("shelldon-broker", "failed"),
        ("shelldon-forkserver", "active"),
    ]
