"""The options every command shares: `--home`, `-v`, `--run-dir`, the data root they name, and how
a command fails: `CliError`, one line on stderr and an exit code, never a traceback (docs/cli.md);
one question to the running core, with the CLI's message when it cannot be asked.

The options are accepted both before the command (`shelldon --home X status`) and after it
(`shelldon status --home X`). The command's copies default to SUPPRESS, so an option given before
the command is never overwritten by the command's own default. Imports of the socket client are
function-local: `shelldon --help` loads none of it (tests/cli/test_cli_start.py). argparse is
imported where a parser is made: the long-running processes start without it (cli.process_args).
"""

from __future__ import annotations

import sys

# Not `typing.TYPE_CHECKING`: `shelldon --help` would import typing for it (mypy reads this name as
# that constant).
TYPE_CHECKING = False
if TYPE_CHECKING:  # imported where used: `shelldon --help` needs neither (pathlib is ~10 ms)
    import argparse

    from shelldon.contracts import wire
    from shelldon.paths import DataRoot

_PARSER_CLASS: list[type[argparse.ArgumentParser]] = []


def new_parser(**options: object) -> argparse.ArgumentParser:
    """argparse's parser, its help as wide as the terminal without asking shutil (argparse does,
    on every add_argument; shutil's import is ~10 % of `shelldon say`'s start). Every parser of
    the command line is one: subparsers are made with their parent's class. The class is made on
    the first call, so that importing this module does not import argparse."""
    if not _PARSER_CLASS:
        import argparse

        class Parser(argparse.ArgumentParser):
            def _get_formatter(self) -> argparse.HelpFormatter:
                return self.formatter_class(prog=self.prog, width=help_width())  # type: ignore[call-arg]

        _PARSER_CLASS.append(Parser)
    return _PARSER_CLASS[0](**options)  # type: ignore[arg-type]


def help_width() -> int:
    """shutil.get_terminal_size's columns (COLUMNS, else stdout's terminal, else 80), less the
    two argparse takes off."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


class CliError(Exception):
    """A command that cannot go on: `message` is the one line the owner sees, `code` the exit."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def whole_number(text: str) -> int:
    """An argparse type: a count or a number the owner gives (0 or more)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is below 0")
    return value


def seconds(text: str) -> float:
    """An argparse type: a time limit, more than 0 and at most a day (nan and inf are none)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= 86_400):
        raise argparse.ArgumentTypeError(f"{text} seconds: give more than 0, at most 86400")
    return value


def add_shared_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """`--home PATH` and `-v` (on the top-level parser, and on every command as SUPPRESS)."""
    import argparse

    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--home", default=default, help="data root (default: $SHELLDON_HOME or ~/.shelldon)"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="log at debug level",
    )
    if top:
        add_run_dir(parser, top=True)


def common_options() -> argparse.ArgumentParser:
    """The parent parser of every command: `--home PATH` and `-v`."""
    common = new_parser(add_help=False)
    add_shared_options(common, top=False)
    return common


def add_run_dir(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    import argparse

    parser.add_argument(
        "--run-dir",
        default=None if top else argparse.SUPPRESS,
        help="sockets and pid files (default: $SHELLDON_RUN_DIR or <home>/run)",
    )


def data_root(args: argparse.Namespace) -> DataRoot:
    """The data root from --home / SHELLDON_HOME, with --run-dir / SHELLDON_RUN_DIR applied.

    Raises CliError when the path cannot be a directory (it, or a directory above it, is a file).
    """
    from shelldon.paths import DataRoot

    for option in ("home", "run_dir"):  # "" would quietly be the working directory
        value = getattr(args, option, None)
        if value is not None and not value.strip():
            raise CliError(f"--{option.replace('_', '-')} is empty: give a directory")
    root = DataRoot.resolve(getattr(args, "home", None), getattr(args, "run_dir", None))
    refuse_a_file_in_the_way(str(root.home))
    return root


def refuse_a_file_in_the_way(home: str) -> None:
    """CliError when the data root `home` (absolute text), or a directory above it, is a file."""
    import os

    candidate = home
    while not os.path.exists(candidate):
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return
        candidate = parent
    if os.path.isdir(candidate):
        return
    where = "is a file" if candidate == home else f"is under a file ({candidate})"
    raise CliError(f"the data root {home} {where}, not a directory: choose another --home")


def ask_running_core(
    args: argparse.Namespace,
    message: wire._Msg,
    timeout: float | None = None,
    *,
    command: str = "shelldon",
) -> wire.Message | None:
    """Core's answer, or None once stderr says why there is none: core is not running, or the
    connection broke before the answer (`<command>: lost core (…)`). A message over the limit is
    a CliError: nothing was sent."""
    from shelldon import ipc
    from shelldon.transport.terminal import NotRunning, TooLong, ask_core

    try:
        return ask_core(data_root(args), message, timeout)
    except TooLong as exc:
        raise CliError(f"{exc}; nothing was sent", 2) from None
    except NotRunning as exc:
        print(exc, file=sys.stderr)
    except (ipc.IpcError, OSError) as exc:
        print(f"{command}: lost core ({exc})", file=sys.stderr)
    return None


def owner_text(value: str) -> str:
    """An argparse `type` for text the owner typed: bytes that were not UTF-8 become U+FFFD,
    terminal controls are stripped (contracts.text)."""
    from shelldon.contracts.text import clean_text, repair_surrogates

    return clean_text(repair_surrogates(value))
