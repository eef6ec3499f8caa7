"""core.layout makes the data root's directories, with explicit modes, for every writer that needs
them: core's start, the memory writer, the vault and the audit log's undo store."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core import layout
from shelldon.core.audit import AuditLog
from shelldon.core.vault import VaultError, list_names, set_secret
from shelldon.paths import DataRoot


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o077, 0o000], ids=["tight-umask", "open-umask"])
def umask(request: pytest.FixtureRequest) -> Iterator[None]:
    old = os.umask(request.param)  # the modes below must not come from the umask
    try:
        yield
    finally:
        os.umask(old)


def test_prepare_makes_the_whole_tree(tmp_path: Path, umask: None) -> None:
    root = DataRoot(tmp_path / "home")
    layout.prepare(root)
    layout.prepare(root)  # idempotent
    assert _mode(root.home) == _mode(root.memory) == _mode(root.state) == 0o755
    modes = {c: _mode(root.memory / c) for c in COLLECTION_NAMES}
    assert modes == dict.fromkeys(COLLECTION_NAMES, 0o755)
    assert _mode(root.vault) == 0o700
    assert root.run_dir.is_dir()


def test_a_loosened_directory_is_tightened_again(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    layout.prepare_memory(memory)
    (memory / "vault").chmod(0o755)
    (memory / "facts").chmod(0o777)
    layout.prepare_memory(memory)
    assert (_mode(memory / "vault"), _mode(memory / "facts")) == (0o700, 0o755)


def test_a_vault_that_is_not_a_directory_is_refused(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.symlink_to(tmp_path)
    with pytest.raises(layout.LayoutError):
        layout.ensure_vault(vault)
    with pytest.raises(VaultError):
        set_secret(vault, "pin", "1234")


def test_a_secret_is_written_whole_at_0600(tmp_path: Path, umask: None) -> None:
    vault = tmp_path / "memory" / "vault"
    set_secret(vault, "wifi", "first value")
    set_secret(vault, "wifi", "second value")
    assert _mode(vault) == 0o700
    assert (vault / "wifi.md").read_text() == "second value"
    assert _mode(vault / "wifi.md") == 0o600
    assert sorted(p.name for p in vault.iterdir()) == ["wifi.md"]  # no temp file left
    assert list_names(vault) == ["wifi"]


def test_the_undo_store_is_private(tmp_path: Path, umask: None) -> None:
    audit = AuditLog(tmp_path / "memory")
    audit.undo_dir.mkdir(parents=True)
    audit.undo_dir.chmod(0o755)  # loosened by hand: the next blob tightens it
    audit.keep_blob(b"what the owner asked to forget")
    assert _mode(audit.undo_dir) == 0o700
