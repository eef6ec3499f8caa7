"""The data root's directories, created (or checked) at every start by whoever runs core.

The memory tree is 0755 (the worker may read it, nobody else writes it: core is its only writer);
vault/ is 0700 owned by the service uid, chmod'ed after mkdir so the umask cannot loosen it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.core.vault import ensure_vault
from shelldon.paths import DataRoot


def _dir(path: Path, mode: int) -> None:
    path.mkdir(parents=True, exist_ok=True)
    st = path.stat()
    if stat.S_IMODE(st.st_mode) != mode and st.st_uid == os.geteuid():
        os.chmod(path, mode)


def prepare(root: DataRoot) -> None:
    """Create home, memory/, the collections, vault/ (0700), state/ and the run dir. Idempotent."""
    _dir(root.home, 0o755)
    _dir(root.memory, 0o755)
    for collection in COLLECTION_NAMES:
        _dir(root.memory / collection, 0o755)
    ensure_vault(root.vault)
    _dir(root.state, 0o755)
    # The run dir is created if missing but never re-moded: on the appliance it is tmpfiles.d's
    # (root:shelldon 0775, so the root fork-server without CAP_DAC_OVERRIDE can bind in it).
    root.run_dir.mkdir(mode=0o755, parents=True, exist_ok=True)
