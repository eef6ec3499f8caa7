"""An update bundle: a signed release of shelldon, made at build time, verified on the card.

The file is an uncompressed tar with exactly three members, in this order:
  manifest.json   {"format", "version", "arch", "payload_sha256", "payload_size", "made"}
  manifest.sig    the Ed25519 signature of manifest.json's bytes (64 bytes)
  payload.tar.gz  the release tree: lib/shelldon/... (byte-compiled), VERSION, REVISION

`verify` reads the bundle without writing anything: the signature is checked with
`openssl pkeyutl -verify` (openssl is on the card: ca-certificates needs it) against the public key
the image carries (the two small files in /run, a tmpfs: openssl's one-shot Ed25519 wants files),
then the payload is hashed
against the signed digest. Only then does `extract` write, into a staging directory the caller
names, every file fsync'd. The payload's members are checked on the way: regular files and
directories under lib/ (plus VERSION, REVISION), no links, no absolute or `..` paths, bounded size.

Standard library only: the card's updater runs this module from /usr/lib/shelldon/updater, outside
every release, with `python3 -I -S` (docs/image.md, "Updates").
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from shelldon.appliance.releases import RELEASE_ID, BundleError, fsync_dir

__all__ = [
    "BundleError", "Manifest", "extract", "make", "make_keypair", "verify", "write_container",
]  # fmt: skip

FORMAT = "shelldon-bundle/1"
MEMBERS = ("manifest.json", "manifest.sig", "payload.tar.gz")
MAX_MANIFEST = 64 * 1024
SIGNATURE_BYTES = 64  # Ed25519
MAX_PAYLOAD = 64 * 1024 * 1024  # compressed; today's release is ~3 MB
MAX_TREE = 256 * 1024 * 1024  # extracted
TOP_FILES = frozenset({"VERSION", "REVISION"})
CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Manifest:
    version: str
    arch: str
    payload_sha256: str
    payload_size: int
    made: str

    @classmethod
    def parse(cls, raw: bytes) -> Manifest:
        try:
            data = json.loads(raw)
        except ValueError:
            raise BundleError("the manifest is not JSON") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BundleError(f"not a {FORMAT} manifest")
        try:
            manifest = cls(
                version=str(data["version"]),
                arch=str(data["arch"]),
                payload_sha256=str(data["payload_sha256"]),
                payload_size=int(data["payload_size"]),
                made=str(data.get("made", "")),
            )
        except (KeyError, TypeError, ValueError):
            raise BundleError("the manifest lacks a field") from None
        if not RELEASE_ID.match(manifest.version):
            raise BundleError(f"the manifest's version {manifest.version!r} is not a release name")
        return manifest


def scratch_dir() -> str | None:
    """Where the manifest and signature go for openssl (it needs files for a one-shot Ed25519):
    /run, a tmpfs, when it can be written (the card's root is not touched), else the default."""
    return "/run" if os.access("/run", os.W_OK) else None


def _signature_ok(public_key: Path, message: bytes, signature: bytes) -> bool:
    """openssl's verdict on `signature` over `message`."""
    with tempfile.TemporaryDirectory(prefix="shelldon-verify-", dir=scratch_dir()) as tmp:
        msg, sig = Path(tmp) / "manifest.json", Path(tmp) / "manifest.sig"
        msg.write_bytes(message)
        sig.write_bytes(signature)
        proc = subprocess.run(
            ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", str(public_key), "-rawin",
             "-in", str(msg), "-sigfile", str(sig)],
            capture_output=True, check=False,
        )  # fmt: skip
    return proc.returncode == 0


def verify(bundle: Path, public_key: Path, arch: str) -> Manifest:
    """The bundle's manifest if its signature, digest and architecture hold; BundleError if not.
    Reads only."""
    if not public_key.is_file():
        raise BundleError(f"no update key at {public_key}: this card takes no updates")
    try:
        tar = tarfile.open(bundle, mode="r:")  # noqa: SIM115 (its errors are the refusal's)
    except (tarfile.TarError, OSError) as exc:
        raise BundleError(f"{bundle} is not a bundle ({exc})") from None
    with tar:
        try:
            members = tar.getmembers()
        except tarfile.TarError as exc:
            raise BundleError(f"{bundle} is a damaged bundle ({exc})") from None
        names = tuple(m.name for m in members)
        if "manifest.sig" not in names:
            raise BundleError("the bundle is not signed")
        if names != MEMBERS or not all(m.isreg() for m in members):
            raise BundleError(f"the bundle holds {list(names)}, not {list(MEMBERS)}")
        raw, sig, payload = members
        if raw.size > MAX_MANIFEST or sig.size != SIGNATURE_BYTES:
            raise BundleError("the bundle's manifest or signature has the wrong size")
        raw_bytes = _read(tar, raw)
        if not _signature_ok(public_key, raw_bytes, _read(tar, sig)):
            raise BundleError("the bundle's signature does not verify with this card's key")
        manifest = Manifest.parse(raw_bytes)
        if manifest.arch != arch:
            raise BundleError(f"the bundle is for {manifest.arch}, this card is {arch}")
        if payload.size != manifest.payload_size or payload.size > MAX_PAYLOAD:
            raise BundleError("the payload's size is not the signed one")
        digest = hashlib.sha256()
        stream = tar.extractfile(payload)
        assert stream is not None  # a regular member
        for chunk in iter(lambda: stream.read(CHUNK), b""):
            digest.update(chunk)
        if digest.hexdigest() != manifest.payload_sha256:
            raise BundleError("the payload is not the signed one (tampered or damaged)")
    return manifest


def _read(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    stream = tar.extractfile(member)
    assert stream is not None
    return stream.read()


def extract(bundle: Path, manifest: Manifest, dest: Path) -> int:
    """Write the verified payload's tree into `dest` (made here, must not exist), every file and
    directory fsync'd. Returns the bytes written. Hashes again while reading: the file could have
    changed since `verify` (the FAT partition is the owner's)."""
    dest.mkdir(mode=0o755)
    written = 0
    digest = hashlib.sha256()
    with tarfile.open(bundle, mode="r:") as outer:
        payload = outer.getmember(MEMBERS[2])
        stream = outer.extractfile(payload)
        assert stream is not None
        hashing = _HashingReader(stream, digest)
        with tarfile.open(fileobj=hashing, mode="r|gz") as inner:
            dirs = [dest]
            for member in inner:
                target = dest / _member_path(member)
                if member.isdir():
                    target.mkdir(mode=0o755, exist_ok=True)
                    dirs.append(target)
                    continue
                written += member.size
                if written > MAX_TREE:
                    raise BundleError("the release tree is larger than a release can be")
                source = inner.extractfile(member)
                assert source is not None
                target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
                mode = 0o755 if member.mode & 0o111 else 0o644
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                with os.fdopen(fd, "wb") as out:
                    shutil.copyfileobj(source, out, CHUNK)
                    out.flush()
                    os.fsync(out.fileno())
                os.utime(target, (member.mtime, member.mtime))  # the .pyc files check it
            hashing.drain()
        if digest.hexdigest() != manifest.payload_sha256:
            raise BundleError("the payload changed while it was written (the file was replaced)")
    for d in {*dirs, *(p for p in dest.rglob("*") if p.is_dir())}:
        fsync_dir(d)
    if not (dest / "lib" / "shelldon" / "__init__.py").is_file():
        raise BundleError("the release holds no lib/shelldon package")
    return written


def _member_path(member: tarfile.TarInfo) -> PurePosixPath:
    path = PurePosixPath(member.name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise BundleError(f"the payload names {member.name!r}, outside the release")
    parts = path.parts[1:] if path.parts[0] == "." else path.parts
    if not parts:
        raise BundleError("the payload names its own root")
    path = PurePosixPath(*parts)
    if not (member.isreg() or member.isdir()):
        raise BundleError(f"the payload's {member.name!r} is not a file or a directory")
    if parts[0] != "lib" and not (len(parts) == 1 and parts[0] in TOP_FILES):
        raise BundleError(f"the payload's {member.name!r} is not part of a release")
    return path


class _HashingReader(io.RawIOBase):
    """A read-through that hashes what the gzip reader takes."""

    def __init__(self, inner: IO[bytes], digest: Any) -> None:
        self.inner, self.digest = inner, digest

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(size)
        self.digest.update(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def drain(self) -> None:
        """Hash what the tar reader left unread (its end-of-archive padding)."""
        for _ in iter(lambda: self.read(CHUNK), b""):
            pass


def make(release_dir: Path, version: str, arch: str, private_key: Path, out: Path) -> Path:
    """Build a bundle of `release_dir` signed with `private_key` (an Ed25519 PEM). Build side."""
    if not RELEASE_ID.match(version):
        raise BundleError(f"{version!r} is not a release name")
    if not (release_dir / "lib" / "shelldon" / "__init__.py").is_file():
        raise BundleError(f"{release_dir} holds no lib/shelldon package")
    payload = io.BytesIO()
    with tarfile.open(fileobj=payload, mode="w:gz", compresslevel=9) as tar:
        for top in ("lib", "VERSION", "REVISION"):
            if (release_dir / top).exists():
                tar.add(release_dir / top, arcname=top, filter=_as_root)
    data = payload.getvalue()
    manifest = json.dumps(
        {"format": FORMAT, "version": version, "arch": arch,
         "payload_sha256": hashlib.sha256(data).hexdigest(), "payload_size": len(data),
         "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        indent=1,
    ).encode()  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="shelldon-sign-") as tmp:
        (Path(tmp) / "manifest.json").write_bytes(manifest)
        signed = subprocess.run(
            ["openssl", "pkeyutl", "-sign", "-inkey", str(private_key), "-rawin",
             "-in", str(Path(tmp) / "manifest.json")],
            capture_output=True, check=False,
        )  # fmt: skip
    if signed.returncode != 0 or len(signed.stdout) != SIGNATURE_BYTES:
        raise BundleError(f"openssl could not sign: {signed.stderr.decode(errors='replace')}")
    write_container(out, manifest, signed.stdout, data)
    return out


def write_container(out: Path, manifest: bytes, signature: bytes | None, payload: bytes) -> None:
    """The outer tar (a None signature leaves it out: the tests' unsigned bundle)."""
    tmp = out.with_name(out.name + ".part")
    with tarfile.open(tmp, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        parts = [
            ("manifest.json", manifest),
            ("manifest.sig", signature),
            ("payload.tar.gz", payload),
        ]
        for name, blob in parts:
            if blob is None:
                continue
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(blob), 0o644, int(time.time())
            tar.addfile(info, io.BytesIO(blob))
    os.replace(tmp, out)


def _as_root(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    if "__pycache__" in info.name and info.isdir() is False and not info.name.endswith(".pyc"):
        return None
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def make_keypair(private_key: Path, public_key: Path) -> None:
    """An Ed25519 key pair (build time): the private half 0600, the public half for the card."""
    private_key.parent.mkdir(parents=True, exist_ok=True)
    old = os.umask(0o077)
    try:
        subprocess.run(
            ["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(private_key)],
            check=True, capture_output=True,
        )  # fmt: skip
    finally:
        os.umask(old)
    subprocess.run(
        ["openssl", "pkey", "-in", str(private_key), "-pubout", "-out", str(public_key)],
        check=True, capture_output=True,
    )  # fmt: skip
