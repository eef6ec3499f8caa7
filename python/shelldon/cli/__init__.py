"""The `shelldon` command line. One module per command group, each exposing `register(sub)`.

Every command takes `--home PATH` (else SHELLDON_HOME, else ~/.shelldon), before the command or
after it. A command module adds its subparser and sets `func(args) -> int` on it; dispatch is here
and nowhere else.

No command ends in a traceback (docs/cli.md): a `CliError` or an OS error is one line on stderr and
exit 1, Ctrl-C is "interrupted" and exit 130; anything else is a bug, reported in one line with
the traceback only under `-v`.

Start time matters (a Pi is 10-20x slower than a laptop): only the chosen command's module is
imported (`COMMANDS` says which), and `shelldon --help` lists `COMMANDS` without importing any;
the command modules import what their commands need inside the command functions, so `shelldon
--help` and `shelldon say` load neither the gate nor the memory writer nor the audit log
(tests/cli/test_cli_start.py; the figures: tests/bench/test_bench_cli.py, docs/cli.md).

The long-running processes (`shelldon core|broker|forkserver` with `--home`, `--run-dir`, `-v`,
as `shelldon run` and the systemd units start them) are read by `process_args` without argparse:
a process that lives for days does not hold argparse and gettext (~0.35 MiB each, and their import
at every start; docs/performance.md). Any other word (`--help`, an abbreviation) goes to argparse.
"""

from __future__ import annotations

import sys

from shelldon import __version__

TYPE_CHECKING = False  # as in cli.common: not typing's
if TYPE_CHECKING:
    import argparse
    from types import SimpleNamespace

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BUG = 70  # EX_SOFTWARE
EXIT_STDOUT_GONE = 141  # 128 + SIGPIPE, as a shell reports a reader that left early
# The long-running processes (`shelldon core|broker|forkserver`, what `shelldon run` and the
# systemd units start): their parser registers only run_cmd, so a process that lives for days does
# not hold the other commands' imports (~0.7 MiB of the broker's 30 MiB at rest, 3.11 and 3.13;
# docs/processes.md).
PROCESS_COMMANDS = frozenset({"core", "broker", "forkserver"})
_OPTIONS_WITH_VALUE = frozenset({"--home", "--run-dir"})
# Every command, in the order `shelldon --help` lists them: the command module that registers it
# (cli.<module>_cmd) and its line in that list, so the list needs none of the modules.
# tests/cli/test_cli_start.py checks each line against the help its module registers.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("run", "start the pet (core, broker, fork-server) and chat here"),
    "core": (
        "run",
        "run only core (the owner's socket, the turn, the stores); systemd Type=notify",
    ),
    "broker": (
        "run",
        "run only the broker (the provider chain, the vault read); systemd Type=notify",
    ),
    "forkserver": (
        "run",
        "run only the fork-server (forks one dropped worker per turn); systemd Type=notify",
    ),
    "restart": (
        "restart",
        "restart the pet's processes (systemd's target, or those of `shelldon run`)",
    ),
    "chat": ("chat", "talk to the running pet in this terminal"),
    "say": ("chat", 'send one message and print the reply: shelldon say "hi" (or - for stdin)'),
    "status": ("chat", "processes, last turn, memory counts, vault isolation"),
    "memory": ("memory", "curated memory: list, show, log, undo"),
    "reminders": ("reminders", "list reminders; shelldon reminders cancel N"),
    "timezone": ("reminders", "show or set the owner's time zone (Europe/Lisbon)"),
    "vault": ("vault", "secrets only the broker can read"),
    "telegram": ("telegram", "pair the owner's Telegram chat with the pet"),
    "dream": ("dream", "consolidate learnings now: shelldon dream --now"),
    "doctor": ("doctor", "check the configuration and reach each provider"),
    "backup": (
        "backup",
        "copy history.db (consistently, while the pet runs) and the memory tree to DEST",
    ),
    "restore": (
        "backup",
        "put a backup in place (the pet must be stopped; the current data is kept aside)",
    ),
    "repair": (
        "backup",
        "salvage a damaged history.db into a fresh file (the damaged one is kept aside)",
    ),
    "agent": ("agent", "memory for coding agents (an MCP server)"),
}
MODULES = tuple(dict.fromkeys(module for module, _ in COMMANDS.values()))


def command_word(argv: list[str]) -> str | None:
    """The command argparse would pick: the first word that is neither an option nor its value."""
    value_next = False
    for word in argv:
        if value_next:
            value_next = False
        elif word in _OPTIONS_WITH_VALUE:
            value_next = True
        elif not word.startswith("-"):
            return word
    return None


def build_parser(
    *, processes_only: bool = False, only: str | None = None
) -> argparse.ArgumentParser:
    """The parser of every command; `only`: of that command module's commands alone (`MODULES`),
    `processes_only`: of run_cmd's (the long-running processes)."""
    # Imported here, not at the top: `import shelldon.cli` stays cheap for whoever needs only a
    # piece of it (the command modules pull in core's stores).
    from shelldon.cli.common import add_shared_options, common_options

    parser = _top_parser()
    add_shared_options(parser, top=True)
    common = common_options()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if processes_only:
        only = "run"
    for module in (only,) if only is not None else MODULES:
        _register(module, sub, common)
    return parser


def _top_parser() -> argparse.ArgumentParser:
    from shelldon.cli.common import new_parser

    parser = new_parser(prog="shelldon", description="A pocket AI pet that remembers.")
    parser.add_argument("--version", action="version", version=f"shelldon {__version__}")
    return parser


def list_parser() -> argparse.ArgumentParser:
    """`shelldon --help`'s parser: every command listed from `COMMANDS`, no command module
    imported. A command word picks the real parser instead (_main)."""
    from shelldon.cli.common import add_shared_options

    parser = _top_parser()
    add_shared_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, text) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def _register(
    module: str,
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    common: argparse.ArgumentParser,
) -> None:
    """Import one command module and let it add its commands (explicit imports: a module named in a
    string would be an edge no reader sees, tests/test_layering.py)."""
    if module == "run":
        from shelldon.cli import run_cmd

        run_cmd.register(sub, common)
    elif module == "restart":
        from shelldon.cli import restart_cmd

        restart_cmd.register(sub, common)
    elif module == "chat":
        from shelldon.cli import chat_cmd

        chat_cmd.register(sub, common)
    elif module == "memory":
        from shelldon.cli import memory_cmd

        memory_cmd.register(sub, common)
    elif module == "reminders":
        from shelldon.cli import reminders_cmd

        reminders_cmd.register(sub, common)
    elif module == "vault":
        from shelldon.cli import vault_cmd

        vault_cmd.register(sub, common)
    elif module == "telegram":
        from shelldon.cli import telegram_cmd

        telegram_cmd.register(sub, common)
    elif module == "dream":
        from shelldon.cli import dream_cmd

        dream_cmd.register(sub, common)
    elif module == "doctor":
        from shelldon.cli import doctor_cmd

        doctor_cmd.register(sub, common)
    elif module == "backup":
        from shelldon.cli import backup_cmd

        backup_cmd.register(sub, common)
    elif module == "agent":
        from shelldon.cli import agent_cmd

        agent_cmd.register(sub, common)
    else:
        raise ValueError(f"no command module {module!r}")


def main(argv: list[str]) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nshelldon: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `shelldon memory log | head`: the reader left; nothing to say
        _let_stdout_go()
        return EXIT_STDOUT_GONE


def _let_stdout_go() -> None:
    """stdout onto the null device: Python flushes it again at exit, and what it still holds
    would print "Exception ignored ..." and exit 120."""
    import os

    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _stdout_gone() -> bool:
    """Whether the reader of stdout went away (a pipe whose other end closed), rather than a
    socket or a file of the command's own."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError):
        return False


def process_args(argv: list[str]) -> SimpleNamespace | None:
    """`argv` of a long-running process read without argparse, as argparse would read it (a later
    `--home` wins, as the command's copy does over the top-level one); None for anything else:
    another command, `--help`, an abbreviated or unknown option, a missing value."""
    word = command_word(argv)
    if word not in PROCESS_COMMANDS:
        return None
    values: dict[str, object] = {"home": None, "run_dir": None, "verbose": False}
    words = iter(argv)
    seen = False
    for item in words:
        name, equals, value = item.partition("=")
        if item == word and not seen:
            seen = True
        elif item in ("-v", "--verbose"):
            values["verbose"] = True
        elif name in _OPTIONS_WITH_VALUE:
            if not equals:
                value = next(words, "")
            if not value or value.startswith("-"):  # argparse's "expected one argument"
                return None
            values[name[2:].replace("-", "_")] = value
        else:
            return None
    from types import SimpleNamespace

    from shelldon.cli import run_cmd

    return SimpleNamespace(command=word, func=run_cmd.process_command(word), **values)


def _main(argv: list[str]) -> int:
    args: argparse.Namespace | SimpleNamespace | None = process_args(argv)
    if args is None:
        args = _parse(argv)
    from shelldon.cli.common import CliError

    verbose = bool(getattr(args, "verbose", False))
    # A command that logs nothing on its way (`say`: `quiet_start`) does not load logging
    # (~3 ms of a 30 ms start); with -v it does, and a bug's traceback below loads it anyway.
    if verbose or not getattr(args, "quiet_start", False):
        import logging

        logging.basicConfig(
            level=logging.DEBUG if verbose else logging.INFO,
            format="%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s",
            stream=sys.stderr,
        )
    func = getattr(args, "func", None)
    if func is None:
        # Bare `shelldon` runs the pet, like `python -m shelldon` promises.
        parser = build_parser(only="run")
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
        code = int(func(args))
        # What a pipe or a file holds back is written here, where its failure is one line: at
        # the interpreter's exit it would be "Exception ignored on flushing sys.stdout" and 120.
        sys.stdout.flush()
        return code
    except CliError as exc:
        print(f"shelldon {command}: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError as exc:
        if _stdout_gone():  # `shelldon status | head`: the reader left; nothing to say
            raise
        print(f"shelldon {command}: {describe_os_error(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"shelldon {command}: {describe_os_error(exc)}", file=sys.stderr)
        _let_stdout_go()  # the exit's flush would fail the same way again
        return 1
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # a bug: still one line, the traceback only when asked for
        told = _storage_fault(exc)
        if told is not None:  # the owner's file, not a bug: its line and what to do, exit 1
            print(f"shelldon {command}: {told}", file=sys.stderr)
            return 1
        if verbose:
            import logging

            logging.getLogger("shelldon.cli").exception("shelldon %s failed", command)
        print(
            f"shelldon {command}: internal error: {type(exc).__name__}: {exc} "
            "(run it again with -v for the details)",
            file=sys.stderr,
        )
        return EXIT_BUG


def _storage_fault(exc: Exception) -> str | None:
    """The one line for a fault of the owner's files a command met (history.db damaged, a folder
    or a link where it should be, a disk error): `StorageFault` says the file and the remedy; a
    raw sqlite error reached from a command's own open says what sqlite said and where to look.
    Both were an "internal error" (exit 70) before. Only modules already imported are looked at:
    a command that never opened a database pays nothing."""
    check = sys.modules.get("shelldon.core.storage.check")
    if check is not None and isinstance(exc, check.StorageFault):
        return str(exc)
    layout = sys.modules.get("shelldon.core.storage.layout")
    if layout is not None and isinstance(exc, layout.LayoutError):  # a file where a folder goes
        return str(exc)
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
        return (
            f"a database could not be read ({exc}); `shelldon doctor` checks history.db, "
            "`shelldon repair` salvages a damaged one"
        )
    return None


def _parse(argv: list[str]) -> argparse.Namespace:
    word = command_word(argv)
    if word is None:  # `--help`, `--version`, or bare `shelldon`: no command module yet
        parser = list_parser()
    elif word in COMMANDS:  # only the chosen command's module
        parser = build_parser(only=COMMANDS[word][0])
    else:  # not a command: the whole parser says what the commands are
        parser = build_parser()
    return parser.parse_args(argv)


def describe_os_error(exc: OSError) -> str:
    """ "cannot write /x/memory: Permission denied"-shaped, from any OSError."""
    what = exc.strerror or type(exc).__name__
    if exc.filename is None:
        return what
    return f"{exc.filename}: {what}"
