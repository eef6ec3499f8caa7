"""docs/architecture.md cannot drift: its floor plan is the rendering of the layering test's tables
and the modules' own docstrings, and every module, file or test it names exists."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from support.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
FILE_SUFFIXES = {"sock", "md", "db", "toml", "py", "json", "jsonl", "pid", "lock"}
ROOMS = ("core", "broker", "worker", "contracts", "transport", "cli", "agent", "appliance")


def test_the_floor_plan_is_the_rendering_of_the_code() -> None:
    architecture = load_script("architecture")
    page = DOC.read_text()
    assert architecture.current(page) == architecture.render(), (
        "run: .venv/bin/python scripts/architecture.py --write"
    )


def _resolves(dotted: str) -> bool:
    """A module, or an attribute of the longest module the name starts with."""
    name = dotted if dotted.startswith("shelldon") else f"shelldon.{dotted}"
    parts = name.split(".")
    for cut in range(len(parts), 1, -1):
        module = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            continue
        rest = parts[cut:]
        if not rest:
            return True
        obj: object = importlib.import_module(module)
        for attr in rest:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_module_the_page_names_exists() -> None:
    page = DOC.read_text()
    rooms = "|".join(ROOMS)
    found = re.findall(rf"`((?:shelldon\.)?(?:{rooms})(?:\.\w+)+)", page)
    named = {n for n in found if n.rsplit(".", 1)[1] not in FILE_SUFFIXES}  # core.sock is a file
    assert len(named) > 40, "the check found too few names to be reading the page"
    assert sorted(n for n in named if not _resolves(n)) == []


def test_every_path_the_page_names_exists() -> None:
    page = DOC.read_text()
    paths = set(
        re.findall(r"`?((?:tests|scripts|docs|image|rust)/[\w./-]+\.(?:py|md|rs|toml))", page)
    )
    assert paths, "the check found no path to read"
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_the_check_can_fail() -> None:
    assert _resolves("core.gate.decide") and _resolves("core.memory.writer.MemoryWriter")
    assert not _resolves("core.turns") and not _resolves("core.memory.writer.NoSuchThing")
