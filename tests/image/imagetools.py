"""Helpers of the image checks (tests/image): paths, skips with a reason, running inside a tree."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
IMAGE = REPO / "image"
OVERLAY = IMAGE / "overlay"
NATIVE = REPO / "python/shelldon/_native.abi3.so"
UNITS = ("shelldon-core.service", "shelldon-broker.service", "shelldon-forkserver.service")
ALL_UNITS = (
    *UNITS,
    "shelldon.target",
    "shelldon-firstboot.service",
    "shelldon-growroot.service",
    "shelldon-sshkeys.service",
    "shelldon-selftest.service",
    "shelldon-selftest-early.service",
    "shelldon-drill.service",
    "shelldon-update-boot.service",
    "shelldon-update-trial.service",
    "shelldon-update-fat.service",
    "shelldon-security-update.service",
    "shelldon-security-update.timer",
)


def need_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("image checks need root (owners, chroot, sysusers into a tree)")


def need_tools(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"missing tools {missing}: run image/deps.sh check")


def machine_name(purpose: str) -> str:
    """A machine name of its own for each systemd-nspawn run (`--machine=`): two runs on one host
    (two work trees, two CI jobs) never share nspawn's per-machine state under /run/systemd/nspawn,
    which is keyed by the name (by default the directory's, "root" for every check root)."""
    return f"shelldon-{purpose}-{os.getpid()}-{secrets.token_hex(3)}"


def run(*cmd: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), capture_output=True, text=True, **kw)


def in_root(root, *cmd: str) -> subprocess.CompletedProcess:
    """Run cmd inside the tree with its own tools (the release's systemd, not the host's), /proc
    and a scratch /run mounted in a private mount namespace that vanishes with the command."""
    script = (
        'r=$1; shift; mount -t proc proc "$r/proc" && mount -t tmpfs tmpfs "$r/run"'
        ' && exec chroot "$r" "$@"'
    )
    return run(
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "--fork",
        "--",
        "sh",
        "-c",
        script,
        "in_root",
        str(root),
        *cmd,
    )


def nspawn_selftest(check_root: Path, fat: Path, report: Path, *args: str) -> str:
    """Boot the check root in a container (changes on a throwaway overlay) with `fat` where the FAT
    partition is mounted and the self-test pulled in; `args` go to its systemd (`shelldon.selftest=
    MODE`). The self-test's report; fails unless it reached a verdict."""
    r = subprocess.run(
        [
            "systemd-nspawn", "--register=no", "--keep-unit", "--volatile=overlay", "-q",
            f"--machine={machine_name('selftest')}", f"--bind={report}:/run/shelldon-selftest",
            f"--bind={fat}:/boot/firmware", "-D", str(check_root), "-b", "--",
            "systemd.wants=shelldon-selftest.service", "systemd.mask=console-getty.service", *args,
        ],
        capture_output=True, text=True, errors="replace", timeout=600, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    out = (report / "report").read_text(errors="replace") if (report / "report").exists() else ""
    assert "SHELLDON-SELFTEST:" in out, (
        f"no verdict (exit {r.returncode}):\n{(r.stdout + r.stderr)[-3000:]}"
    )
    return out


def selftest_ok(report: str, check: str) -> str:
    """The detail of the self-test's check named `check`; fails unless it passed."""
    m = re.search(rf"^selftest (ok  |FAIL) {re.escape(check)}(?: ?: (.*))?$", report, re.M)
    assert m, f"no check {check!r} in:\n{report}"
    assert m.group(1) == "ok  ", f"{check}: {m.group(2)}\n{report[-3000:]}"
    return m.group(2) or ""
