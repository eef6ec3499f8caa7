"""`surface_vault`: the one function in the code base that reads a vault value.

It runs in the broker (service uid). The worker cannot reach it (no import path is served to the
worker, and on Linux the kernel refuses the worker uid any access to vault/). Keys are validated
and the file is opened with O_NOFOLLOW under the vault directory, so no key can leave it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from shelldon.core.vault import VAULT_SUFFIX, VaultError, check_key
from shelldon.paths import DataRoot

log = logging.getLogger("shelldon.broker.vault")

MAX_SECRET_BYTES = 64 * 1024


def surface_vault(root: DataRoot | Path, key: str) -> str | None:
    """Read `memory/vault/<key>.md` of the data root. None if absent; VaultError on a bad key."""
    check_key(key)
    vault = root.vault if isinstance(root, DataRoot) else DataRoot(Path(root)).vault
    path = vault / f"{key}{VAULT_SUFFIX}"
    if path.parent != vault:  # belt and braces: the key check already makes this impossible
        raise VaultError("vault key leaves the vault")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_SECRET_BYTES + 1)
    if len(data) > MAX_SECRET_BYTES:
        raise VaultError(f"vault entry {key!r} is larger than {MAX_SECRET_BYTES} bytes")
    return data.decode("utf-8").strip()
