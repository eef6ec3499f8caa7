"""The `shelldon` command line. One module per command group, each exposing `register(sub)`.

Every command takes `--home PATH` (else SHELLDON_HOME, else ~/.shelldon), before the command or
after it. A command module adds its subparser and sets `func(args) -> int` on it; dispatch is here
and nowhere else.

No command ends in a traceback (docs/cli.md): a `CliError` or an OS error is one line on stderr and
exit 1, Ctrl-C is "interrupted" and exit 130; anything else is a bug, reported in one line with
the traceback only under `-v`.

Start time matters (a Pi is 10-20x slower than a laptop): the command modules import what their
commands need inside the command functions, so `shelldon --help` and `shelldon say` load neither
the gate nor the memory writer nor the audit log (tests/cli/test_cli_start.py).
"""

from __future__ import annotations

import argparse
import logging
import sys

from shelldon import __version__

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BUG = 70  # EX_SOFTWARE


def build_parser() -> argparse.ArgumentParser:
    # Imported here, not at the top: `import shelldon.cli` stays cheap for whoever needs only a
    # piece of it (the command modules pull in core's stores).
    from shelldon.cli import (
        agent_cmd,
        backup_cmd,
        chat_cmd,
        doctor_cmd,
        dream_cmd,
        memory_cmd,
        reminders_cmd,
        restart_cmd,
        run_cmd,
        telegram_cmd,
        vault_cmd,
    )
    from shelldon.cli.common import add_shared_options, common_options

    parser = argparse.ArgumentParser(prog="shelldon", description="A pocket AI pet that remembers.")
    parser.add_argument("--version", action="version", version=f"shelldon {__version__}")
    add_shared_options(parser, top=True)
    common = common_options()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # In the order `shelldon --help` lists them.
    for module in (
        run_cmd,
        restart_cmd,
        chat_cmd,
        memory_cmd,
        reminders_cmd,
        vault_cmd,
        telegram_cmd,
        dream_cmd,
        doctor_cmd,
        backup_cmd,
        agent_cmd,
    ):
        module.register(sub, common)
    return parser


def main(argv: list[str]) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nshelldon: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `shelldon memory log | head`: the reader left; nothing to say
        return 1


def _main(argv: list[str]) -> int:
    from shelldon.cli.common import CliError

    parser = build_parser()
    args = parser.parse_args(argv)
    verbose = bool(getattr(args, "verbose", False))
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
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
    command = " ".join(
        str(part)
        for part in (
            args.command,
            getattr(args, "memory_command", None),
            getattr(args, "vault_command", None),
            getattr(args, "agent_command", None),
        )
        if part
    )
    try:
        return int(func(args))
    except CliError as exc:
        print(f"shelldon {command}: {exc}", file=sys.stderr)
        return exc.code
    except OSError as exc:
        print(f"shelldon {command}: {describe_os_error(exc)}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:  # a bug: still one line, the traceback only when asked for
        if verbose:
            logging.getLogger("shelldon.cli").exception("shelldon %s failed", command)
        print(
            f"shelldon {command}: internal error: {type(exc).__name__}: {exc} "
            "(run it again with -v for the details)",
            file=sys.stderr,
        )
        return EXIT_BUG


def describe_os_error(exc: OSError) -> str:
    """ "cannot write /x/memory: Permission denied"-shaped, from any OSError."""
    what = exc.strerror or type(exc).__name__
    if exc.filename is None:
        return what
    return f"{exc.filename}: {what}"
