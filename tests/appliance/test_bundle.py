"""appliance.bundle: a real Ed25519 key pair (openssl), real bundles; refused ones write nothing."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from shelldon.appliance import bundle
from shelldon.appliance.bundle import BundleError
from support.releases import machine, make_bundle, make_keys, release_tree, tree_listing


def test_a_signed_bundle_verifies_and_extracts_the_release(tmp_path: Path) -> None:
    keys = make_keys(tmp_path)
    made = make_bundle(tmp_path, keys, "2.0")
    manifest = bundle.verify(made, keys.public, machine())
    assert manifest.version == "2.0"
    dest = tmp_path / "staged"
    written = bundle.extract(made, manifest, dest)
    assert (dest / "lib" / "shelldon" / "__init__.py").read_text() == '__version__ = "2.0"\n'
    assert (dest / "VERSION").read_text() == "2.0\n"
    assert written == sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())


def _members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]


def test_a_payload_changed_after_signing_is_refused(tmp_path: Path) -> None:
    keys = make_keys(tmp_path)
    parts = _members(make_bundle(tmp_path, keys, "2.0"))
    payload = bytearray(parts["payload.tar.gz"])
    payload[len(payload) // 2] ^= 0x01
    tampered = tmp_path / "tampered.bundle"
    bundle.write_container(tampered, parts["manifest.json"], parts["manifest.sig"], bytes(payload))
    with pytest.raises(BundleError, match="not the signed one"):
        bundle.verify(tampered, keys.public, machine())


def test_a_manifest_changed_after_signing_is_refused(tmp_path: Path) -> None:
    keys = make_keys(tmp_path)
    parts = _members(make_bundle(tmp_path, keys, "2.0"))
    manifest = parts["manifest.json"].replace(b'"2.0"', b'"9.0"')
    tampered = tmp_path / "tampered.bundle"
    bundle.write_container(tampered, manifest, parts["manifest.sig"], parts["payload.tar.gz"])
    with pytest.raises(BundleError, match="signature does not verify"):
        bundle.verify(tampered, keys.public, machine())


def test_unsigned_and_foreign_key_bundles_are_refused(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "ours")
    theirs = make_keys(tmp_path / "theirs")
    parts = _members(make_bundle(tmp_path, keys, "2.0"))
    unsigned = tmp_path / "unsigned.bundle"
    bundle.write_container(unsigned, parts["manifest.json"], None, parts["payload.tar.gz"])
    with pytest.raises(BundleError, match="not signed"):
        bundle.verify(unsigned, keys.public, machine())
    foreign = make_bundle(tmp_path / "theirs", theirs, "2.1")
    with pytest.raises(BundleError, match="signature does not verify"):
        bundle.verify(foreign, keys.public, machine())
    with pytest.raises(BundleError, match="is for"):
        bundle.verify(make_bundle(tmp_path, keys, "2.2"), keys.public, "sparc64")
    not_a_tar = tmp_path / "junk.bundle"
    not_a_tar.write_bytes(b"\x00junk" * 100)
    with pytest.raises(BundleError):
        bundle.verify(not_a_tar, keys.public, machine())


def _signed_payload(tmp_path: Path, keys: object, payload: bytes, version: str = "3.0") -> Path:
    import hashlib
    import json
    import subprocess

    manifest = json.dumps(
        {"format": bundle.FORMAT, "version": version, "arch": machine(),
         "payload_sha256": hashlib.sha256(payload).hexdigest(), "payload_size": len(payload)}
    ).encode()  # fmt: skip
    (tmp_path / "m.json").write_bytes(manifest)
    sig = subprocess.run(
        ["openssl", "pkeyutl", "-sign", "-inkey", str(keys.private), "-rawin",  # type: ignore[attr-defined]
         "-in", str(tmp_path / "m.json")],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    out = tmp_path / "crafted.bundle"
    bundle.write_container(out, manifest, sig, payload)
    return out


@pytest.mark.parametrize("name", ["../escape.py", "/etc/passwd", "etc/shadow", "lib/link"])
def test_a_signed_payload_naming_a_path_outside_the_release_writes_nothing_there(
    tmp_path: Path, name: str
) -> None:
    """Even a signed bundle is held to the release's shape (a key can leak; a build can err)."""
    keys = make_keys(tmp_path)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        ok = tarfile.TarInfo("lib/shelldon/__init__.py")
        ok.size = 0
        tar.addfile(ok, io.BytesIO(b""))
        bad = tarfile.TarInfo(name)
        if name == "lib/link":
            bad.type, bad.linkname = tarfile.SYMTYPE, "/etc/passwd"
        else:
            bad.size = 4
        tar.addfile(bad, io.BytesIO(b"evil"))
    crafted = _signed_payload(tmp_path, keys, buf.getvalue())
    manifest = bundle.verify(crafted, keys.public, machine())
    before = tree_listing(tmp_path)
    with pytest.raises(BundleError):
        bundle.extract(crafted, manifest, tmp_path / "staged")
    outside = [p for p in tree_listing(tmp_path) if p not in before]
    assert all(p[0].startswith("staged") for p in outside), outside


def test_make_refuses_a_tree_without_the_package(tmp_path: Path) -> None:
    keys = make_keys(tmp_path)
    tree = release_tree(tmp_path, "4.0")
    (tree / "lib" / "shelldon" / "__init__.py").unlink()
    with pytest.raises(BundleError, match="no lib/shelldon"):
        bundle.make(tree, "4.0", machine(), keys.private, tmp_path / "x.bundle")
    with pytest.raises(BundleError, match="not a release name"):
        bundle.make(tree, "../4", machine(), keys.private, tmp_path / "y.bundle")
