"""The data root's directories and modes: the one place that creates (or checks) them.

`prepare` runs at every start of whoever runs core (app, core's main). The memory writer, the
vault and the audit log's undo store call the narrower helpers below when they are opened on
their own (the CLI, tests), so the shape and the modes are written here and nowhere else.
`sweep_temp_files` removes what an interrupted atomic write left in those directories (core at
start, through core.upkeep.recovery; the memory writer when it opens).

Who may read (docs/security.md): the service uid (owner bits) and the worker, through the
readers' group, the worker user's primary group (the drop's `setgroups([])` leaves the worker only
that one). Directories are 2750 and setgid, so every file made in them (sqlite's -wal/-shm, the
atomic writer's temp files, rotated audit logs) takes the readers' group without a chown; files are
0640; a third uid cannot even traverse the data root. vault/ and the undo store are 0700 (files
0600), and lock files 0600: the worker never reads them. `settle_modes` brings a data root made by
an earlier release (0755/0644) to these modes at start, and logs what it changed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from shelldon import _native
from shelldon.config import ConfigError, configured_worker_user
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.paths import ARCHIVE_DIR, CHAT_HISTORY_NAME, UNDO_DIR, DataRoot

log = logging.getLogger(__name__)

DIR_MODE = 0o2750  # owner rwx, readers' group r-x, setgid: new entries take the group
FILE_MODE = 0o640  # owner rw, readers' group r
PRIVATE_MODE = 0o700  # vault/, the undo store: the worker may not even traverse it
PRIVATE_FILE_MODE = 0o600  # the vault's and the undo store's files, lock files
LOCK_SUFFIX = ".lock"  # a worker holding a read fd could flock it and stall core: 0600
ASIDE_PREFIX = "aside-"  # what restore moved aside (an older vault among it): private
STAGING_PREFIX = ".shelldon-"  # backup/restore staging dirs (mkdtemp, 0700): left alone
# The Rust atomic writer's temp names (rust/src/atomic.rs): `.<name>.tmp-shelldon-<pid>-<n>`.
TEMP_NAME = re.compile(rf"\..+{re.escape(_native.TEMP_MARKER)}(\d+)-(\d+)", re.DOTALL)


class LayoutError(ValueError):
    """A path of the tree that exists but is not a directory."""


def readers_gid(root: DataRoot) -> int | None:
    """The readers' group: the configured worker user's primary group, when this process may give
    files that group (root, or a member: the appliance's sysusers puts `shelldon` in
    `shelldon-worker`). None: no worker user (dev mode), or one this process cannot give the group
    to; then new files keep the directories' group (setgid) and `settle_modes` changes no group."""
    try:
        user = configured_worker_user(root)
    except ConfigError:
        return None  # whoever reads the config next says what is wrong with it
    if not user:
        return None
    try:
        entry = pwd.getpwuid(int(user)) if user.isdigit() else pwd.getpwnam(user)
    except KeyError:
        return None  # the fork-server refuses to start and names it
    gid = entry.pw_gid
    if os.geteuid() != 0 and gid != os.getegid() and gid not in os.getgroups():
        log.warning(
            "service uid %d is not in the worker's group %d: files keep their directory's group",
            os.geteuid(),
            gid,
        )
        return None
    return gid


def ensure_dir(path: Path, mode: int, gid: int | None = None) -> None:
    """mkdir -p, then give it `gid` (when given) and `mode` when they differ and the directory is
    ours (one another uid owns is left as it is; `doctor` reports it). Made with the mode's
    permission bits, so a setgid parent's bit is inherited, never cleared by a later chmod."""
    try:
        path.mkdir(mode=mode & 0o777, parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:  # mkdir's bare "File exists" was it
        # Still an OSError: the write path tells it as a failed write, core's start as its fault.
        raise type(exc)(
            exc.errno,
            "it (or a folder above it) is a file, not a directory; the pet keeps its data there: "
            "move the file away, then start the pet again",
            os.fspath(path),
        ) from None
    st = path.stat()
    if st.st_uid != os.geteuid():
        return
    # A sandbox that forbids chown or a setgid bit (the card's core: tmpfiles sets both before it
    # starts) refuses these: serving with the directory as it is beats not starting (see doctor).
    if gid is not None and st.st_gid != gid:
        try:
            os.chown(path, -1, gid)
        except PermissionError as exc:
            log.error("cannot give %s the readers' group %d: %s", path, gid, exc.strerror)
    if stat.S_IMODE(st.st_mode) != mode:
        try:
            os.chmod(path, mode)
        except PermissionError as exc:
            log.error("cannot give %s mode %04o: %s", path, mode, exc.strerror)


def ensure_vault(vault: Path) -> None:
    """Create vault/ 0700 (or tighten it), owned by whoever runs core: the service uid."""
    with contextlib.suppress(FileExistsError):  # a file there: said just below, by name
        vault.mkdir(mode=PRIVATE_MODE, parents=True, exist_ok=True)
    st = vault.lstat()
    if not stat.S_ISDIR(st.st_mode):
        what = "a link" if stat.S_ISLNK(st.st_mode) else "not a directory"
        raise LayoutError(
            f"{vault} is {what}; the vault is a private folder of the memory tree, never followed "
            "elsewhere: move it away (and its secrets back into a real vault/), then start the "
            "pet again"
        )
    if stat.S_IMODE(st.st_mode) != PRIVATE_MODE:
        os.chmod(vault, PRIVATE_MODE)
    if st.st_uid != os.geteuid():
        # A vault owned by someone else is a misconfiguration the owner must see, not something to
        # fix silently.
        log.error("%s is owned by uid %d, not the service uid %d", vault, st.st_uid, os.geteuid())


def prepare_memory(memory: Path, gid: int | None = None) -> None:
    """memory/, its collections and their archive (2750) and vault/ (0700). Idempotent."""
    ensure_dir(memory, DIR_MODE, gid)
    ensure_dir(memory / ARCHIVE_DIR, DIR_MODE, gid)
    for collection in COLLECTION_NAMES:
        ensure_dir(memory / collection, DIR_MODE, gid)
        ensure_dir(memory / ARCHIVE_DIR / collection, DIR_MODE, gid)
    ensure_vault(memory / "vault")


def prepare(root: DataRoot) -> None:
    """Create home, the memory tree, vault/ (0700), state/ and the run dir, and settle the modes of
    what an earlier release left. Idempotent."""
    gid = readers_gid(root)
    ensure_dir(root.home, DIR_MODE, gid)
    prepare_memory(root.memory, gid)
    ensure_dir(root.state, DIR_MODE, gid)
    # The run dir is created if missing but never re-moded: on the appliance it is tmpfiles.d's
    # (root:shelldon 0775, so the root fork-server without CAP_DAC_OVERRIDE can bind in it).
    try:
        root.run_dir.mkdir(mode=0o755, parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        raise type(exc)(
            exc.errno,
            "the run dir (sockets, pid files) is a file, not a directory: move the file away, "
            "then start the pet again",
            os.fspath(root.run_dir),
        ) from None
    settle_modes(root, gid)


@dataclass
class Settled:
    """What `settle_modes` did: paths changed, and paths it could not change (not ours)."""

    changed: list[Path] = field(default_factory=list)
    refused: list[tuple[Path, str]] = field(default_factory=list)


def _target_mode(st: os.stat_result, name: str, private: bool) -> int | None:
    if stat.S_ISDIR(st.st_mode):
        return PRIVATE_MODE if private else DIR_MODE
    if stat.S_ISREG(st.st_mode):
        return PRIVATE_FILE_MODE if private or name.endswith(LOCK_SUFFIX) else FILE_MODE
    return None  # symlinks, sockets, fifos: not followed, not changed


def _settle_one(path: Path, private: bool, gid: int | None, done: Settled) -> os.stat_result | None:
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    mode = _target_mode(st, path.name, private)
    if mode is None:
        return None
    group = None if private else gid  # a private path needs no group: it has no group bits
    wrong_group = group is not None and st.st_gid != group
    if not wrong_group and stat.S_IMODE(st.st_mode) == mode:
        return st
    try:
        if group is not None and wrong_group:
            os.chown(path, -1, group, follow_symlinks=False)
        os.chmod(path, mode)  # after the chown, which may clear a setgid bit
    except OSError as exc:
        done.refused.append((path, exc.strerror or str(exc)))
        return st
    done.changed.append(path)
    return st


def _settle_tree(path: Path, private: bool, gid: int | None, done: Settled, memory: Path) -> None:
    st = _settle_one(path, private, gid, done)
    if st is None or not stat.S_ISDIR(st.st_mode):
        return
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        done.refused.append((path, exc.strerror or str(exc)))
        return
    for name in names:
        inner_private = private or (path == memory and name in ("vault", UNDO_DIR))
        _settle_tree(path / name, inner_private, gid, done, memory)


def settle_modes(root: DataRoot, gid: int | None) -> Settled:
    """Give every directory and file of the data root its mode (and the readers' group): a root an
    earlier release made 0755/0644 is closed at the first start of this one, and the change is
    logged. Not touched: the run dir (sockets have their own modes), restore's staging dirs, and
    anything but directories and regular files. Cheap when nothing is wrong: one lstat a path."""
    done = Settled()
    home = root.home
    run_dir = root.run_dir.absolute()
    _settle_one(home, False, gid, done)
    try:
        names = sorted(os.listdir(home))
    except OSError:
        names = []
    for name in names:
        path = home / name
        if path.absolute() == run_dir or name.startswith(STAGING_PREFIX):
            continue
        if name.startswith(ASIDE_PREFIX):
            _settle_one(path, True, gid, done)  # closed at the top: nobody else traverses it
            continue
        if name == CHAT_HISTORY_NAME:  # what the owner typed in the terminal: the owner's alone
            _settle_one(path, True, gid, done)
            continue
        _settle_tree(path, False, gid, done, root.memory)
    if done.changed:
        shown = ", ".join(str(p.relative_to(home)) or "." for p in done.changed[:8])
        more = f" and {len(done.changed) - 8} more" if len(done.changed) > 8 else ""
        log.warning(
            "data root %s: gave %d paths the owner+readers' group modes (dirs %04o, files %04o): "
            "%s%s",
            home,
            len(done.changed),
            DIR_MODE,
            FILE_MODE,
            shown,
            more,
        )
    for path, why in done.refused:
        log.error(
            "data root: cannot set the mode of %s (%s); `shelldon doctor` shows it", path, why
        )
    return done


def open_to_others(root: DataRoot) -> list[Path]:
    """Directories and files under home with any permission bit for other uids (`doctor`). Not
    looked at: the run dir (sockets keep their own modes), and inside what restore set aside or is
    staging (closed at the top)."""
    run_dir = root.run_dir.absolute()
    paths = [root.home]
    for top, dirs, files in os.walk(root.home):
        here = Path(top)
        dirs[:] = [d for d in dirs if (here / d).absolute() != run_dir]
        paths.extend(here / name for name in (*dirs, *files))
        if here == root.home:
            dirs[:] = [d for d in dirs if not d.startswith((ASIDE_PREFIX, STAGING_PREFIX))]
    found: list[Path] = []
    for path in paths:
        try:
            st = path.lstat()
        except OSError:
            continue
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o007:
            found.append(path)
    return found


def atomic_write_dirs(root: DataRoot) -> tuple[Path, ...]:
    """Every directory the pet writes with the atomic writer: the memory root (about, summary,
    MEMORY.md, a restored episodes.md), the collections, the undo blobs, the vault, state/."""
    memory = root.memory
    return (
        memory,
        *(memory / c for c in COLLECTION_NAMES),
        *(memory / ARCHIVE_DIR / c for c in COLLECTION_NAMES),
        memory / UNDO_DIR,
        memory / "vault",
        root.state,
    )


def _boot_time() -> float:
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    raise OSError("no btime in /proc/stat")


def writer_running(pid: int, written_at: float) -> bool:
    """Whether the process whose pid a temp file carries still runs: the pid exists, is not a
    zombie (a killed writer whose parent has not reaped it yet), and started before the file was
    last written (a later start means the pid was reused). Unreadable: assumed running."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if fields[0] in ("Z", "X"):
            return False
        started = _boot_time() + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return False
    except (OSError, IndexError, ValueError):
        return True
    return started <= written_at + 1.0  # start times are in ticks, boot time in whole seconds


def sweep_temp_files(root: DataRoot) -> list[Path]:
    """Remove the temp files interrupted atomic writes left in `atomic_write_dirs`."""
    return sweep_temp_files_in(atomic_write_dirs(root))


def sweep_temp_files_in(directories: Iterable[Path]) -> list[Path]:
    """Remove every file named like the Rust writer's temp files whose writer (the pid in the
    name) is gone (`writer_running`); a live writer's (the CLI writing while core starts) is left
    to it. Nothing else is touched. Returns what was removed."""
    removed: list[Path] = []
    for directory in directories:
        try:
            names = os.listdir(directory)
        except OSError:  # absent, or not ours to list
            continue
        for name in names:
            match = TEMP_NAME.fullmatch(name)
            if match is None:
                continue
            path = directory / name
            try:
                st = path.lstat()
                if not stat.S_ISREG(st.st_mode) or writer_running(int(match.group(1)), st.st_mtime):
                    continue
                path.unlink()
            except OSError as exc:
                log.warning("could not remove leftover temp file %s: %s", path, exc)
                continue
            log.info("removed leftover temp file %s", path)
            removed.append(path)
    return removed
