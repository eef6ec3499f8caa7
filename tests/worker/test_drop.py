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
from support.marks import needs_root

needs_setuid = needs_root("a real setuid/setgid")
NOBODY = pwd.getpwnam("nobody")


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


def identity() -> drop.WorkerIdentity:
    return drop.WorkerIdentity(NOBODY.pw_uid, NOBODY.pw_gid, "nobody", "test")


@needs_setuid
def test_a_full_drop_verifies_and_root_cannot_be_regained() -> None:
    def body() -> str:
        assert drop.drop_privileges(identity()) is True
        try:
            os.setuid(0)
        except PermissionError as exc:
            return f"dropped; setuid(0): errno {exc.errno}"
        return "setuid(0) succeeded"

    assert in_child(body) == f"dropped; setuid(0): errno {errno.EPERM}"


def by_hand(groups: list[int], saved_uid: int) -> Callable[[], str]:
    """A drop done by hand that leaves `groups` and the saved uid `saved_uid`, then verified."""

    def body() -> str:
        os.setgroups(groups)
        os.setresgid(NOBODY.pw_gid, NOBODY.pw_gid, NOBODY.pw_gid)
        os.setresuid(NOBODY.pw_uid, NOBODY.pw_uid, saved_uid)
        drop.verify_dropped(NOBODY.pw_uid, NOBODY.pw_gid)
        return "verified"

    return body


@needs_setuid
@pytest.mark.parametrize(
    ("groups", "saved_uid", "refusal"),
    [
        # As if the parent held groups and the drop forgot them.
        ([0, 4], NOBODY.pw_uid, "DropRefused: supplementary groups remain"),
        # The saved uid is still root: the child could switch back.
        ([], 0, "DropRefused: uids are"),
        # Every id dropped, but no_new_privs was never set.
        ([], NOBODY.pw_uid, "DropRefused: NoNewPrivs is not set"),
    ],
    ids=["supplementary-groups", "saved-root-uid", "no-new-privs-missing"],
)
def test_a_drop_left_half_done_refuses_the_turn(
    groups: list[int], saved_uid: int, refusal: str
) -> None:
    assert in_child(by_hand(groups, saved_uid)).startswith(refusal)


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
        reason = drop.unreachable_for(identity(), base / "locked" / "memory")
        assert reason == (
            f"{base / 'locked'} (mode 0700) keeps nobody from reaching {base / 'locked' / 'memory'}"
        )
        assert drop.unreachable_for(identity(), base / "open" / "memory", base / "run") is None
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
