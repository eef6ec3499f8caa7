"""The pet's three processes run at -OO (app.Supervisor.start, the card's units), where Python
drops every `assert`: so an assert in the package may only narrow a type for the checker, never
check anything a user, a peer or the model could get wrong (that is an `if` and a refusal)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"


def narrows_only(test: ast.expr) -> bool:
    """`x is not None`, `isinstance(x, T)`, or an `and` of those."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return all(narrows_only(value) for value in test.values)
    if isinstance(test, ast.Compare):
        return (
            len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        )
    if isinstance(test, ast.Call):
        return isinstance(test.func, ast.Name) and test.func.id == "isinstance"
    return False


def asserts_that_check(source: str) -> list[int]:
    """The lines of the asserts in `source` that do more than narrow a type."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Assert) and not narrows_only(node.test)
    ]


def test_asserts_in_the_package_only_narrow_types() -> None:
    found = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := asserts_that_check(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "asserts vanish at -OO: make these an if and a refusal"


def test_a_check_written_as_an_assert_is_found() -> None:
    source = (
        "def f(x, n):\n"
        "    assert x is not None and isinstance(n, int)\n"
        "    assert n < 10, 'too many'\n"
        "    assert x\n"
    )
    assert asserts_that_check(source) == [3, 4]
