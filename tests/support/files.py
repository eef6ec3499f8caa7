"""Reading a data root while a pet runs: the pet renames its atomic writes' temp files away while
a scan reads, so a file listed a moment ago may be gone (its content is then read under its final
name). Scans skip what vanished instead of failing on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path


def file_contents(root: Path) -> Iterator[tuple[Path, bytes]]:
    """(path, bytes) for every file under `root` that still exists when it is read."""
    for path in sorted(root.rglob("*")):
        try:
            yield path, path.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
