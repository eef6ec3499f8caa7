"""core/ is LLM-free: it may not import broker/, worker/ or HTTP code, directly or by string."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"
FORBIDDEN_IN_CORE = ("shelldon.broker", "shelldon.worker", "http", "urllib", "ssl")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_imports_nothing_from_broker_worker_or_http() -> None:
    core_files = sorted((PACKAGE / "core").rglob("*.py"))
    assert core_files, "core/ has no modules"
    offenders = {
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in core_files
        for name in _imports(path)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IN_CORE)
    }
    assert not offenders, sorted(offenders)


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from shelldon.broker.vault import surface_vault\nimport http.client\n")
    assert {"shelldon.broker.vault", "http.client"} <= _imports(sample)
