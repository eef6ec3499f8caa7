"""Every test or script path the docs, the README, the justfile and the product's docstrings name
exists: a file that moved (the Step 14 layout) leaves no pointer behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = re.compile(r"(?<![\w/.])((?:tests|scripts)/[\w/]+\.py)")
# Paths that are examples in the text, not this repository's (the gate's identifier examples).
EXAMPLES = {"tests/test_parser.py", "tests/test_lexer.py"}


def _sources() -> list[Path]:
    return [
        *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "README.md",
        ROOT / "justfile",
        *sorted((ROOT / "python" / "shelldon").rglob("*.py")),
        *sorted((ROOT / "python" / "shelldon").rglob("*.toml")),
        *sorted((ROOT / "scripts").glob("*.py")),
    ]


def named_paths(text: str) -> set[str]:
    return set(PATH.findall(text)) - EXAMPLES


def test_every_named_test_or_script_exists() -> None:
    missing = sorted(
        f"{source.relative_to(ROOT)}: {path}"
        for source in _sources()
        for path in named_paths(source.read_text())
        if not (ROOT / path).exists()
    )
    assert missing == []


def test_the_check_reads_paths_in_prose() -> None:
    text = "see tests/core/gate/test_gate_screen.py, and (scripts/gate_report.py); not a/tests/x.py"
    assert named_paths(text) == {"tests/core/gate/test_gate_screen.py", "scripts/gate_report.py"}
