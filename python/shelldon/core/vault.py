"""Core's side of the vault: create it locked, store a secret, list the names. Never reads a value.

The only read of a vault value is `shelldon.broker.vault.surface_vault`. The vault directory is
owned by the service uid with mode 0700 (chmod after mkdir, so the umask cannot loosen it); each
secret is a 0600 file written atomically. The worker uid has no read or traverse permission: the
kernel says no."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
from pathlib import Path

log = logging.getLogger("shelldon.core.vault")

# A key names a file: letters, digits, "_", "-", "."; no leading dot, no separators, at most 64
# chars.
VAULT_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
VAULT_SUFFIX = ".md"
MAX_SECRET_BYTES = 64 * 1024


class VaultError(ValueError):
    """A bad key or value. The message never echoes the value."""


def check_key(key: str) -> str:
    if not isinstance(key, str) or not VAULT_KEY.fullmatch(key) or ".." in key:
        raise VaultError("vault key must be 1-64 of [A-Za-z0-9_.-], not starting with '.', no '..'")
    return key


def ensure_vault(vault: Path) -> None:
    """Create vault/ 0700 (or tighten it), owned by whoever runs core: the service uid."""
    vault.mkdir(parents=True, exist_ok=True)
    st = vault.lstat()
    if not stat.S_ISDIR(st.st_mode):
        raise VaultError(f"{vault} is not a directory")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(vault, 0o700)
    if st.st_uid != os.geteuid():
        # A vault owned by someone else is a misconfiguration the owner must see, not something to
        # fix silently.
        log.error("%s is owned by uid %d, not the service uid %d", vault, st.st_uid, os.geteuid())


def set_secret(vault: Path, key: str, value: str) -> None:
    """Store `value` under `key` atomically, 0600. Refuses empty or oversized values."""
    check_key(key)
    data = value.encode("utf-8")
    if not data.strip():
        raise VaultError("an empty secret is not stored")
    if len(data) > MAX_SECRET_BYTES:
        raise VaultError(f"a secret is at most {MAX_SECRET_BYTES} bytes")
    ensure_vault(vault)
    target = vault / f"{key}{VAULT_SUFFIX}"
    tmp = vault / f".{key}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    dir_fd = os.open(vault, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def list_names(vault: Path) -> list[str]:
    """The keys in the vault, sorted. Names only: no value is opened."""
    try:
        entries = list(vault.iterdir())
    except FileNotFoundError:
        return []
    names = []
    for entry in entries:
        name = entry.name
        if name.endswith(VAULT_SUFFIX) and not name.startswith("."):
            key = name[: -len(VAULT_SUFFIX)]
            if VAULT_KEY.fullmatch(key):
                names.append(key)
    return sorted(names)
