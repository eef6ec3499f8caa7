"""The drop itself, in real forked children: it takes fully, or the turn is refused."""

from __future__ import annotations

import errno
import logging
import os
import pwd
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from shelldon.worker import drop
from support import users
from support.marks import needs_root
from support.users import TestUser

needs_setuid = needs_root("a real setuid/setgid")
# Only stat()ed, never dropped to: an unused uid stands for the worker in the reachability check.
UNUSED = drop.WorkerIdentity(59999, 59999, "shd-worker-test", "test")


def in_child(body: Callable[[], str]) -> str:
    """Run `body` in a forked child; return what it returned (or the exception it raised)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(read_end)
        try:
            result = body()
        except BaseException as exc:
            result = f"{type(exc).__name__}: {exc}"
        os.write(write_end, result.encode()[:4000])
        os._exit(0)
    os.close(write_end)
    return read_to_end(read_end, pid).decode()


def read_to_end(read_end: int, pid: int) -> bytes:
    """All a forked child wrote to the pipe, once it has exited and closed it; then reap it."""
    chunks = []
    while chunk := os.read(read_end, 4096):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks)


def identity(user: TestUser) -> drop.WorkerIdentity:
    return drop.WorkerIdentity(user.uid, user.gid, user.name, "test")


@needs_setuid
def test_a_full_drop_verifies_and_root_cannot_be_regained(worker_user: TestUser) -> None:
    def body() -> str:
        assert drop.drop_privileges(identity(worker_user)) is True
        try:
            os.setuid(0)
        except PermissionError as exc:
            return f"dropped; setuid(0): errno {exc.errno}"
        return "setuid(0) succeeded"

    assert in_child(body) == f"dropped; setuid(0): errno {errno.EPERM}"


def by_hand(user: TestUser, groups: list[int], saved_uid: int | None) -> Callable[[], str]:
    """A drop done by hand to `user` that leaves `groups` and the saved uid `saved_uid` (None: the
    worker's), then verified."""

    def body() -> str:
        os.setgroups(groups)
        os.setresgid(user.gid, user.gid, user.gid)
        os.setresuid(user.uid, user.uid, user.uid if saved_uid is None else saved_uid)
        drop.verify_dropped(user.uid, user.gid)
        return "verified"

    return body


@needs_setuid
@pytest.mark.parametrize(
    ("groups", "saved_uid", "refusal"),
    [
        # As if the parent held groups and the drop forgot them.
        ([0, 4], None, "DropRefused: supplementary groups remain"),
        # The saved uid is still root: the child could switch back.
        ([], 0, "DropRefused: uids are"),
        # Every id dropped, but no_new_privs was never set.
        ([], None, "DropRefused: NoNewPrivs is not set"),
    ],
    ids=["supplementary-groups", "saved-root-uid", "no-new-privs-missing"],
)
def test_a_drop_left_half_done_refuses_the_turn(
    worker_user: TestUser, groups: list[int], saved_uid: int | None, refusal: str
) -> None:
    assert in_child(by_hand(worker_user, groups, saved_uid)).startswith(refusal)


@needs_setuid
def test_capabilities_kept_refuse_the_turn() -> None:
    def kept_caps() -> str:
        # Still root: every capability is there, which the check must see in /proc/self/status.
        drop.verify_dropped(0, 0)
        return "verified"

    assert in_child(kept_caps).startswith("DropRefused: CapEff is")


def test_inherited_fds_are_closed_except_the_result_pipe() -> None:
    secret = os.open(os.devnull, os.O_RDONLY)  # stands for a sqlite handle or a socket
    keep_r, keep_w = os.pipe()  # the turn's result pipe
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the kept pipe
        drop.close_inherited_fds(keep={keep_w})
        fds = os.listdir("/proc/self/fd")  # includes the fd listdir itself had open
        os.write(keep_w, " ".join(fds).encode())
        os._exit(0)
    os.close(keep_w)
    listing = read_to_end(keep_r, pid)
    os.close(secret)
    listed = {int(x) for x in listing.split()}
    assert keep_w in listed
    assert secret not in listed
    assert keep_r not in listed
    assert {0, 1, 2} <= listed
    assert len(listed - {0, 1, 2, keep_w}) <= 1  # at most the directory fd of the listing itself


def test_dev_mode_warns_loudly_and_does_not_drop(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="shelldon.worker.drop")
    dev = drop.WorkerIdentity(None, None, None, "no worker user configured")
    assert drop.drop_privileges(dev) is False
    assert os.getuid() == os.geteuid()
    assert any("vault isolation OFF, dev mode" in r.getMessage() for r in caplog.records)


def _entry(name: str, uid: int, shell: str) -> pwd.struct_passwd:
    return pwd.struct_passwd((name, "x", uid, uid, "", "/", shell))


def test_a_shared_account_is_named_with_the_reason() -> None:
    nobody = _entry("nobody", drop.OVERFLOW_UID, "/usr/sbin/nologin")
    assert "overflow user nobody" in (drop.shared_account(nobody) or "")
    login = _entry("shd-login", 59998, "/bin/bash")
    assert drop.shared_account(login) == "it has a login shell, /bin/bash"
    assert drop.shared_account(_entry("shd-empty", 59998, "")) == "it has a login shell, /bin/sh"
    assert drop.shared_account(_entry("shd-own", 59998, "/usr/sbin/nologin")) is None
    assert drop.shared_account(_entry("shd-own", 59998, "/bin/false")) is None
    # The same account with a process already running as its uid: this test's own uid.
    me = _entry("shd-me", os.getuid(), "/usr/sbin/nologin")
    reason = drop.shared_account(me) or ""
    assert reason.startswith(f"processes already run as uid {os.getuid()}: pid "), reason
    assert str(os.getpid()) not in reason.split("pid ", 1)[1].split(", ")


@needs_setuid
def test_a_worker_user_with_a_process_of_its_own_is_refused(worker_user: TestUser) -> None:
    assert drop.resolve_identity(worker_user.name).isolated  # nothing runs as it yet
    read_end, write_end = os.pipe()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - a process of the worker's uid that no turn spawned
        os.close(write_end)
        users.become(worker_user)
        os.write(ready_w, b"r")
        os.read(read_end, 1)  # until the parent is done looking
        os._exit(0)
    os.close(read_end)
    os.close(ready_w)
    assert os.read(ready_r, 1) == b"r"  # it runs as the worker uid now
    os.close(ready_r)
    try:
        with pytest.raises(drop.DropRefused, match=rf"processes already run as uid .*pid {pid}"):
            drop.resolve_identity(worker_user.name)
    finally:
        os.close(write_end)
        os.waitpid(pid, 0)


def test_a_missing_or_root_worker_user_is_refused_at_start() -> None:
    with pytest.raises(drop.DropRefused, match="does not exist"):
        drop.resolve_identity("no-such-user-shelldon")
    with pytest.raises(drop.DropRefused, match="must not be root"):
        drop.resolve_identity("root")
    assert drop.resolve_identity(None).isolated is False


def test_a_data_root_the_worker_cannot_reach_is_named() -> None:
    base = Path(tempfile.mkdtemp(prefix="shd-reach-", dir="/tmp"))
    try:
        os.chmod(base, 0o755)
        (base / "locked" / "memory").mkdir(parents=True)
        os.chmod(base / "locked", 0o700)  # like root's home
        (base / "open" / "memory").mkdir(parents=True)
        os.chmod(base / "open", 0o755)
        reason = drop.unreachable_for(UNUSED, base / "locked" / "memory")
        assert reason == (
            f"{base / 'locked'} (mode 0700) keeps shd-worker-test from reaching "
            f"{base / 'locked' / 'memory'}"
        )
        assert drop.unreachable_for(UNUSED, base / "open" / "memory", base / "run") is None
        dev = drop.WorkerIdentity(None, None, None, "dev")
        assert drop.unreachable_for(dev, base / "locked" / "memory") is None
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_worker_that_closes_its_result_but_lingers_is_killed(run_dir: Path) -> None:
    import signal
    import socket
    import time

    from shelldon import ipc
    from shelldon.contracts import wire
    from shelldon.paths import DataRoot
    from shelldon.worker import forkserver

    server = forkserver.ForkServer(DataRoot.resolve(), drop.resolve_identity(None))
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - a hostile worker: no result, pipe closed, never exits
        os.close(read_end)
        os.close(write_end)
        while True:
            signal.pause()
    os.close(write_end)
    core_side, server_side = socket.socketpair()
    now = time.monotonic()
    server.turn = forkserver._Turn(
        pid=pid, turn_id="t-linger", conn=server_side, pipe=read_end, deadline=now + 30, started=now
    )
    server._finish_turn()  # as on the pipe's EOF
    answer = ipc.recv(core_side, deadline=time.monotonic() + 10)
    core_side.close()
    assert isinstance(answer, wire.TurnFailed)
    assert answer.stage == "crash" and "killed by SIGKILL" in answer.reason
    assert server.turn is None and not server.zombies  # the next turn may start
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped
