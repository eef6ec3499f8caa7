"""Throwaway system users for root tests.

Step 9 refuses a shared account (`nobody`) as the worker user, and a third uid must be refused by
the data's modes: so root tests make their own users, one set per pytest run, named so that two
runs on one host cannot collide, and removed at the end of the run.
"""

from __future__ import annotations

import os
import pwd
import secrets
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class TestUser:
    __test__ = False  # a user, not a test class (pytest collects Test* names)

    name: str
    uid: int
    gid: int


@contextmanager
def throwaway_user(role: str) -> Iterator[TestUser]:
    """A system user with its own primary group, no home and no login shell; root only."""
    if os.geteuid() != 0:
        raise RuntimeError("throwaway users need root")
    # useradd names: at most 32 characters, lower case; the random part keeps parallel runs apart.
    name = f"shd-{role[:12]}-{secrets.token_hex(4)}"
    options = ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin"]
    subprocess.run(
        ["useradd", *options, name],
        check=True,
        capture_output=True,
    )
    try:
        entry = pwd.getpwnam(name)
        yield TestUser(name, entry.pw_uid, entry.pw_gid)
    finally:
        subprocess.run(["userdel", name], check=False, capture_output=True)


def become(user: TestUser) -> None:
    """Drop this (forked, root) process to `user` for good: no supplementary groups, then the
    group, then the uid (the order a real drop needs: after setresuid, setresgid is refused)."""
    os.setgroups([])
    os.setresgid(user.gid, user.gid, user.gid)
    os.setresuid(user.uid, user.uid, user.uid)
