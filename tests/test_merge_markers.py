"""No tracked text file holds a merge's conflict markers. Docs are not imported or run, so a
conflict left in one (docs/gate.md once carried one for a whole stop) passes every other check."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Git's three markers at a line's start: ours, the separator between the sides, theirs.
MARKER = re.compile(r"^(<{7} \S|={7}$|>{7} \S)", re.MULTILINE)
TEXT_SUFFIXES = {".md", ".py", ".pyi", ".rs", ".toml", ".sh", ".txt", ".json", ".service", ""}


def markers_in(text: str) -> list[str]:
    return [m.group(0) for m in MARKER.finditer(text)]


# Without git (the README's set-up copies the tree into a clean root that has none): the
# project's own directories and top-level files, which is what git tracks.
OWN_DIRS = ("docs", "python", "rust", "scripts", "tests", "image", ".ci")
SKIPPED_DIRS = {"__pycache__", "out", "target", ".venv"}


def _project_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.iterdir() if p.is_file()]
        for top in OWN_DIRS:
            files += [
                p
                for p in (ROOT / top).rglob("*")
                if p.is_file() and not SKIPPED_DIRS.intersection(p.relative_to(ROOT).parts)
            ]
        return files
    return [ROOT / name for name in listed.split("\0") if name]


def _tracked_text_files() -> list[Path]:
    return [f for f in _project_files() if f.suffix in TEXT_SUFFIXES and f.is_file()]


def test_no_tracked_file_has_conflict_markers() -> None:
    found = []
    for path in _tracked_text_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue  # a binary fixture
        if markers_in(text):
            found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_the_check_sees_a_conflict() -> None:
    conflict = "a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\nb\n"
    assert len(markers_in(conflict)) == 3
    assert markers_in("a heading\n=======\n") == ["======="]  # setext rule of 7: refused too
    assert markers_in("x = '<<<<<<<'\n====== six\n") == []
