"""Fixtures for the image checks. They run as root (users, owners, chroot) and skip with the
reason when that or a tool is missing. The check root is an amd64 root built by
image/checkroot.sh, the same way as the appliance's; SHELLDON_CHECK_ROOT reuses a built one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from imagetools import IMAGE, NATIVE, need_root, need_tools


@pytest.fixture(scope="session")
def check_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_root()
    if os.environ.get("CI") == "true":
        # CI runs on a clean Debian 12 as root: install the check's host tools (idempotent, quick).
        subprocess.run([str(IMAGE / "deps.sh"), "check"], check=True)
    need_tools("mmdebstrap", "unshare", "chroot")
    # The amd64 extension that `just dev` built goes in too, so the root can run shelldon.
    native = [str(NATIVE)] if NATIVE.exists() else []
    given = os.environ.get("SHELLDON_CHECK_ROOT")
    if given:
        root = Path(given)
        if not (root / "usr/lib/systemd/system/shelldon-core.service").exists():
            subprocess.run([str(IMAGE / "checkroot.sh"), str(root), *native], check=True)
        return root
    root = tmp_path_factory.mktemp("checkroot") / "root"
    subprocess.run([str(IMAGE / "checkroot.sh"), str(root), *native], check=True)
    return root
