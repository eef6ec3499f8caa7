"""The `shelldon` command line. One module per command group, each exposing `register(sub)`.

Every command takes `--home PATH` (else SHELLDON_HOME, else ~/.shelldon). A command module adds
its subparser and sets `func(args) -> int` on it; dispatch is here and nowhere else.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from shelldon import __version__

# Command modules, in the order `shelldon --help` lists them. A module that is missing is skipped
# so the CLI stays usable while a command group is being built.
COMMAND_MODULES = (
    "shelldon.cli.run_cmd",
    "shelldon.cli.chat_cmd",
    "shelldon.cli.memory_cmd",
    "shelldon.cli.vault_cmd",
    "shelldon.cli.dream_cmd",
    "shelldon.cli.doctor_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shelldon", description="A pocket AI pet that remembers.")
    parser.add_argument("--version", action="version", version=f"shelldon {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--home", help="data root (default: $SHELLDON_HOME or ~/.shelldon)")
    common.add_argument("-v", "--verbose", action="store_true", help="log at debug level")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub, common)
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if getattr(args, "verbose", False) else logging.INFO,
        format="%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    func = getattr(args, "func", None)
    if func is None:
        # Bare `shelldon` runs the pet, like `python -m shelldon` promises.
        args = parser.parse_args(["run", *argv])
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return 2
    return int(func(args))
