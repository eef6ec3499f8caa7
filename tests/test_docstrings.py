"""Every docstring of the package is text UTF-8 can hold. Python 3.13 strips a docstring's
indentation when it compiles it, through UTF-8: a lone surrogate written as an escape in one
("\\ud83d" without its backslash doubled) fails the whole module's compile there, while 3.11
compiles it. The README check's Debian 13 root found one: `./just run` was exit 70."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"
_HAS_DOCSTRING = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _unencodable_docstrings(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            doc = ast.get_docstring(node, clean=False) if isinstance(node, _HAS_DOCSTRING) else None
            if doc is None:
                continue
            try:
                doc.encode("utf-8")
            except UnicodeEncodeError:
                found.append(f"{path.relative_to(root)}: {getattr(node, 'name', '(module)')}")
    return found


def test_every_docstring_is_utf8() -> None:
    assert _unencodable_docstrings(PACKAGE) == []


def test_the_check_finds_a_lone_surrogate_escaped_in_a_docstring(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text('def f():\n    """half an emoji: \\ud83d"""\n')
    (tmp_path / "good.py").write_text('def f():\n    """half an emoji: \\\\ud83d"""\n')
    assert _unencodable_docstrings(tmp_path) == ["bad.py: f"]
