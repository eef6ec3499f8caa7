"""The package's shape: no import circle, no import against the layers, no import in a string.

Layers, lowest first; each holds one or more rooms (a subpackage or a top-level module). A module
may import within its own room and from the layers below; never another room of its own layer, never
a layer above:

    shelldon (the package itself: __version__)
    _native | digests      (the native module | sha256, tokens and a compare without OpenSSL)
    contracts
    paths | sdnotify | clock | frames  (leaves: the data root's layout | systemd's notify protocol |
                           time | the sockets' frames and connect, no vocabulary)
    config | ipc           (shelldon.toml, over paths | the sockets' framing, over contracts)
    core
    worker | broker        (neither imports the other; each imports only its named core modules)
    transport | appliance | agent  (how the owner talks to the pet | the card's doctor checks |
                           project memory for coding agents, over MCP)
    app                    (the composition root: starts the processes, opens the terminal)
    cli
    __main__

A transport that runs inside the broker process is started there by the process's entry (`shelldon
broker` in cli, above transport), so broker/ never imports transport/.

What counts as an edge: every `import` and `from … import` naming a shelldon module, wherever it
stands: at the top, under `if TYPE_CHECKING:`, or inside a function. A function-local import
decides when a module is loaded, not what depends on what; a circle closed through one still ties
both modules together, and an upward import inside a function is still an upward import.

`importlib.import_module` / `__import__` are not allowed in the product: a dependency named in a
string is an edge no reader (and no check) sees. The one exception is the fork-server's preload
list, which is data (module names a worker needs warm); each of its names must exist.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"

# Inside core, lowest first: every room imports only rooms below it (the floor plan in
# docs/architecture.md is rendered from these tables: `scripts/architecture.py --write`).
CORE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("shelldon.core",),  # the package face: a docstring, no imports
    ("shelldon.core.words", "shelldon.core.reasons", "shelldon.core.status"),
    (
        "shelldon.core.owner_rules",
    ),  # how a rule is said: core captures it, the offline brain hears it
    ("shelldon.core.outcome",),
    ("shelldon.core.gate",),
    ("shelldon.core.storage", "shelldon.core.rest"),
    ("shelldon.core.memory", "shelldon.core.vault", "shelldon.core.runner"),
    ("shelldon.core.retrieval",),
    ("shelldon.core.history",),
    ("shelldon.core.stores", "shelldon.core.upkeep"),
    ("shelldon.core.telegram",),
    ("shelldon.core.proactive",),
    ("shelldon.core.learning",),
    ("shelldon.core.dream",),
    ("shelldon.core.turn",),
    ("shelldon.core.commands",),
    ("shelldon.core.server",),
)
LAYERS: tuple[tuple[str, ...], ...] = (
    ("shelldon",),
    ("shelldon._native", "shelldon.digests"),
    ("shelldon.contracts",),
    ("shelldon.paths", "shelldon.sdnotify", "shelldon.clock", "shelldon.frames"),
    ("shelldon.config", "shelldon.ipc"),
    ("shelldon.daemon", "shelldon.quiet"),  # the servers' shared start-up and quiet spell
    *CORE_LAYERS,
    ("shelldon.worker", "shelldon.broker"),
    ("shelldon.transport", "shelldon.appliance", "shelldon.agent"),
    ("shelldon.app",),
    ("shelldon.cli",),
    ("shelldon.__main__",),
)
# Rooms that hold only the module of their own name: a new module directly under the package or
# core is in no room until it is placed in a layer.
EXACT_ROOMS = frozenset({"shelldon", "shelldon.core"})
# The core modules worker/ and broker/ may import (a name covers its submodules). Anything else in
# core is core's own business: the stores' writers, the turn, the scheduler.
CORE_FOR: Mapping[str, tuple[str, ...]] = {
    # What a worker reads, and nothing that writes: history read-only (the fork-server's warm-up
    # makes a throwaway store with HistoryStore, in the parent), the curated tree's reader and
    # archive search, ranked retrieval, "my sister" <-> Ana, the owner's local time.
    "shelldon.worker": (
        "shelldon.core.history.store",
        "shelldon.core.memory.reader",
        "shelldon.core.memory.archive",
        "shelldon.core.retrieval.rank",
        "shelldon.core.retrieval.names",
        "shelldon.core.proactive.owner_time",
    ),
    # vault: the broker's one vault read; gate: the offline dream screens what it proposes; words:
    # the offline brain's stop words and stemmer; owner_rules: the offline brain says which rule it
    # heard (core captures it).
    "shelldon.broker": (
        "shelldon.core.vault",
        "shelldon.core.gate",
        "shelldon.core.words",
        "shelldon.core.owner_rules",
    ),
}
# (file, function, argument) where a dynamic import is the design: the fork-server's loop over its
# PRELOAD names (checked to exist below).
DYNAMIC_IMPORT_ALLOWED = {("worker/forkserver.py", "preload", "name")}
FORBIDDEN_IN_CORE = ("http", "urllib", "ssl")  # core is LLM-free: no HTTP client in it


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    local: bool  # inside a function

    def __str__(self) -> str:
        where = " (inside a function)" if self.local else ""
        return f"{self.source}:{self.line} imports {self.target}{where}"


@dataclass(frozen=True)
class DynamicImport:
    path: str  # relative to the package directory
    function: str | None
    line: int
    argument: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports by name: {self.argument}"


@dataclass
class Scan:
    modules: set[str]
    edges: list[Edge]
    external: dict[str, set[str]]  # module -> non-shelldon modules it imports
    dynamic: list[DynamicImport]


def module_name(package: Path, path: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(
    node: ast.Import | ast.ImportFrom, source: str, is_package: bool, modules: set[str]
) -> Iterator[str]:
    """The modules an import statement names: `from a import b` is a.b when b is a module."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    base = node.module or ""
    if node.level:
        anchor = source.split(".") if is_package else source.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        yield candidate if candidate in modules else base


class _Visitor(ast.NodeVisitor):
    def __init__(self, source: str, relative: str, is_package: bool, modules: set[str]) -> None:
        self.source = source
        self.relative = relative
        self.is_package = is_package
        self.modules = modules
        self.functions: list[str] = []
        self.imports: list[tuple[str, int, bool]] = []
        self.dynamic: list[DynamicImport] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        for name in dict.fromkeys(_resolve(node, self.source, self.is_package, self.modules)):
            self.imports.append((name, node.lineno, bool(self.functions)))

    visit_Import = _import
    visit_ImportFrom = _import

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if called in ("import_module", "__import__"):
            argument = ast.unparse(node.args[0]) if node.args else "?"
            function = self.functions[-1] if self.functions else None
            self.dynamic.append(DynamicImport(self.relative, function, node.lineno, argument))
        self.generic_visit(node)


def scan(package: Path) -> Scan:
    """Every module under `package` (a directory named like the package), and what it imports."""
    files = sorted(package.rglob("*.py"))
    modules = {module_name(package, p) for p in (*files, *package.rglob("*.pyi"))}
    root = package.name
    result = Scan(modules, [], {}, [])
    for path in files:
        source = module_name(package, path)
        relative = path.relative_to(package).as_posix()
        visitor = _Visitor(source, relative, path.name == "__init__.py", modules)
        visitor.visit(ast.parse(path.read_text(), filename=str(path)))
        result.dynamic.extend(visitor.dynamic)
        for name, line, local in visitor.imports:
            if name == root or name.startswith(root + "."):
                result.edges.append(Edge(source, _known(name, modules), line, local))
            else:
                result.external.setdefault(source, set()).add(name)
    return result


def _known(name: str, modules: set[str]) -> str:
    """`import a.b.c` of a name that is not a module (an attribute): its longest module prefix."""
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def circles(edges: Iterable[Edge]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a module importing itself):
    each one is an import circle. Tarjan's algorithm."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def room_of(module: str) -> tuple[int, str] | None:
    """(layer, room) for a module: the longest room name it is, or lies under."""
    best: tuple[int, str] | None = None
    for layer, rooms in enumerate(LAYERS):
        for room in rooms:
            inside = module == room or (room not in EXACT_ROOMS and module.startswith(room + "."))
            if inside and (best is None or len(room) > len(best[1])):
                best = (layer, room)
    return best


def in_core(room: str) -> bool:
    return room == "shelldon.core" or room.startswith("shelldon.core.")


def layer_violations(scan_result: Scan) -> list[str]:
    found = [
        f"{module} is in no layer: place it in LAYERS"
        for module in sorted(scan_result.modules)
        if room_of(module) is None
    ]
    for edge in scan_result.edges:
        source, target = room_of(edge.source), room_of(edge.target)
        if source is None or target is None or source[1] == target[1]:
            continue
        if target[0] >= source[0]:
            what = "a sibling" if target[0] == source[0] else "a higher layer"
            found.append(f"{edge}: {what} ({target[1]} from {source[1]})")
        elif in_core(target[1]) and source[1] in CORE_FOR:
            named = CORE_FOR[source[1]]
            if not any(edge.target == n or edge.target.startswith(n + ".") for n in named):
                found.append(f"{edge}: {source[1]} may import only {', '.join(named)} from core")
    return found


def string_imports(scan_result: Scan) -> list[str]:
    return [
        str(d)
        for d in scan_result.dynamic
        if (d.path, d.function, d.argument) not in DYNAMIC_IMPORT_ALLOWED
    ]


# --- the product ---------------------------------------------------------------------------------


def test_the_scan_sees_the_package() -> None:
    result = scan(PACKAGE)
    assert {"shelldon.core.memory", "shelldon.cli", "shelldon._native"} <= result.modules
    assert len(result.edges) > 100, "the scan found too few imports to be reading the package"
    assert any(e.local for e in result.edges), "function-local imports must be counted"


def test_no_import_circle() -> None:
    assert circles(scan(PACKAGE).edges) == []


def test_every_import_respects_the_layers() -> None:
    assert layer_violations(scan(PACKAGE)) == []


def test_no_module_is_imported_by_a_name_in_a_string() -> None:
    assert string_imports(scan(PACKAGE)) == []


def test_the_fork_servers_preload_names_modules_that_exist() -> None:
    from shelldon.worker.forkserver import PRELOAD

    shelldon_names = [name for name in PRELOAD if name.startswith("shelldon.")]
    assert shelldon_names, "PRELOAD names no shelldon module"
    missing = [name for name in PRELOAD if importlib.util.find_spec(name) is None]
    assert missing == []


def test_core_imports_no_http_client() -> None:
    external = scan(PACKAGE).external
    offenders = {
        f"{module} imports {name}"
        for module, names in external.items()
        if in_core((room_of(module) or (0, ""))[1])
        for name in names
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IN_CORE)
    }
    assert not offenders, sorted(offenders)


# --- the checks can fail: a synthetic package with each fault -----------------------------------


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    package = tmp_path / "shelldon"
    for name, text in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(package).parents:
            (package / parent / "__init__.py").touch()
        path.write_text(text)
    return package


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {
                "core/a.py": "from shelldon.core import b\n",
                "core/b.py": (
                    "def later():\n    from shelldon.core.a import thing\n    return thing\n"
                ),
                "core/c.py": "from shelldon.core import a\n",
            },
            [["shelldon.core.a", "shelldon.core.b"]],
        ),
        (
            {
                "broker/providers/__init__.py": "from .openai import OpenAI\n",
                "broker/providers/openai.py": "from shelldon.broker.providers import helper\n",
            },
            [["shelldon.broker.providers", "shelldon.broker.providers.openai"]],
        ),
    ],
    ids=["through-a-function-local-import", "through-a-package-init-and-a-relative-import"],
)
def test_a_circle_is_found(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    assert circles(scan(_package(tmp_path, files)).edges) == expected


def test_imports_against_the_layers_are_found(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "core/memory/reader.py": "from shelldon.core.history import store\n",
            "core/history/store.py": "",
            "core/vault.py": "",
            "core/loose.py": "",
            "core/turn/apply.py": "def f():\n    from shelldon.cli.common import data_root\n",
            "broker/server.py": "from shelldon.worker import drop\nimport shelldon.core.turn\n",
            "broker/vault.py": "from shelldon.core.vault import read\n",
            "worker/drop.py": "from shelldon.core import memory\nfrom shelldon import config\n",
            "transport/terminal.py": "from shelldon.app import run\n",
            "cli/common.py": "from shelldon.paths import DataRoot\n",
            "config.py": "from shelldon.paths import DataRoot\n",
            "paths.py": "",
            "app.py": "",
            "gadget.py": "",
        },
    )
    found = layer_violations(scan(package))
    assert found == [
        "shelldon.core.loose is in no layer: place it in LAYERS",
        "shelldon.gadget is in no layer: place it in LAYERS",
        "shelldon.broker.server:1 imports shelldon.worker.drop: a sibling "
        "(shelldon.worker from shelldon.broker)",
        "shelldon.broker.server:2 imports shelldon.core.turn: shelldon.broker may import only "
        + ", ".join(CORE_FOR["shelldon.broker"])
        + " from core",
        "shelldon.core.memory.reader:1 imports shelldon.core.history.store: a higher layer "
        "(shelldon.core.history from shelldon.core.memory)",
        "shelldon.core.turn.apply:2 imports shelldon.cli.common (inside a function): a higher "
        "layer (shelldon.cli from shelldon.core.turn)",
        "shelldon.transport.terminal:1 imports shelldon.app: a higher layer "
        "(shelldon.app from shelldon.transport)",
        "shelldon.worker.drop:1 imports shelldon.core.memory: shelldon.worker may import only "
        + ", ".join(CORE_FOR["shelldon.worker"])
        + " from core",
    ]


def test_imports_by_name_are_found_except_the_preload_list(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "cli/__init__.py": (
                "import importlib\n\ndef build():\n"
                "    return importlib.import_module('shelldon.cli.chat_cmd')\n"
            ),
            "broker/chain.py": (
                "from importlib import import_module\n\ndef pick(name):\n"
                "    return import_module(name)\n"
            ),
            "app.py": "shelldon = __import__('shelldon.core')\n",
            "worker/forkserver.py": (
                "import importlib\nPRELOAD = ('json',)\n\ndef preload():\n"
                "    for name in PRELOAD:\n        importlib.import_module(name)\n"
                "    importlib.import_module('shelldon.worker.turn')\n"
            ),
        },
    )
    assert string_imports(scan(package)) == [
        "app.py:1 imports by name: 'shelldon.core'",
        "broker/chain.py:4 imports by name: name",
        "cli/__init__.py:4 imports by name: 'shelldon.cli.chat_cmd'",
        "worker/forkserver.py:7 imports by name: 'shelldon.worker.turn'",
    ]
