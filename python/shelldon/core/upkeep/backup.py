"""Backup, restore and repair of a data root: history.db and the memory tree.

- `backup`: an online, consistent copy of history.db through sqlite's backup API (a snapshot
  taken under a read transaction, while core keeps writing) plus a copy of the memory tree, into
  a directory or a tarball (`.tar`, `.tar.gz`, `.tgz`). Safe while the pet runs: memory files are
  only ever replaced whole (rename), so each file copied is one the pet wrote. A write in flight
  shows as its temp file (`layout.TEMP_NAME`), which the copy leaves out; a file listed and then
  renamed or removed before it is read is left out too (`_copy_tree`): before that, either made
  the whole backup fail (shutil.Error: No such file or directory).
- `restore`: refuses while core answers on its socket; checks the backup's history.db, moves the
  current history.db (and -wal/-shm) and memory tree aside into `<home>/aside-<ts>/`, and moves
  the backup's into place.
- `repair`: salvages what sqlite can read from a damaged history.db into a fresh file built by the
  current migrations: through the sqlite3 CLI's `.recover` when it is installed, else row by row,
  table by table, stepping over unreadable rows. The FTS index is rebuilt from the salvaged
  messages. The damaged file is kept as `history.db.damaged-<ts>`.

The vault's sealed files are in the memory tree and go with it; opening them on another card
needs the same key (docs/reliability.md "storage faults").
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore
from shelldon.core.storage import check as storage_check
from shelldon.core.storage import layout
from shelldon.paths import HISTORY_DB, DataRoot

MANIFEST: Final = "shelldon-backup.json"
MEMORY: Final = "memory"
TAR_SUFFIXES: Final = (".tar", ".tar.gz", ".tgz")
SIDE_FILES: Final = ("-wal", "-shm", "-journal")
MAX_SKIPPED_ROWIDS: Final = 100_000  # how far a row-by-row salvage steps over a damaged stretch
RECOVER_TIMEOUT_S: Final = 600.0
# A backup holds the vault and all of history: the service uid's alone, wherever it is written
# (the worker never reads one). docs/security.md.
BACKUP_DIR_MODE: Final = 0o700
BACKUP_FILE_MODE: Final = 0o600


class BackupError(RuntimeError):
    """One line for the owner: what could not be done and why."""


@dataclass(frozen=True)
class RepairReport:
    salvaged: dict[str, int]  # table -> rows now in the fresh file
    damaged_kept: Path
    method: str  # "sqlite3 .recover" or "row by row"


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def core_running(root: DataRoot) -> bool:
    """True when something accepts connections on core's socket (the pet runs)."""
    path = root.socket("core")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(2.0)
        try:
            sock.connect(os.fspath(path))
        except OSError:
            return False
    return True


def _is_tarball(path: Path) -> bool:
    return path.name.endswith(TAR_SUFFIXES)


def _copy_history(db: Path, dest: Path) -> None:
    """sqlite's backup API: pages copied under one read snapshot, so the copy is consistent even
    while core commits turns."""
    source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    target = sqlite3.connect(dest)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal
    finally:
        target.close()
        source.close()


def backup(root: DataRoot, dest: Path) -> Path:
    """Write a backup of `root` to `dest` (a new directory, or a tarball by its suffix)."""
    if not root.history_db.exists():
        raise BackupError(f"{root.history_db} does not exist: nothing to back up")
    storage_check.check_history_paths(root.history_db)  # a link is not followed out of the root
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise BackupError(f"{dest} already exists; name a new directory or tarball")
    _make_private_parents(dest.parent)
    with tempfile.TemporaryDirectory(prefix=".shelldon-backup-", dir=dest.parent) as tmp:
        stage = Path(tmp) / "shelldon-backup"
        stage.mkdir(mode=BACKUP_DIR_MODE)
        os.chmod(stage, BACKUP_DIR_MODE)  # the umask only narrows; the setgid parent's bit goes
        _copy_history(root.history_db, stage / HISTORY_DB)
        if root.memory.is_dir():
            _copy_tree(root.memory, stage / MEMORY)
        manifest = {"created": datetime.now(UTC).isoformat(), "home": str(root.home)}
        (stage / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        _make_private(stage)
        if _is_tarball(dest):
            partial = Path(tmp) / dest.name
            mode = "w:gz" if dest.name.endswith(("gz", "tgz")) else "w"
            with tarfile.open(partial, mode) as tar:  # type: ignore[call-overload]
                tar.add(stage, arcname="shelldon-backup")
            os.chmod(partial, BACKUP_FILE_MODE)
            os.replace(partial, dest)  # whole or absent
        else:
            with contextlib.suppress(FileNotFoundError):
                dest.rmdir()  # the empty directory named
            shutil.move(stage, dest)
    return dest


def _copy_tree(src: Path, dest: Path) -> None:
    """The memory tree as the running pet leaves it: its writes' temp files left out, and a file
    gone between the listing and its copy (renamed over, forgotten) skipped, not an error."""

    def in_flight(_directory: str, names: list[str]) -> set[str]:
        return {name for name in names if layout.TEMP_NAME.fullmatch(name)}

    def copy_if_there(source: str, target: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            shutil.copy2(source, target)

    shutil.copytree(src, dest, symlinks=True, ignore=in_flight, copy_function=copy_if_there)


def _make_private_parents(directory: Path) -> None:
    """mkdir -p, each directory it makes 0700: where backups go is the owner's alone."""
    missing = [d for d in (directory, *directory.parents) if not d.exists()]
    for path in reversed(missing):
        path.mkdir(mode=BACKUP_DIR_MODE, exist_ok=True)
        os.chmod(path, BACKUP_DIR_MODE)  # a setgid parent (the data root) adds its bit


def _make_private(stage: Path) -> None:
    """Directories 0700, files 0600 (links untouched): the copy carries the vault. A restore gives
    the tree its data modes again (core.storage.layout.settle_modes)."""
    for top, dirs, files in os.walk(stage):
        for name in (*dirs, *files):
            path = Path(top) / name
            if not path.is_symlink():
                os.chmod(path, BACKUP_DIR_MODE if path.is_dir() else BACKUP_FILE_MODE)


def _unpack(src: Path, into: Path) -> Path:
    """The backup's directory (the one holding history.db), unpacked under `into` if a tarball."""
    if src.is_dir():
        return src
    if not _is_tarball(src) or not src.is_file():
        raise BackupError(f"{src} is neither a backup directory nor a backup tarball")
    try:
        with tarfile.open(src) as tar:
            for member in tar.getmembers():
                name = Path(member.name)
                if (
                    name.is_absolute()
                    or ".." in name.parts
                    or not (member.isfile() or member.isdir())
                ):
                    raise BackupError(f"{src}: unexpected entry {member.name!r}; not restoring it")
            tar.extractall(into)
    except tarfile.TarError as exc:
        raise BackupError(f"{src} is not a readable tarball ({exc})") from None
    found = [p.parent for p in into.rglob(HISTORY_DB)]
    if len(found) != 1:
        raise BackupError(f"{src} holds no single {HISTORY_DB}; not a shelldon backup")
    return found[0]


def restore(root: DataRoot, src: Path) -> Path:
    """Put the backup at `src` in place; returns the directory the current data went to."""
    if core_running(root):
        raise BackupError(
            f"the pet is running on {root.home}; stop it first (restore replaces its stores)"
        )
    root.home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".shelldon-restore-", dir=root.home) as tmp:
        unpacked = _unpack(src, Path(tmp))
        if not (unpacked / HISTORY_DB).is_file():
            raise BackupError(f"{src} holds no {HISTORY_DB}; not a shelldon backup")
        staged = Path(tmp) / "staged"
        staged.mkdir()
        shutil.copy2(unpacked / HISTORY_DB, staged / HISTORY_DB)
        try:
            storage_check.check_history(staged / HISTORY_DB)
        except storage_check.StorageFault as exc:
            raise BackupError(f"the backup's history is damaged: {exc}") from None
        if (unpacked / MEMORY).is_dir():
            shutil.copytree(unpacked / MEMORY, staged / MEMORY, symlinks=True)
        aside = root.home / f"{layout.ASIDE_PREFIX}{_stamp()}"
        aside.mkdir(mode=layout.PRIVATE_MODE)
        os.chmod(aside, layout.PRIVATE_MODE)  # an older vault is among what goes there
        for name in (HISTORY_DB, *(HISTORY_DB + s for s in SIDE_FILES), MEMORY):
            current = root.home / name
            if current.exists():
                os.replace(current, aside / name)
        os.replace(staged / HISTORY_DB, root.history_db)
        if (staged / MEMORY).is_dir():
            os.replace(staged / MEMORY, root.memory)
    layout.settle_modes(root, layout.readers_gid(root))  # the backup may come from an older release
    return aside


def _tables(conn: sqlite3.Connection) -> list[str]:
    """The plain tables the schema keeps rows in (not FTS, its shadow tables, or sqlite's)."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%_fts_%' "
        "AND name NOT LIKE 'messages_stem_%' ORDER BY name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")').fetchall()]


def _readable_rows(
    source: sqlite3.Connection, table: str, columns: list[str]
) -> list[tuple[object, ...]]:
    """Every row sqlite can still read, by rowid, stepping over the ones it cannot."""
    select = ", ".join(f'"{c}"' for c in columns)
    rows: list[tuple[object, ...]] = []
    last = -(2**63)
    skipped = 0
    while skipped <= MAX_SKIPPED_ROWIDS:
        try:
            cursor = source.execute(
                f'SELECT rowid, {select} FROM "{table}" WHERE rowid > ? ORDER BY rowid', (last,)
            )
            for row in cursor:
                last = int(row[0])
                rows.append(tuple(row[1:]))
                skipped = 0
            return rows
        except sqlite3.DatabaseError:
            last += 1  # the row after the last good one is unreadable: try past it
            skipped += 1
    return rows


def _recover_with_cli(damaged: Path, scratch: Path) -> bool:
    """`sqlite3 damaged .recover | sqlite3 scratch`; False when the CLI is missing or fails."""
    cli = shutil.which("sqlite3")
    if cli is None:
        return False
    try:
        dump = subprocess.run(
            [cli, os.fspath(damaged), ".recover"],
            capture_output=True,
            timeout=RECOVER_TIMEOUT_S,
            check=False,
        )
        subprocess.run(
            [cli, os.fspath(scratch)],
            input=dump.stdout,
            capture_output=True,
            timeout=RECOVER_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    try:
        conn = sqlite3.connect(scratch)
        try:
            return bool(_tables(conn))
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return False


def repair(root: DataRoot, *, use_cli: bool = True) -> RepairReport:
    """Salvage history.db into a fresh file; the damaged one stays as history.db.damaged-<ts>."""
    db = root.history_db
    if core_running(root):
        raise BackupError(
            f"the pet is running on {root.home}; stop it first (repair replaces {db})"
        )
    if not db.exists():
        raise BackupError(f"{db} does not exist: nothing to repair")
    stamp = _stamp()
    kept = db.with_name(f"{db.name}.damaged-{stamp}")
    fresh = db.with_name(f"{db.name}.repairing")
    scratch = db.with_name(f"{db.name}.recovered")
    for leftover in (fresh, scratch):
        leftover.unlink(missing_ok=True)
    method = "row by row"
    source_path = db
    if use_cli and _recover_with_cli(db, scratch):
        method, source_path = "sqlite3 .recover", scratch
    salvaged: dict[str, int] = {}
    store = HistoryStore.open(fresh)  # the current schema, by the migrations
    try:
        try:
            source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
            source_tables = set(_tables(source))
        except sqlite3.DatabaseError:
            source, source_tables = None, set()
        with store.writing() as conn:
            for table in _tables(conn):
                if source is None or table not in source_tables:
                    continue
                wanted = _columns(conn, table)
                columns = [c for c in _columns(source, table) if c in wanted]
                rows = _readable_rows(source, table, columns)
                names = ", ".join(f'"{c}"' for c in columns)
                marks = ", ".join("?" for _ in columns)
                conn.executemany(
                    f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES ({marks})', rows
                )
            recall.rebuild_stem_index(conn)  # and its watermark (migration 8)
        with store.reading() as conn:
            for table in _tables(conn):
                salvaged[table] = int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
        if source is not None:
            source.close()
    finally:
        store.close()
    scratch.unlink(missing_ok=True)
    os.replace(db, kept)
    for suffix in SIDE_FILES:
        side = db.with_name(db.name + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    os.replace(fresh, db)
    return RepairReport(salvaged=salvaged, damaged_kept=kept, method=method)
