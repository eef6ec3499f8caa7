"""The options every command shares: `--home`, `-v`, `--run-dir`, and the data root they name;
one question to the running core, with the CLI's message when it cannot be asked."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.paths import DataRoot
from shelldon.transport.terminal import SAY_TIMEOUT_S, NotRunning, ask_core


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


def ask_running_core(
    args: argparse.Namespace,
    message: wire._Msg,
    timeout: float = SAY_TIMEOUT_S,
    *,
    command: str = "shelldon",
) -> wire.Message | None:
    """Core's answer, or None once stderr says why there is none: core is not running, or the
    connection broke before the answer (`<command>: lost core (…)`)."""
    try:
        return ask_core(data_root(args), message, timeout)
    except NotRunning as exc:
        print(exc, file=sys.stderr)
    except (ipc.IpcError, OSError) as exc:
        print(f"{command}: lost core ({exc})", file=sys.stderr)
    return None
