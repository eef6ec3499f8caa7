"""Inside a freshly forked worker: shed everything inherited, then drop to the worker uid, fail-
closed.

Order matters: fds first (nothing privileged may stay open), then the capability bounding set
(emptying it needs CAP_SETPCAP, which the uid change takes away), then supplementary groups, then
gid, then uid (after setuid a process can no longer change its gid), then no_new_privs so
nothing exec'd later can regain privilege. Then verify every id and the capability sets from the
kernel's own view (/proc/self/status); if anything did not take, the turn is refused. The seccomp
filter comes after all this (`worker.sandbox.confine`).

Not root, or no worker user configured: no drop, and a loud "vault isolation OFF, dev mode"
warning.

Outside dev mode the worker user must be the pet's own: a shared account (`shared_account`: uid
65534, a login shell, or processes already running as it) is refused at fork-server start, because
whatever else runs as that uid could pose as a worker and could read what workers read."""

from __future__ import annotations

import logging
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path

# prctl through the extension, not ctypes: ctypes cost the fork-server 0.35 MB for five options.
from shelldon._native import prctl

log = logging.getLogger("shelldon.worker.drop")

DEV_MODE_WARNING = (
    "vault isolation OFF, dev mode: the worker runs with this process's uid and could read vault/"
)
OVERFLOW_UID = 65534  # nobody: every service that wants "no privileges" shares it
NO_LOGIN_SHELLS = frozenset({"nologin", "false"})
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
PR_CAPBSET_READ = 23
PR_CAPBSET_DROP = 24


class DropRefused(RuntimeError):
    """The drop was configured but did not fully take. The turn must not run."""


@dataclass(frozen=True)
class WorkerIdentity:
    """Who workers become. `None` uid: dev mode (no drop)."""

    uid: int | None
    gid: int | None
    user: str | None
    reason: str  # why isolation is on or off, for status and logs
    # How many capabilities the kernel knows, asked once in the fork-server (PR_CAPBSET_READ):
    # each worker then drops them without asking again, half of its ~80 prctl calls. 0: ask.
    capabilities: int = 0

    @property
    def isolated(self) -> bool:
        return self.uid is not None


def resolve_identity(user: str | None) -> WorkerIdentity:
    """Decide, once at fork-server start, whether workers drop and to whom.

    A configured user that does not exist is an error (raised): silently running undropped would
    be the failure this whole design exists to prevent.
    """
    if not user:
        return WorkerIdentity(None, None, None, "no worker user configured")
    try:
        entry = pwd.getpwnam(user) if not user.isdigit() else pwd.getpwuid(int(user))
    except KeyError:
        raise DropRefused(f"worker user {user!r} does not exist") from None
    if entry.pw_uid == 0:
        raise DropRefused("the worker user must not be root")
    if os.geteuid() != 0:
        return WorkerIdentity(
            None,
            None,
            entry.pw_name,
            f"not root (euid {os.geteuid()}): cannot drop to {entry.pw_name}",
        )
    shared = shared_account(entry)
    if shared:
        raise DropRefused(
            f"worker user {entry.pw_name!r} is a shared account ({shared}); give the worker a "
            "system user of its own (no login shell, nothing else running as it)"
        )
    return WorkerIdentity(
        entry.pw_uid,
        entry.pw_gid,
        entry.pw_name,
        f"workers run as {entry.pw_name} ({entry.pw_uid})",
        capabilities=known_capabilities(),
    )


def shared_account(entry: pwd.struct_passwd) -> str | None:
    """Why `entry` is shared with something other than the pet's workers, or None.

    Processes are looked for in /proc: under the appliance's ProtectProc=invisible the fork-server
    sees only its own, so there the uid and the shell are the checks that hold."""
    if entry.pw_uid == OVERFLOW_UID or entry.pw_name == "nobody":
        return (
            f"uid {entry.pw_uid} is the overflow user nobody, shared by every unprivileged service"
        )
    shell = Path(entry.pw_shell or "/bin/sh").name
    if shell not in NO_LOGIN_SHELLS:
        return f"it has a login shell, {entry.pw_shell or '/bin/sh'}"
    running = processes_of(entry.pw_uid)
    if running:
        listed = ", ".join(str(pid) for pid in running[:5])
        more = f" and {len(running) - 5} more" if len(running) > 5 else ""
        return f"processes already run as uid {entry.pw_uid}: pid {listed}{more}"
    return None


def processes_of(uid: int) -> list[int]:
    """Pids (other than this process) whose real, effective, saved or filesystem uid is `uid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            text = (entry / "status").read_text()
        except OSError:  # gone, or hidden
            continue
        for line in text.splitlines():
            if line.startswith("Uid:"):
                if str(uid) in line.split()[1:]:
                    found.append(int(entry.name))
                break
    return sorted(found)


def unreachable_for(identity: WorkerIdentity, *paths: Path) -> str | None:
    """Why the worker could not reach one of `paths` (an ancestor it may not traverse), or None.

    Checked at fork-server start: a data root under a 0700 home (root's, say) would make every turn
    fail inside the worker; better one clear error than a pet that only ever degrades.
    """
    if identity.uid is None or identity.gid is None:
        return None
    for path in paths:
        current = Path("/")
        for part in Path(path).absolute().parts[1:]:
            current = current / part
            try:
                st = current.stat()
            except FileNotFoundError:
                break  # created later by core, with the tree's modes
            except PermissionError:
                # Root without CAP_DAC_OVERRIDE (the appliance's fork-server) traverses the data
                # root through the readers' group (its unit's SupplementaryGroups=).
                return f"the fork-server (uid {os.geteuid()}) may not traverse {current.parent}"
            if st.st_uid == identity.uid:
                bit = stat.S_IXUSR
            elif st.st_gid == identity.gid:
                bit = stat.S_IXGRP
            else:
                bit = stat.S_IXOTH
            if stat.S_ISDIR(st.st_mode) and not st.st_mode & bit:
                mode = stat.S_IMODE(st.st_mode)
                return f"{current} (mode {mode:04o}) keeps {identity.user} from reaching {path}"
    return None


def close_inherited_fds(keep: set[int]) -> None:
    """Close every fd but `keep` and stderr (logs). stdin/stdout become /dev/null."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        if fd not in keep:
            os.dup2(devnull, fd)
    os.close(devnull)
    keep_all = sorted({0, 1, 2, *keep})
    low = 3
    for fd in keep_all:
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1
    os.closerange(low, _max_fd())


def _max_fd() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (OSError, ValueError):
        return 65536


def set_no_new_privs() -> None:
    try:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        stuck = prctl(PR_GET_NO_NEW_PRIVS) == 1
    except OSError as exc:
        raise DropRefused(f"prctl(no_new_privs) failed: {os.strerror(exc.errno or 0)}") from None
    if not stuck:
        raise DropRefused("no_new_privs did not stick")


def known_capabilities() -> int:
    """How many capabilities the kernel knows (0: the bounding set cannot be read).

    The last valid number is found by asking (PR_CAPBSET_READ answers EINVAL past it) rather than
    from /proc/sys/kernel/cap_last_cap, which the card's unit hides (ProcSubset=pid)."""
    known = 0
    while known < 64:
        try:
            prctl(PR_CAPBSET_READ, known)
        except OSError:
            break
        known += 1
    return known


def drop_bounding_set(known: int = 0) -> int:
    """Empty the capability bounding set; how many capabilities the kernel knows.

    The bounding set caps what any later exec could gain; the worker needs none. `known`: the
    count the fork-server asked for once (WorkerIdentity.capabilities); 0 asks here.
    """
    known = known or known_capabilities()
    if known == 0:
        raise DropRefused("prctl(PR_CAPBSET_READ) failed: cannot see the bounding set")
    for cap in range(known):
        try:
            prctl(PR_CAPBSET_DROP, cap)
        except OSError as exc:
            raise DropRefused(
                f"prctl(PR_CAPBSET_DROP, {cap}) failed: {os.strerror(exc.errno or 0)}"
                " (the fork-server needs CAP_SETPCAP)"
            ) from None
    return known


def _proc_status() -> dict[str, str]:
    # One os.read, not Path.read_text: in a fresh worker pathlib's and io's first calls fault in
    # their pages (copy-on-write after the fork): 0.45 ms of each drop before, ~0.3 now (x86).
    fd = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
    try:
        text = os.read(fd, 1 << 16).decode("ascii", "replace")
    finally:
        os.close(fd)
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def verify_dropped(uid: int, gid: int) -> None:
    """Raise DropRefused unless every id is the worker's and no capability is left."""
    if os.getresuid() != (uid, uid, uid):
        raise DropRefused(f"uids are {os.getresuid()}, expected {uid} in all three")
    if os.getresgid() != (gid, gid, gid):
        raise DropRefused(f"gids are {os.getresgid()}, expected {gid} in all three")
    if os.getgroups() not in ([], [gid]):
        raise DropRefused(f"supplementary groups remain: {os.getgroups()}")
    status = _proc_status()
    for cap in ("CapEff", "CapPrm", "CapAmb"):
        value = status.get(cap)
        if value is None or int(value, 16) != 0:
            raise DropRefused(f"{cap} is {value!r}, expected 0")
    if status.get("NoNewPrivs") != "1":
        raise DropRefused("NoNewPrivs is not set")
    bounding = status.get("CapBnd")
    if bounding is None or int(bounding, 16) != 0:
        raise DropRefused(f"CapBnd is {bounding!r}, expected 0")


def drop_privileges(identity: WorkerIdentity) -> bool:
    """Drop to the worker identity and verify. True: isolated. False: dev mode (warned).

    Raises DropRefused if a configured drop did not take; the caller must not run the turn.
    """
    if identity.uid is None or identity.gid is None:
        log.warning("%s (%s)", DEV_MODE_WARNING, identity.reason)
        return False
    uid, gid = identity.uid, identity.gid
    drop_bounding_set(identity.capabilities)
    try:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        raise DropRefused(f"dropping to {uid}:{gid} failed: {exc}") from None
    set_no_new_privs()
    verify_dropped(uid, gid)
    return True
