"""The worker's sandbox, tried as a hostile worker would: every call the seccomp filter lists is
made, in forked children and in real workers of a real `shelldon run`, and the capability bounding
set is read back from the kernel.

Two kinds of proof. In a plain forked child (no root needed: a filter with no_new_privs needs no
privilege) the filter is built with an errno no kernel path would give for these arguments, so each
refusal is the filter's and not a missing capability's. In a real worker (root: a throwaway worker
user, the fork-server's own spawn path) the product's filter answers EPERM, and a real turn still
runs through the broker to the fake provider.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import re
import shutil
import signal
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider, reply
from shelldon import _native, ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot
from shelldon.worker import drop, sandbox
from support import users
from support.marks import needs_root
from support.pet import Pet, start_pet

# What issue 12 names, and what docs/processes.md adds: the filter must list at least these.
MUST_REFUSE = {
    "socket",
    "socketpair",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "unshare",
    "setns",
    "personality",
    "execve",
    "execveat",
    "clone",
}
# No kernel path answers this for the arguments the probe passes: only the test filter does.
FILTER_ERRNO = errno.ENOTRECOVERABLE
X86_64 = platform.machine() == "x86_64"


def in_child(body: Callable[[], object]) -> tuple[object, int]:
    """Run `body` in a forked child; (what it returned, as JSON, or None; the wait status)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(read_end)
        try:
            result: object = body()
        except BaseException as exc:
            result = f"{type(exc).__name__}: {exc}"
        os.write(write_end, json.dumps(result).encode())
        os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 1 << 16):
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    return (json.loads(b"".join(chunks)) if chunks else None), status


def confined_probe() -> object:
    sandbox.confine(_native.worker_filter(FILTER_ERRNO))
    return {
        "calls": sandbox.try_listed_calls(FILTER_ERRNO),
        "allowed": sandbox.try_allowed(Path("/proc/self/status")),
        "seccomp": sandbox.seccomp_mode(),
    }


def test_every_listed_call_is_refused_by_the_filter_itself() -> None:
    report, status = in_child(confined_probe)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert isinstance(report, dict), report
    assert report["seccomp"] == 2
    calls = {c["call"]: c for c in report["calls"]}
    assert calls.keys() >= MUST_REFUSE
    assert len(calls) == len(_native.filtered_calls())
    for call in calls.values():
        want = errno.ENOSYS if call["rule"] == "unsupported" else FILTER_ERRNO
        assert call["errno"] == want, call
        assert call["outcome"] == "refused", call
    # What a turn does still works under the same filter: unix sockets, threads (glibc's clone3
    # answered ENOSYS, then clone without namespace flags), reading a file.
    assert [c["outcome"] for c in report["allowed"]] == ["allowed"] * 3, report["allowed"]


def test_without_the_filter_the_probe_tries_nothing() -> None:
    if sandbox.seccomp_mode() != 0:
        pytest.skip(
            "this process already runs under a seccomp filter (a container's, e.g. "
            "systemd-nspawn's), which the probe cannot tell from the worker's"
        )
    # The probe makes the listed calls only where the filter stands before the kernel.
    report, _ = in_child(lambda: sandbox.try_listed_calls())
    assert report == []


def test_the_refused_calls_were_possible_without_the_filter() -> None:
    # The same calls as a Python program makes them: each works unfiltered, so the test above
    # could fail (a refusal it saw is not the machine's own).
    import socket

    def unfiltered() -> object:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.personality(ctypes.c_ulong(0xFFFFFFFF)) >= 0

    assert in_child(unfiltered)[0] is True

    families = {
        "AF_INET": (socket.AF_INET, socket.SOCK_STREAM),
        "AF_INET6": (socket.AF_INET6, socket.SOCK_DGRAM),
        "AF_NETLINK": (socket.AF_NETLINK, socket.SOCK_RAW),
        "AF_PACKET": (socket.AF_PACKET, socket.SOCK_RAW),
        "AF_VSOCK": (socket.AF_VSOCK, socket.SOCK_STREAM),
    }

    def filtered() -> object:
        sandbox.confine(_native.worker_filter())
        answers: dict[str, object] = {}
        for name, (family, kind) in families.items():
            try:
                socket.socket(family, kind).close()
            except OSError as exc:
                answers[name] = exc.errno
            else:
                answers[name] = "allowed"
        return answers

    assert in_child(filtered)[0] == dict.fromkeys(families, errno.EPERM)


@pytest.mark.skipif(not X86_64, reason="the x32 ABI exists only on x86_64")
def test_an_x32_call_kills_the_worker() -> None:
    def x32_getpid() -> object:
        sandbox.confine(_native.worker_filter())
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.syscall(ctypes.c_long(0x40000000 | 39)))  # x32 getpid

    result, status = in_child(x32_getpid)
    assert result is None
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGSYS


def test_a_filter_needs_no_new_privs_or_the_kernel_refuses_it() -> None:
    def without_nnp() -> object:
        if os.geteuid() == 0:
            os.setresgid(65534, 65534, 65534)  # CAP_SYS_ADMIN would let root skip the rule
            os.setresuid(65534, 65534, 65534)
        try:
            _native.install_filter(_native.worker_filter())
        except OSError as exc:
            return exc.errno
        return "installed"

    assert in_child(without_nnp)[0] == errno.EACCES


def test_bad_programs_and_errnos_are_refused_before_the_kernel() -> None:
    with pytest.raises(ValueError, match="8 bytes"):
        _native.install_filter(b"")
    with pytest.raises(ValueError, match="8 bytes"):
        _native.install_filter(b"\x06\x00\x00\x00\x00\x00\xff")
    with pytest.raises(ValueError, match="errno"):
        _native.worker_filter(0)
    assert len(_native.worker_filter()) % 8 == 0


# --- the bounding set (root) ---------------------------------------------------------------------

needs_caps = needs_root("a real uid drop and the capability bounding set")


def _identity(user: users.TestUser) -> drop.WorkerIdentity:
    return drop.WorkerIdentity(user.uid, user.gid, user.name, "test")


@needs_caps
def test_the_drop_empties_the_bounding_set(worker_user: users.TestUser) -> None:
    def body() -> object:
        drop.drop_privileges(_identity(worker_user))
        status = dict(
            line.split(":\t", 1) for line in Path("/proc/self/status").read_text().splitlines()
        )
        return status["CapBnd"].strip()

    assert in_child(body)[0] == "0000000000000000"


@needs_caps
def test_a_kept_bounding_set_refuses_the_turn(worker_user: users.TestUser) -> None:
    def by_hand() -> object:
        # Every id dropped and no_new_privs set, but the bounding set left full.
        users.become(worker_user)
        drop.set_no_new_privs()
        drop.verify_dropped(worker_user.uid, worker_user.gid)
        return "verified"

    result = in_child(by_hand)[0]
    assert isinstance(result, str) and result.startswith("DropRefused: CapBnd is"), result


CAP_SETPCAP = 8


def _lose_setpcap() -> None:
    """Take CAP_SETPCAP out of this process's effective set (as a unit without it would have)."""
    libc = ctypes.CDLL(None, use_errno=True)
    header = ctypes.create_string_buffer(struct.pack("Ii", 0x20080522, 0), 8)  # v3, this process
    data = ctypes.create_string_buffer(24)  # two __user_cap_data_struct: effective, permitted, inh.
    if libc.capget(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    words = list(struct.unpack("6I", data.raw))
    words[0] &= ~(1 << CAP_SETPCAP)  # effective, low word
    if libc.capset(header, ctypes.create_string_buffer(struct.pack("6I", *words), 24)) != 0:
        raise OSError(ctypes.get_errno(), "capset")


@needs_caps
def test_without_setpcap_the_drop_is_refused_not_skipped(worker_user: users.TestUser) -> None:
    def body() -> object:
        _lose_setpcap()
        drop.drop_privileges(_identity(worker_user))
        return "dropped"

    result = in_child(body)[0]
    assert isinstance(result, str), result
    assert result.startswith("DropRefused: prctl(PR_CAPBSET_DROP, 0) failed"), result
    assert "CAP_SETPCAP" in result


# --- real workers of a real pet (root) -----------------------------------------------------------


@pytest.fixture
def sandboxed_pet(
    world_home: Path, worker_user: users.TestUser, fake: FakeProvider
) -> Iterator[Pet]:
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    (root.home / "shelldon.toml").write_text(fake.provider_table(key="llm_key", retries=0))
    pet = start_pet({"SHELLDON_WORKER_USER": worker_user.name})
    try:
        stored = pet.cli("vault", "set", "llm_key", stdin=FAKE_KEY + "\n")
        assert stored.returncode == 0, stored.stderr
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()


def _probe(pet: Pet) -> dict[str, object]:
    answer = ipc.request(pet.root.socket("core"), wire.IsolationProbe(), timeout=60)
    assert isinstance(answer, wire.ProbeReport), answer
    assert answer.isolated is True
    report = json.loads(answer.report)
    assert isinstance(report, dict)
    return report


@needs_caps
def test_a_real_worker_refuses_each_listed_call_with_eperm(sandboxed_pet: Pet) -> None:
    report = _probe(sandboxed_pet)
    status = report["status"]
    assert isinstance(status, dict)
    assert int(status["CapBnd"], 16) == 0
    assert status["Seccomp"] == "2"
    calls = report["syscalls"]
    assert isinstance(calls, list)
    by_name = {c["call"]: c for c in calls}
    assert by_name.keys() >= MUST_REFUSE
    for call in calls:
        want = errno.ENOSYS if call["rule"] == "unsupported" else errno.EPERM
        assert (call["errno"], call["outcome"]) == (want, "refused"), call
    allowed = report["allowed"]
    assert isinstance(allowed, list)
    assert [c["outcome"] for c in allowed] == ["allowed"] * 3, allowed
    # The worker's own stderr reached the log through the fork-server, with its pid and turn.
    line = sandbox_log_line(sandboxed_pet)
    assert "refused" in line


@needs_caps
def test_doctor_shows_the_filter_and_the_empty_bounding_set(sandboxed_pet: Pet) -> None:
    done = sandboxed_pet.cli("doctor", "--offline")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    listed = len(_native.filtered_calls())
    assert re.search(rf"ok\s+isolation seccomp\s+{listed}/{listed} listed calls refused", out), out
    assert re.search(r"ok\s+isolation caps\s+.*CapBnd 0+\b", out), out


def sandbox_log_line(pet: Pet) -> str:
    match = pet.wait_for_log(r"worker (\d+) \(turn [^)]+\): .*isolation probe: .*")
    return match.group(0)


@needs_caps
def test_a_full_turn_runs_with_the_filter_on(sandboxed_pet: Pet, fake: FakeProvider) -> None:
    fake.script(reply("Tea it is, then."))
    said = sandboxed_pet.cli("say", "what should I drink?")
    assert said.returncode == 0, said.stderr + sandboxed_pet.log
    assert "Tea it is, then." in said.stdout
    assert len(fake.requests) == 1
    status = json.loads(sandboxed_pet.cli("status", "--json").stdout)
    assert status["vault_isolation"] is True
    assert status["last_turn"]["outcome"] == "ok", sandboxed_pet.log


def test_a_dev_mode_turn_runs_with_the_filter_on(pet: Pet) -> None:
    # No worker user: no drop, but the filter is installed all the same.
    answer = ipc.request(pet.root.socket("core"), wire.IsolationProbe(), timeout=60)
    assert isinstance(answer, wire.ProbeReport)
    report = json.loads(answer.report)
    assert report["status"]["Seccomp"] == "2"
    assert all(c["outcome"] == "refused" for c in report["syscalls"]), report["syscalls"]
    said = pet.cli("say", "hello there")
    assert said.returncode == 0, said.stderr + pet.log
    status = json.loads(pet.cli("status", "--json").stdout)
    assert status["last_turn"]["outcome"] == "ok", pet.log


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_units_syscall_filter_leaves_the_worker_its_setup_calls() -> None:
    """The card's fork-server unit filters system calls too; what the worker's drop and filter
    install need must survive it (systemd-analyze expands the unit's groups on this host)."""
    import subprocess

    unit = (
        Path(__file__).resolve().parents[2]
        / "image/overlay/usr/lib/systemd/system/shelldon-forkserver.service"
    )
    allowed: set[str] = set()
    denied: set[str] = set()
    settings = [
        line.split("=", 1)[1].strip()
        for line in unit.read_text().splitlines()
        if line.startswith("SystemCallFilter=")
    ]

    def expand(names: list[str]) -> set[str]:
        calls: set[str] = set()
        for name in names:
            if not name.startswith("@"):
                calls.add(name)
                continue
            out = subprocess.run(
                ["systemd-analyze", "syscall-filter", "--no-pager", name],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for line in out.splitlines()[1:]:
                word = line.strip()
                if word and not word.startswith("#"):
                    calls |= expand([word]) if word.startswith("@") else {word}
        return calls

    for setting in settings:
        if setting.startswith("~"):
            denied |= expand(setting[1:].split())
        else:
            allowed |= expand(setting.split())
    # The bounding set, no_new_privs and the filter itself all go through prctl; then the ids.
    needed = {"prctl", "setgroups", "setresuid", "setresgid", "capget", "pipe2", "dup3"}
    missing = {call for call in needed if call not in allowed or call in denied}
    assert not missing, f"the unit's SystemCallFilter takes {sorted(missing)} from the worker"
