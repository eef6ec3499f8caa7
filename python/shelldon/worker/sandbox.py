"""The worker's seccomp filter, from the Python side: built once in the fork-server, installed in
each child after the privilege drop, and tried call by call by the isolation probe.

The filter itself (a deny-list, default allow, EPERM for a listed call) is `shelldon._native`'s
`worker_filter`; docs/processes.md says what it refuses and why. It is built before any fork so a
child only hands the kernel a ready program: nothing is compiled, allocated or imported per turn.
"""

from __future__ import annotations

import errno
import socket
import threading
from pathlib import Path

from shelldon import _native
from shelldon.worker import drop

PR_GET_SECCOMP = 21
SECCOMP_FILTER_MODE = 2  # what PR_GET_SECCOMP answers once a filter is installed


def build_filter(identity: drop.WorkerIdentity, *, refuse_errno: int = errno.EPERM) -> bytes | None:
    """The program every worker will install. None only in dev mode on an ABI the filter does not
    know (warned by the caller); with isolation on, that refuses the start (DropRefused)."""
    try:
        return _native.worker_filter(refuse_errno)
    except ValueError as exc:
        if identity.isolated:
            raise drop.DropRefused(str(exc)) from None
        return None


def confine(program: bytes | None) -> None:
    """Install `program` in this (single-threaded, just forked) worker and check it took.

    no_new_privs first: the kernel accepts a filter from an unprivileged process only with it set
    (the drop has set it already; in dev mode this sets it). Raises DropRefused: fail-closed."""
    if program is None:
        return
    drop.set_no_new_privs()
    try:
        _native.install_filter(program)
    except (OSError, ValueError) as exc:
        raise drop.DropRefused(f"installing the seccomp filter failed: {exc}") from None
    if seccomp_mode() != SECCOMP_FILTER_MODE:
        raise drop.DropRefused(f"the seccomp filter did not take (Seccomp: {seccomp_mode()!r})")


def seccomp_mode() -> int:
    """0: no filter, 2: filtered (-1 if the kernel would not say)."""
    try:
        return _native.prctl(PR_GET_SECCOMP)
    except OSError:
        return -1


# --- the probe: each listed call, tried --------------------------------------------------------
# The calls and their harmless arguments are `_native.try_filtered_calls`'s (rust/src/sandbox.rs
# `probe_args`): a query, a bad pointer, or an invalid combination, so even a call that got
# through would do nothing.


def _expected(rule: str, refuse_errno: int) -> int:
    return errno.ENOSYS if rule == "unsupported" else refuse_errno


def try_listed_calls(refuse_errno: int = errno.EPERM) -> list[dict[str, object]]:
    """Make every call the filter lists; what each answered. Empty if no filter is installed:
    these calls are tried only where the filter stands between them and the kernel."""
    if seccomp_mode() != SECCOMP_FILTER_MODE:
        return []
    results: list[dict[str, object]] = []
    for name, rule, rc, err in _native.try_filtered_calls():
        expected = _expected(rule, refuse_errno)
        results.append(
            {
                "call": name,
                "rule": rule,
                "errno": err,
                "outcome": "refused" if err == expected else "allowed" if rc >= 0 else "error",
            }
        )
    return results


def _unix_socket() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        left.sendall(b"ping")
        if right.recv(4) != b"ping":
            raise OSError("a unix socketpair lost its bytes")
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).close()


def _thread() -> None:
    # glibc makes threads with clone3 first, and on ENOSYS (the filter's answer) with clone.
    ran: list[bool] = []
    worker = threading.Thread(target=lambda: ran.append(True))
    worker.start()
    worker.join()
    if not ran:
        raise OSError("the thread did not run")


def try_allowed(readable: Path) -> list[dict[str, object]]:
    """What a turn legitimately does, under the same filter: each must be "allowed"."""
    checks: list[dict[str, object]] = []
    for name, action in (
        ("unix sockets", _unix_socket),
        ("start a thread", _thread),
        (f"read {readable.name}", readable.read_bytes),
    ):
        try:
            action()
        except OSError as exc:
            checks.append({"check": name, "outcome": "refused", "errno": exc.errno})
        else:
            checks.append({"check": name, "outcome": "allowed", "errno": None})
    return checks
