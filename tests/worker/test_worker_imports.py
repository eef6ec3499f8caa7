"""What a worker loads: only what it reads. A reader never imports a writer, the audit log or the
gate, and the fork-server preloads nothing a worker does not use (docs/processes.md).

Each check runs in a fresh interpreter: the test process itself has imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

from shelldon.worker.forkserver import PRELOAD
from support.processes import fresh_python

# Core's write side: none of it may reach a worker's memory (each costs RSS in every fork).
WRITE_SIDE = (
    "shelldon.core.memory.writer",
    "shelldon.core.memory.lifecycle",
    "shelldon.core.memory.audit",
    "shelldon.core.memory.index",
    "shelldon.core.gate",
    "shelldon.core.turn",
    "shelldon.core.server",
)


def _loaded_after(*modules: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('shelldon'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return set(json.loads(out))


def _under(loaded: set[str], package: str) -> list[str]:
    return sorted(m for m in loaded if m == package or m.startswith(package + "."))


def test_the_prompt_and_the_worker_load_no_write_side_of_core() -> None:
    loaded = _loaded_after("shelldon.worker.prompt", "shelldon.worker.turn")
    assert "shelldon.core.memory.reader" in loaded  # the check sees what the worker reads
    assert "shelldon.core.history.store" in loaded
    offenders = [m for package in WRITE_SIDE for m in _under(loaded, package)]
    assert offenders == []


def test_the_fork_server_preloads_only_what_a_worker_loads() -> None:
    worker = _loaded_after("shelldon.worker.turn", "shelldon.worker.prompt")
    preloaded = [name for name in PRELOAD if name.startswith("shelldon.")]
    assert preloaded, "PRELOAD names no shelldon module"
    assert [name for name in preloaded if name not in worker] == []


def test_a_package_face_imports_nothing() -> None:
    """Importing a package of core loads only its face: naming a module is how a caller chooses."""
    for package in ("shelldon.core.memory", "shelldon.core.history", "shelldon.core.dream"):
        loaded = _loaded_after(package)
        assert _under(loaded, package) == [package], package


def test_a_module_imported_during_a_turn_is_named() -> None:
    """The worker's late-import check (forkserver.imported_since) names what was imported after
    the count, and nothing that was there before it."""
    code = (
        "import json, sys\n"
        "from shelldon.worker.forkserver import imported_since\n"
        "before = len(sys.modules)\n"
        "empty = imported_since(before)\n"
        "import colorsys, wave\n"
        "print(json.dumps([empty, imported_since(before)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    empty, late = json.loads(out)
    assert empty == []
    assert "colorsys" in late and "wave" in late
    assert "shelldon.worker.forkserver" not in late and "json" not in late


def test_the_fork_server_loads_no_zone_database() -> None:
    """Core sends each worker the owner's clock line (wire.SpawnTurn.clock_line): neither the
    preload nor its warm-up loads zoneinfo (~0.3 MB of the fork-server with sysconfig's data)."""
    code = (
        "import sys\n"
        "from shelldon.worker import forkserver\n"
        "forkserver.preload(freeze=False)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('zoneinfo', 'sysconfig'))\n"
        "    or m == 'shelldon.core.proactive.owner_time'))\n"
    )
    assert fresh_python(code) == "[]"
