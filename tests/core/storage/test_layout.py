"""core.storage.layout makes the data root's directories, with explicit modes, for every writer that
needs them: core's start, the memory writer, the vault and the audit log's undo store."""

from __future__ import annotations

import logging
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from shelldon import paths
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.memory.audit import AuditLog
from shelldon.core.storage import layout
from shelldon.core.vault import VaultError, list_names, set_secret
from shelldon.paths import DataRoot
from support import users
from support.users import TestUser as User


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
    assert _mode(root.home) == _mode(root.memory) == _mode(root.state) == 0o2750
    modes = {c: _mode(root.memory / c) for c in COLLECTION_NAMES}
    assert modes == dict.fromkeys(COLLECTION_NAMES, 0o2750)
    assert _mode(root.vault) == 0o700
    assert root.run_dir.is_dir()


def test_a_loosened_directory_is_tightened_again(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    layout.prepare_memory(memory)
    (memory / "vault").chmod(0o755)
    (memory / "facts").chmod(0o777)
    layout.prepare_memory(memory)
    assert (_mode(memory / "vault"), _mode(memory / "facts")) == (0o700, 0o2750)


def _release_one_root(root: DataRoot) -> dict[str, Path]:
    """A data root as the earlier release left it: 0755 directories, 0644 files."""
    old = os.umask(0o022)
    try:
        for directory in (root.home, root.memory / "facts", root.vault, root.state, root.run_dir):
            directory.mkdir(parents=True, exist_ok=True)
            directory.chmod(0o755)
        files = {
            "db": root.history_db,
            "wal": root.home / "history.db-wal",
            "entry": root.memory / "facts" / "tea.md",
            "audit": root.memory / "history.jsonl",
            "state": root.state / "scheduler.json",
            "lock": root.memory / ".write.lock",
            "secret": root.vault / "key.md",
            "socket_dir_file": root.run_dir / "core.pid",
        }
        for path in files.values():
            path.write_text("x\n")
            path.chmod(0o644)
        outside = root.home.parent / "outside.md"
        outside.write_text("not the pet's\n")
        outside.chmod(0o644)
        (root.memory / "link.md").symlink_to(outside)
        files["outside"] = outside
        aside = root.home / "aside-20260101T000000Z"
        (aside / "memory" / "vault").mkdir(parents=True)
        aside.chmod(0o755)
        files["aside"] = aside
        files["aside_inner"] = aside / "memory"
        (aside / "memory").chmod(0o755)
    finally:
        os.umask(old)
    return files


def test_settle_modes_closes_a_root_an_earlier_release_made(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = DataRoot(tmp_path / "home")
    files = _release_one_root(root)
    done = layout.settle_modes(root, None)
    assert not done.refused
    assert _mode(root.home) == _mode(root.memory) == _mode(root.memory / "facts") == 0o2750
    assert _mode(root.state) == 0o2750
    for name in ("db", "wal", "entry", "audit", "state"):
        assert _mode(files[name]) == 0o640, name
    assert _mode(files["lock"]) == 0o600  # a read fd could flock it: the worker gets none
    assert (_mode(root.vault), _mode(files["secret"])) == (0o700, 0o600)
    assert _mode(files["aside"]) == 0o700  # closed at the top, not descended
    assert _mode(files["aside_inner"]) == 0o755
    assert (_mode(root.run_dir), _mode(files["socket_dir_file"])) == (0o755, 0o644)  # not ours
    assert (root.memory / "link.md").is_symlink()
    assert _mode(files["outside"]) == 0o644  # a link is never followed
    assert "gave 13 paths the owner+readers' group modes" in caplog.text
    # Once: a second start finds nothing to change and says nothing.
    caplog.clear()
    assert layout.settle_modes(root, None).changed == []
    assert "gave" not in caplog.text
    assert layout.open_to_others(root) == []


def test_settle_modes_gives_the_readers_group(tmp_path: Path) -> None:
    """As root any group; as a user, one it is in (the appliance's service user is in the
    worker's group). New files then take it from the setgid directories."""
    groups = [g for g in os.getgroups() if g != os.getegid()]
    if os.geteuid() != 0 and not groups:
        pytest.skip("needs root or a supplementary group to give files another group")
    gid = 12345 if os.geteuid() == 0 else groups[0]
    root = DataRoot(tmp_path / "home")
    files = _release_one_root(root)
    layout.settle_modes(root, gid)
    assert root.home.stat().st_gid == root.memory.stat().st_gid == gid
    assert files["entry"].stat().st_gid == files["db"].stat().st_gid == gid
    new = root.memory / "facts" / "green.md"
    new.write_text("made after\n")
    (root.memory / "people").mkdir()
    assert new.stat().st_gid == (root.memory / "people").stat().st_gid == gid
    assert _mode(root.memory / "people") & 0o2000  # setgid inherited: its files get the group too


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


TMPFILES = Path(__file__).resolve().parents[3] / "image/overlay/usr/lib/tmpfiles.d/shelldon.conf"


def test_the_appliances_tmpfiles_give_the_modes_core_gives() -> None:
    """On the card core may not chown or set a setgid bit (its sandbox), so tmpfiles sets what
    `settle_modes` would: every directory core makes, at core's modes, and no glob that reaches the
    vault, the undo store or a lock file."""
    lines = [
        line.split()
        for line in TMPFILES.read_text().splitlines()
        if line.strip() and not line.startswith("#") and "/var/lib/shelldon" in line
    ]
    dirs = {fields[1]: (int(fields[2], 8), fields[4]) for fields in lines if fields[0] == "d"}
    home = "/var/lib/shelldon"
    shared = [home, f"{home}/memory", f"{home}/state"]
    shared += [f"{home}/memory/{c}" for c in COLLECTION_NAMES]
    for path in shared:
        assert dirs.pop(path) == (layout.DIR_MODE, "shelldon-worker"), path
    for private in ("vault", paths.UNDO_DIR):
        assert dirs.pop(f"{home}/memory/{private}") == (layout.PRIVATE_MODE, "shelldon"), private
    assert dirs == {}
    globs = [fields for fields in lines if fields[0] == "z"]
    assert globs
    for _, pattern, mode, _, group, *_ in globs:
        assert (int(mode, 8), group) == (layout.FILE_MODE, "shelldon-worker"), pattern
        for never in ("memory/vault/key.md", "memory/.undo/ab12", "memory/.write.lock"):
            # glob(3)'s rules: `*` stops at "/" (and, stricter than glob, here it takes dots)
            assert not PurePosixPath(f"{home}/{never}").match(pattern), (pattern, never)


def test_a_group_it_may_not_give_is_logged_not_raised(worker_user: User) -> None:
    """The card's core may not chown (its sandbox): a directory it cannot give the group is served
    as it is, with one error line, rather than stopping core's start. Here a real uid that is not in
    the group asked for gets EPERM from the kernel."""
    top = Path(tempfile.mkdtemp(prefix="shelldon-layout-", dir="/tmp"))  # pytest's tree is 0700
    top.chmod(0o755)
    directory = top / "state"
    directory.mkdir(mode=0o755)
    os.chown(directory, worker_user.uid, worker_user.gid)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through the pipe
        try:
            users.become(worker_user)
            records: list[str] = []
            handler = logging.Handler()
            handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
            logging.getLogger("shelldon.core.storage.layout").addHandler(handler)
            try:
                layout.ensure_dir(directory, layout.DIR_MODE, gid=0)
                outcome = "returned"
            except OSError as exc:
                outcome = f"raised {exc}"
            os.write(write_fd, "\n".join([outcome, *records]).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        lines = pipe.read().decode().splitlines()
    os.waitpid(pid, 0)
    try:
        assert lines[0] == "returned", lines
        assert any("readers' group 0: Operation not permitted" in line for line in lines), lines
        assert directory.stat().st_gid == worker_user.gid
    finally:
        shutil.rmtree(top)
