"""The `shelldon` command line. One module per command group, each exposing `register(sub)`.

Every command takes `--home PATH` (else SHELLDON_HOME, else ~/.shelldon). A command module adds
its subparser and sets `func(args) -> int` on it; dispatch is here and nowhere else.
"""

from __future__ import annotations

import argparse
import logging
import sys

from shelldon import __version__


def build_parser() -> argparse.ArgumentParser:
    # Imported here, not at the top: `import shelldon.cli` stays cheap for whoever needs only a
    # piece of it (the command modules pull in core's stores).
    from shelldon.cli import (
        chat_cmd,
        doctor_cmd,
        dream_cmd,
        memory_cmd,
        reminders_cmd,
        run_cmd,
        telegram_cmd,
        vault_cmd,
    )
    from shelldon.cli.common import common_options

    parser = argparse.ArgumentParser(prog="shelldon", description="A pocket AI pet that remembers.")
    parser.add_argument("--version", action="version", version=f"shelldon {__version__}")
    common = common_options()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # In the order `shelldon --help` lists them.
    for module in (
        run_cmd,
        chat_cmd,
        memory_cmd,
        reminders_cmd,
        vault_cmd,
        telegram_cmd,
        dream_cmd,
        doctor_cmd,
    ):
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
