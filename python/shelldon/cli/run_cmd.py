"""`shelldon run` (the whole pet) and `shelldon core|broker|forkserver` (one process, for systemd
units). Imports no argparse: a process started by `shelldon run` or systemd gets its arguments
from cli.process_args."""

from __future__ import annotations

import os
import sys

from shelldon.cli.common import CliError, add_run_dir, data_root

TYPE_CHECKING = False  # as in cli.common: not typing's
if TYPE_CHECKING:
    import argparse


def _run(args: argparse.Namespace) -> int:
    from shelldon.app import run
    from shelldon.config import ConfigError, load_config
    from shelldon.core.storage.check import StorageFault, check_data_root

    root = data_root(args)
    try:  # a damaged history.db or a read-only root: one line here, before any process starts
        check_data_root(root.home, root.history_db, root.memory)
    except StorageFault as exc:
        raise CliError(str(exc)) from None
    try:  # a config file that is garbage, a folder, too big: its line, not a process's exit code
        load_config(root)
    except ConfigError as exc:
        raise CliError(f"{exc} (`shelldon doctor` checks it)") from None
    chat = not args.no_chat and sys.stdin.isatty()
    return run(root, chat=chat)


def without_typing_extensions() -> None:
    """Run the process with the modules the card has. msgspec imports `typing_extensions` when it
    is installed (~0.3 MB a process, 1.2 MB of the three at rest), and a development venv has it
    (mypy's, the MCP SDK's); the card's Debian root has none, so there msgspec takes typing's own
    names and the three never see it. Marked absent before msgspec's first import, a process
    here runs as it does there, and anything of ours that came to need it fails here first
    (docs/performance.md, "Memory at rest")."""
    if "msgspec" not in sys.modules:
        sys.modules.setdefault("typing_extensions", None)  # type: ignore[arg-type]


def process_command(name: str):  # type: ignore[no-untyped-def]
    """The command function of `shelldon NAME` (core, broker, forkserver)."""

    def command(args: argparse.Namespace) -> int:
        without_typing_extensions()
        from shelldon.daemon import one_malloc_arena, stacks_on_sigquit

        one_malloc_arena()  # before any thread of the process
        stacks_on_sigquit()
        root = data_root(args)
        os.environ.setdefault("SHELLDON_HOME", os.fspath(root.home))
        if name == "core":
            from shelldon.core.server import main
        elif name == "broker":
            # The broker process's entry wires the transports that run inside it (Telegram).
            from shelldon.broker.server import main as broker
            from shelldon.transport.telegram_start import broker_transports

            return broker(root, transports=broker_transports(root))
        else:
            from shelldon.worker.forkserver import main
        return main(root)

    return command


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    run = sub.add_parser(
        "run", parents=[common], help="start the pet (core, broker, fork-server) and chat here"
    )
    add_run_dir(run)
    run.add_argument(
        "--no-chat", action="store_true", help="only supervise the processes (no terminal chat)"
    )
    run.set_defaults(func=_run)
    for name, text in (
        ("core", "run only core (the owner's socket, the turn, the stores); systemd Type=notify"),
        ("broker", "run only the broker (the provider chain, the vault read); systemd Type=notify"),
        (
            "forkserver",
            "run only the fork-server (forks one dropped worker per turn); systemd Type=notify",
        ),
    ):
        parser = sub.add_parser(name, parents=[common], help=text)
        add_run_dir(parser)
        parser.set_defaults(func=process_command(name))
