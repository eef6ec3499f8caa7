"""The data root's directories and their modes: the one place that creates (or checks) them.

`prepare` runs at every start of whoever runs core (app, core's main). The memory writer, the
vault and the audit log's undo store call the narrower helpers below when they are opened on
their own (the CLI, tests), so the shape and the modes are written here and nowhere else.
`sweep_temp_files` removes what an interrupted atomic write left in those directories (core at
start, through core.recovery; the memory writer when it opens).

The memory tree is 0755 (the worker may read it, nobody else writes it: core is its only writer);
vault/ and the undo store are 0700 owned by the service uid, chmod'ed after mkdir so the umask
cannot loosen them.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from shelldon import _native
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)

TREE_MODE = 0o755  # the worker (another uid) reads the tree
PRIVATE_MODE = 0o700  # the worker may not even traverse it
UNDO_DIR = ".undo"  # the audit log's blob store (core.audit), inside the memory root
ARCHIVE_DIR = "archive"  # superseded and retired entries, per collection (core.memory)
# The Rust atomic writer's temp names (rust/src/atomic.rs): `.<name>.tmp-shelldon-<pid>-<n>`.
TEMP_NAME = re.compile(rf"\..+{re.escape(_native.TEMP_MARKER)}(\d+)-(\d+)", re.DOTALL)


class LayoutError(ValueError):
    """A path of the tree that exists but is not a directory."""


def ensure_dir(path: Path, mode: int) -> None:
    """mkdir -p, then chmod to `mode` when it differs and the directory is ours (one another uid
    owns is left as it is; `doctor` reports it)."""
    path.mkdir(parents=True, exist_ok=True)
    st = path.stat()
    if stat.S_IMODE(st.st_mode) != mode and st.st_uid == os.geteuid():
        os.chmod(path, mode)


def ensure_vault(vault: Path) -> None:
    """Create vault/ 0700 (or tighten it), owned by whoever runs core: the service uid."""
    vault.mkdir(parents=True, exist_ok=True)
    st = vault.lstat()
    if not stat.S_ISDIR(st.st_mode):
        raise LayoutError(f"{vault} is not a directory")
    if stat.S_IMODE(st.st_mode) != PRIVATE_MODE:
        os.chmod(vault, PRIVATE_MODE)
    if st.st_uid != os.geteuid():
        # A vault owned by someone else is a misconfiguration the owner must see, not something to
        # fix silently.
        log.error("%s is owned by uid %d, not the service uid %d", vault, st.st_uid, os.geteuid())


def prepare_memory(memory: Path) -> None:
    """memory/, its collections and their archive (0755) and vault/ (0700). Idempotent."""
    ensure_dir(memory, TREE_MODE)
    ensure_dir(memory / ARCHIVE_DIR, TREE_MODE)
    for collection in COLLECTION_NAMES:
        ensure_dir(memory / collection, TREE_MODE)
        ensure_dir(memory / ARCHIVE_DIR / collection, TREE_MODE)
    ensure_vault(memory / "vault")


def prepare(root: DataRoot) -> None:
    """Create home, the memory tree, vault/ (0700), state/ and the run dir. Idempotent."""
    ensure_dir(root.home, TREE_MODE)
    prepare_memory(root.memory)
    ensure_dir(root.state, TREE_MODE)
    # The run dir is created if missing but never re-moded: on the appliance it is tmpfiles.d's
    # (root:shelldon 0775, so the root fork-server without CAP_DAC_OVERRIDE can bind in it).
    root.run_dir.mkdir(mode=0o755, parents=True, exist_ok=True)


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
