"""The update path with the real units, in the check root booted by systemd (a container): a
signed bundle of the root's own release dropped where the FAT partition is mounted is applied by
shelldon-update-fat, its trial (the real shelldon-update-trial unit, the three units restarted)
keeps it, and a tampered and an unsigned copy are refused with /opt/shelldon unchanged; a bundle
whose core cannot start is rolled back by itself. The self-test inside says which (image/overlay/
usr/lib/shelldon/selftest, modes update and update-bad). The qemu boot of the real image proves
the same with power cuts and the watchdog (`just image-test`)."""

from __future__ import annotations

import os
import platform
import shutil
import tarfile
from pathlib import Path

import pytest
from imagetools import NATIVE, need_tools
from imagetools import nspawn_selftest as _boot
from imagetools import selftest_ok as _ok

from shelldon.appliance import bundle

pytestmark = pytest.mark.debian_root

SIGNING_KEY = Path(
    os.environ.get("SHELLDON_UPDATE_SIGNING_KEY")
    or Path(os.environ.get("SHELLDON_IMAGE_CACHE", "/var/cache/shelldon-image"))
    / "update-signing.pem"
)


def _release(check_root: Path) -> tuple[str, Path]:
    name = Path(os.readlink(check_root / "opt/shelldon/current")).name
    return name, check_root / "opt/shelldon/releases" / name


@pytest.fixture
def fat(tmp_path: Path, check_root: Path) -> Path:
    # After check_root: building it (image/layer.sh) makes the signing key on a clean machine, so
    # CI never meets the skip below.
    need_tools("systemd-nspawn")
    if not NATIVE.exists():
        pytest.skip(f"no amd64 build of the extension at {NATIVE}: run `just dev`")
    if not SIGNING_KEY.is_file():
        pytest.skip(f"no signing key at {SIGNING_KEY} (image/layer.sh makes it)")
    d = tmp_path / "fat"
    d.mkdir(mode=0o700)
    return d


def test_an_update_is_applied_kept_and_spoiled_copies_are_refused(check_root, fat, tmp_path):
    base, tree = _release(check_root)
    version = f"{base}.u1"
    made = bundle.make(
        tree, version, platform.machine(), SIGNING_KEY, fat / "shelldon-update.bundle"
    )
    with tarfile.open(made) as tar:
        parts = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    payload = bytearray(parts["payload.tar.gz"])
    payload[len(payload) // 2] ^= 0x01
    bundle.write_container(
        fat / "tampered.bundle", parts["manifest.json"], parts["manifest.sig"], bytes(payload)
    )
    bundle.write_container(
        fat / "unsigned.bundle", parts["manifest.json"], None, parts["payload.tar.gz"]
    )
    report = tmp_path / "report"
    report.mkdir()
    out = _boot(
        check_root, fat, report, "shelldon.selftest=update", f"shelldon.expect_version={version}"
    )
    assert _ok(out, "update kept").startswith(f"kept {base} -> {version}")
    _ok(out, f"running {version}")
    _ok(out, "bundle on FAT set aside")
    _ok(out, "no update left on trial")
    assert "exit 2, /opt/shelldon unchanged" in _ok(out, "tampered bundle refused, nothing written")
    assert "exit 2, /opt/shelldon unchanged" in _ok(out, "unsigned bundle refused, nothing written")
    _ok(out, "say hello")  # (the container fails checks of its own: noatime, the clock file)


def test_an_update_whose_core_cannot_start_is_rolled_back(check_root, fat, tmp_path):
    base, tree = _release(check_root)
    broken = tmp_path / "broken"
    shutil.copytree(tree, broken, symlinks=True)
    server = broken / "lib/shelldon/core/server.py"
    server.write_text(
        server.read_text() + '\nraise SystemExit("a release whose core cannot start")\n'
    )
    bundle.make(
        broken, f"{base}.bad", platform.machine(), SIGNING_KEY, fat / "shelldon-update.bundle"
    )
    report = tmp_path / "report"
    report.mkdir()
    out = _boot(
        check_root, fat, report, "shelldon.selftest=update-bad", f"shelldon.expect_version={base}"
    )
    detail = _ok(out, "update rolled back")
    assert detail.startswith(f"rolled back {base}.bad -> {base}"), detail
    _ok(out, f"running {base}")
    _ok(out, "say hello")  # (the container fails checks of its own: noatime, the clock file)
