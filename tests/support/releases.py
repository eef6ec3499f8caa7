"""A card's /opt/shelldon in a temporary directory, with real keys (openssl) and real bundles.

`release_tree` makes a release as the image lays one out (lib/shelldon/..., VERSION) whose package
reports its version; `runnable` imports the package `current` points at in a fresh interpreter,
as a unit's `python3 -m shelldon` would.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from shelldon.appliance import bundle
from shelldon.appliance.releases import Releases


@dataclass(frozen=True)
class Keys:
    private: Path
    public: Path


def make_keys(where: Path) -> Keys:
    keys = Keys(where / "update-signing.pem", where / "update-key.pem")
    bundle.make_keypair(keys.private, keys.public)
    return keys


def release_tree(where: Path, version: str, *, broken: bool = False, files: int = 3) -> Path:
    tree = where / f"tree-{version}"
    pkg = tree / "lib" / "shelldon"
    pkg.mkdir(parents=True)
    body = f'__version__ = "{version}"\n'
    if broken:
        body += 'raise SystemExit("broken on purpose")\n'
    (pkg / "__init__.py").write_text(body)
    for n in range(files):
        (pkg / f"part{n}.py").write_text(f"PART = {n}\n" + "# padding\n" * 200)
    (tree / "VERSION").write_text(version + "\n")
    return tree


def flashed_card(where: Path, version: str = "1.0") -> Releases:
    """/opt/shelldon as the image leaves it: one release, `current` on it."""
    releases = Releases(where / "opt-shelldon")
    releases.releases_dir.mkdir(parents=True)
    tree = release_tree(where, version)
    tree.rename(releases.release(version))
    releases.point("current", version)
    return releases


def make_bundle(where: Path, keys: Keys, version: str, **tree_args: object) -> Path:
    tree = release_tree(where, version, **tree_args)  # type: ignore[arg-type]
    out = where / f"shelldon-{version}.bundle"
    return bundle.make(tree, version, machine(), keys.private, out)


def machine() -> str:
    import platform

    return platform.machine()


def runnable(releases: Releases) -> str:
    """The version the package under `current` reports, imported by a fresh interpreter."""
    lib = releases.root / "current" / "lib"
    code = (
        f"import sys; sys.path.insert(0, {str(lib)!r}); "
        "import shelldon; print(shelldon.__version__)"
    )
    r = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if r.returncode != 0:
        raise AssertionError(f"current does not run: {r.stderr.strip()[-300:]}")
    return r.stdout.strip()


def tree_listing(root: Path) -> list[tuple[str, int, int]]:
    """Every path under root with its size and mtime: what 'nothing was written' compares."""
    out = []
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        out.append((str(p.relative_to(root)), st.st_size, st.st_mtime_ns))
    return out
