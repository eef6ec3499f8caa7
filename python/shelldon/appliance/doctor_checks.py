"""The appliance's checks for `shelldon doctor`: users, modes, units, the native module's
architecture, free memory (docs/image.md). The vault isolation shown by a real worker is
`shelldon.cli.procs_doctor`'s.

Run as root on the device (the `shelldon` wrapper keeps root for `doctor`) so every file can be
seen. Each check yields `CheckResult`s; `shelldon.cli.doctor_cmd` runs them after its own.
"""

from __future__ import annotations

import os
import platform
import pwd
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from shelldon.appliance.doctor import Check, CheckResult, DoctorContext, Status
from shelldon.config import ConfigError, configured_worker_user
from shelldon.core.storage import layout

UNITS = ("shelldon-core", "shelldon-broker", "shelldon-forkserver")
# ELF e_machine of the architectures shelldon runs on.
ELF_MACHINES = {"x86_64": 0x3E, "aarch64": 0xB7, "armv7l": 0x28, "riscv64": 0xF3}
LOW_MEMORY_MB = 64


def _user(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def _mode(path: Path) -> tuple[int, int] | None:
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    return stat.S_IMODE(st.st_mode), st.st_uid


def check_users(ctx: DoctorContext) -> Iterator[CheckResult]:
    """The worker user exists, is not root, cannot log in, and does not own the data root."""
    try:
        name = configured_worker_user(ctx.root)
    except ConfigError:  # check_config reports it, once
        yield CheckResult("skip", "users", "the configuration did not load")
        return
    worker = _user(name) if name else None
    if worker is None:
        what = f"worker user {name!r} does not exist" if name else "no worker user configured"
        yield CheckResult("warn", "users", f"{what}: dev mode, no drop")
        return
    home = _mode(ctx.root.home)
    if worker.pw_uid == 0:
        yield CheckResult("fail", "users", f"the worker user {name!r} is root")
    elif not worker.pw_shell.endswith(("nologin", "false")):
        yield CheckResult("fail", "users", f"the worker user has a login shell {worker.pw_shell}")
    elif home is not None and home[1] == worker.pw_uid:
        yield CheckResult("fail", "users", "the worker user owns the data root")
    else:
        owner = pwd.getpwuid(home[1]).pw_name if home else "?"
        service = f"{owner} ({home[1]})" if home else "?"
        yield CheckResult("ok", "users", f"service {service}, worker {name} ({worker.pw_uid})")


def on_appliance(ctx: DoctorContext) -> bool:
    """The worker user exists: an installed pet, where a wrong mode or a dead core is a failure.
    Elsewhere (a developer's box) the same findings are warnings."""
    try:
        name = configured_worker_user(ctx.root)
    except ConfigError:
        return False
    return name is not None and _user(name) is not None


def check_modes(ctx: DoctorContext) -> Iterator[CheckResult]:
    """home and memory/ 2750 in the readers' group, vault/ 0700, owned by the service uid; vault
    entries 0600; nothing under home open to a third uid (docs/security.md)."""
    bad: Status = "fail" if on_appliance(ctx) else "warn"
    for result in _modes(ctx):
        yield CheckResult(bad, result.name, result.detail) if result.status == "fail" else result


def _modes(ctx: DoctorContext) -> Iterator[CheckResult]:
    root = ctx.root
    home = _mode(root.home)
    if home is None:
        yield CheckResult("fail", "modes", f"no data root at {root.home}")
        return
    uid = home[1]
    bad = []
    wants = ((root.home, layout.DIR_MODE), (root.memory, layout.DIR_MODE))
    for path, want in (*wants, (root.vault, layout.PRIVATE_MODE)):
        got = _mode(path)
        if got is None:
            bad.append(f"{path} is missing")
        elif got != (want, uid):
            bad.append(f"{path} is {got[0]:04o} uid {got[1]}, want {want:04o} uid {uid}")
    if root.vault.is_dir() and os.access(root.vault, os.R_OK | os.X_OK):
        for entry in sorted(root.vault.iterdir()):
            got = _mode(entry)
            if got is not None and (got[0] & 0o077 or got[1] != uid):
                bad.append(f"vault entry {entry.name} is {got[0]:04o} uid {got[1]}")
    gid = layout.readers_gid(root)
    if gid is not None and root.home.stat().st_gid != gid:
        bad.append(f"{root.home} is not in the worker's group {gid}")
    open_paths = layout.open_to_others(root)
    if open_paths:
        shown = ", ".join(str(p) for p in open_paths[:3])
        bad.append(
            f"{len(open_paths)} paths open to other uids ({shown}); core fixes them at start"
        )
    if bad:
        yield CheckResult("fail", "modes", "; ".join(bad))
    else:
        yield CheckResult(
            "ok",
            "modes",
            f"home {layout.DIR_MODE:04o}, memory {layout.DIR_MODE:04o}, "
            f"vault {layout.PRIVATE_MODE:04o}, owner uid {uid}, nothing open to other uids",
        )


Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _systemctl(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=10)


def unit_states(run: Runner = _systemctl) -> list[tuple[str, str]]:
    out = []
    for unit in UNITS:
        r = run(["systemctl", "is-active", f"{unit}.service"])
        out.append((unit, r.stdout.strip() or r.stderr.strip() or "unknown"))
    return out


def check_units(ctx: DoctorContext) -> Iterator[CheckResult]:
    if not Path("/run/systemd/system").is_dir():
        yield CheckResult("skip", "units", "not under systemd (a dev box runs `shelldon run`)")
        return
    states = unit_states()
    level: Status = "ok" if all(state == "active" for _, state in states) else "fail"
    yield CheckResult(level, "units", ", ".join(f"{u} {s}" for u, s in states))


def elf_machine(path: str) -> int:
    with open(path, "rb") as fh:
        header = fh.read(20)
    if len(header) < 20 or header[:4] != b"\x7fELF":
        raise ValueError(f"{path} is not an ELF file")
    return int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")


def native_result(path: str, machine: str) -> CheckResult:
    try:
        got = elf_machine(path)
    except (OSError, ValueError) as exc:
        return CheckResult("fail", "native module", str(exc))
    want = ELF_MACHINES.get(machine)
    if want is not None and got != want:
        return CheckResult(
            "fail", "native module", f"{path} is ELF machine {got:#x}, not {machine}"
        )
    return CheckResult("ok", "native module", f"{machine} (ELF machine {got:#x}) {path}")


def check_native(ctx: DoctorContext) -> Iterator[CheckResult]:
    try:
        from shelldon import _native
    except ImportError as exc:
        yield CheckResult("fail", "native module", f"cannot import shelldon._native: {exc}")
        return
    yield native_result(_native.__file__ or "", platform.machine())


def memory_result(meminfo: str) -> CheckResult:
    values = {}
    for line in meminfo.splitlines():
        name, _, rest = line.partition(":")
        if rest.split():
            values[name] = int(rest.split()[0]) // 1024
    total, available = values.get("MemTotal", 0), values.get("MemAvailable", 0)
    level: Status = "ok" if available >= LOW_MEMORY_MB else "warn"
    return CheckResult(level, "memory", f"{available} MB available of {total} MB")


def check_memory(ctx: DoctorContext) -> Iterator[CheckResult]:
    yield memory_result(Path("/proc/meminfo").read_text())


CHECKS: list[Check] = [
    check_users,
    check_modes,
    check_units,
    check_native,
    check_memory,
]
