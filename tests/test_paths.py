"""paths.py is the one home of every name under the data root: a module that names a file of its
own (a constant like `STATE = "scheduler.json"`) is found here, and the root derives from one
place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from shelldon import paths
from shelldon.paths import DataRoot

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "shelldon"
# A string that names a file core keeps: sqlite stores, state, logs, locks, marks.
FILE_NAME = re.compile(r"[\w.-]*\.(?:db|json|jsonl|lock|boot|pid)")
# Not a file under the data root: what a backup archive holds inside itself; the suffix every lock
# has (the rule layout's modes follow, not a file).
ELSEWHERE = {("core/upkeep/backup.py", "MANIFEST"), ("core/storage/layout.py", "LOCK_SUFFIX")}


def _named_files(path: Path) -> list[tuple[str, str]]:
    found = []
    for node in ast.parse(path.read_text()).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if (
            isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and FILE_NAME.fullmatch(value.value)
        ):
            found += [(t.id, value.value) for t in targets if isinstance(t, ast.Name)]
    return found


def test_no_module_but_paths_names_a_file_under_the_data_root() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative == "paths.py":
            continue
        offenders += [
            f"{relative}: {name} = {value!r}"
            for name, value in _named_files(path)
            if (relative, name) not in ELSEWHERE
        ]
    assert offenders == [], "name it in shelldon/paths.py"


def test_the_check_sees_a_module_that_names_its_own_file(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('STATE: str = "thing.json"\nLOCK = "x.lock"\nWORDS = "not a file"\n')
    assert _named_files(module) == [("STATE", "thing.json"), ("LOCK", "x.lock")]
    assert {name for name, _ in _named_files(PACKAGE / "paths.py")} >= {"SCHEDULER_STATE"}


def test_every_directory_of_the_root_is_under_the_injected_home(tmp_path: Path) -> None:
    root = DataRoot(tmp_path / "home")
    for where in (root.history_db, root.memory, root.vault, root.run_dir, root.state):
        assert where.is_relative_to(root.home), where
    assert root.history_db.name == paths.HISTORY_DB
    assert root.socket("core") == root.run_dir / "core.sock"


CASES = [
    # (--home, $SHELLDON_HOME, $SHELLDON_RUN_DIR, --run-dir)
    (None, None, None, None),
    ("/srv/pet", None, None, None),
    ("/srv//pet/./", None, None, None),
    ("relative/pet", None, None, None),
    ("~/pet", None, None, None),
    (None, "/env/home", None, None),
    (None, "/env/home", "/run/shelldon", None),
    ("/srv/pet", None, "relative-run", None),
    ("/srv/pet", None, "/run/shelldon", "/override/run"),
    ("/srv/pet", None, None, "~/run"),
]


def test_socket_text_is_the_socket_the_data_root_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`shelldon say` finds core's socket without pathlib (paths.socket_text): for every way a
    root and its run directory are given, it is the path DataRoot gives, spelled the same."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "owner"))
    for home, env_home, env_run, run_dir in CASES:
        for name, value in ((paths.HOME_ENV, env_home), (paths.RUN_DIR_ENV, env_run)):
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        root = DataRoot.resolve(home, run_dir)
        text = paths.socket_text("core", paths.home_text(home), run_dir)
        assert text == str(root.socket("core")), (home, env_home, env_run, run_dir)
        assert paths.home_text(home) == str(root.home)


def test_a_data_root_is_frozen_equal_by_value_and_pickles() -> None:
    import pickle

    root = DataRoot(Path("/a"), Path("/r"))
    assert root == DataRoot(Path("/a"), Path("/r")) != DataRoot(Path("/a"))
    assert len({root, DataRoot(Path("/a"), Path("/r"))}) == 1
    assert pickle.loads(pickle.dumps(root)) == root
    with pytest.raises(AttributeError):
        root.home = Path("/b")  # type: ignore[misc]
