"""The options every command shares: `--home`, `-v`, `--run-dir`, and the data root they name."""

from __future__ import annotations

import argparse
from pathlib import Path

from shelldon.paths import DataRoot


def common_options() -> argparse.ArgumentParser:
    """The parent parser of every command: `--home PATH` and `-v`."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--home", help="data root (default: $SHELLDON_HOME or ~/.shelldon)")
    common.add_argument("-v", "--verbose", action="store_true", help="log at debug level")
    return common


def add_run_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--run-dir", help="sockets and pid files (default: $SHELLDON_RUN_DIR or <home>/run)"
    )


def data_root(args: argparse.Namespace) -> DataRoot:
    """The data root from --home / SHELLDON_HOME, with --run-dir / SHELLDON_RUN_DIR applied."""
    root = DataRoot.resolve(args.home)
    run_dir = getattr(args, "run_dir", None)
    if run_dir:
        root = DataRoot(root.home, Path(run_dir).expanduser().absolute())
    return root
