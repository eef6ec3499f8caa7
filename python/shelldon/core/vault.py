"""Core's side of the vault: create it locked, store a secret, list the names. Never reads a value.

The only read of a vault value is `shelldon.broker.vault.surface_vault`. The vault directory is
owned by the service uid with mode 0700 (`core.storage.layout.ensure_vault`); each secret is a 0600
file written atomically and durably by the Rust writer. The worker uid has no read or traverse
permission: the kernel says no."""

from __future__ import annotations

import os
import re
from pathlib import Path

from shelldon import _native
from shelldon.core.storage import layout

# A key names a file: letters, digits, "_", "-", "."; no leading dot, no separators, at most 64
# chars.
VAULT_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
VAULT_SUFFIX = ".md"
MAX_SECRET_BYTES = 64 * 1024
SECRET_MODE = 0o600


class VaultError(ValueError):
    """A bad key or value. The message never echoes the value."""


def check_key(key: str) -> str:
    if not isinstance(key, str) or not VAULT_KEY.fullmatch(key) or ".." in key:
        raise VaultError("vault key must be 1-64 of [A-Za-z0-9_.-], not starting with '.', no '..'")
    return key


def set_secret(vault: Path, key: str, value: str, *, owner: tuple[int, int] | None = None) -> None:
    """Store `value` under `key` atomically, 0600. Refuses empty or oversized values.

    `owner` (uid, gid): a root caller writing for the service user (`shelldon vault set` while
    the pet is down) gives the vault and the file to it, so the broker can read the key."""
    check_key(key)
    data = value.encode("utf-8")
    if not data.strip():
        raise VaultError("an empty secret is not stored")
    if len(data) > MAX_SECRET_BYTES:
        raise VaultError(f"a secret is at most {MAX_SECRET_BYTES} bytes")
    try:
        layout.ensure_vault(vault)
    except layout.LayoutError as exc:
        raise VaultError(str(exc)) from None
    path = vault / f"{key}{VAULT_SUFFIX}"
    _native.atomic_write(path, data, SECRET_MODE)
    if owner is not None:
        for owned in (vault, path):
            os.chown(owned, *owner, follow_symlinks=False)


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
