"""A product module over 400 lines says why in its opening docstring.

The convention (docs/architecture.md, "Changing it"): a module of `python/shelldon` longer than
400 lines (as `wc -l` counts them) has, in its module docstring, a sentence that starts
"Over 400 lines:" or "Over 400 lines because" and gives the reason in at least six words, e.g.
"Over 400 lines: every SQL statement against history.db lives here, behind the two handles".
A module that plainly does two jobs is split instead.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"
LIMIT = 400
MIN_REASON_WORDS = 6
# At the docstring's start or after a sentence's end; the reason runs to the sentence's end.
REASON = re.compile(r"(?:^|[.!?] )Over 400 lines(?::| because) (?P<reason>.*?)(?:[.!?](?: |$)|$)")


def stated_reason(source: str) -> str | None:
    """The reason an oversize module gives in its opening docstring, or None."""
    docstring = ast.get_docstring(ast.parse(source)) or ""
    match = REASON.search(" ".join(docstring.split()))
    if match is None or len(match["reason"].split()) < MIN_REASON_WORDS:
        return None
    return match["reason"]


def unexplained_oversize(package: Path, limit: int = LIMIT) -> list[str]:
    """`path: N lines` for every module over `limit` lines whose docstring states no reason."""
    found = []
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.count("\n")
        if lines > limit and stated_reason(source) is None:
            found.append(f"{path.relative_to(package)}: {lines} lines")
    return found


def test_every_oversize_product_module_says_why() -> None:
    assert sorted(PACKAGE.rglob("*.py")), PACKAGE
    assert unexplained_oversize(PACKAGE) == []


def test_an_oversize_module_without_a_reason_is_found(tmp_path: Path) -> None:
    body = "x = 1\n" * LIMIT
    (tmp_path / "short.py").write_text('"""Small."""\n' + "x = 1\n" * (LIMIT - 1))
    (tmp_path / "silent.py").write_text('"""Does a lot."""\n' + body)
    (tmp_path / "curt.py").write_text('"""Does a lot.\n\nOver 400 lines: it is big.\n"""\n' + body)
    (tmp_path / "mid.py").write_text(
        '"""Does a lot; Over 400 lines: is not a sentence start."""\n' + body
    )
    (tmp_path / "explained.py").write_text(
        '"""Does a lot.\n\nOver 400 lines: every statement against the one store\n'
        'lives here, behind its two handles.\n"""\n' + body
    )
    (tmp_path / "because.py").write_text(
        '"""Does a lot. Over 400 lines because the branches are one job in one order."""\n' + body
    )
    found = unexplained_oversize(tmp_path)
    assert [line.split(":")[0] for line in found] == ["curt.py", "mid.py", "silent.py"]
    assert f"silent.py: {LIMIT + 1} lines" in found
