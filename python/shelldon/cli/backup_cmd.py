"""`shelldon backup DEST`, `shelldon restore SRC`, `shelldon repair` (core.upkeep.backup does the
work).

backup runs while the pet runs (sqlite's backup API); restore and repair refuse while it runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from shelldon.cli.common import CliError, add_run_dir, data_root


def _done(what: Callable[[], str]) -> int:
    """Run one of core.upkeep.backup's jobs; a BackupError is the one line the owner sees."""
    from shelldon.core.upkeep.backup import BackupError

    try:
        print(what())
    except BackupError as exc:
        raise CliError(str(exc)) from None
    return 0


def _backup(args: argparse.Namespace) -> int:
    from shelldon.core.upkeep import backup

    root = data_root(args)
    return _done(lambda: f"backed up {root.home} to {backup.backup(root, Path(args.dest))}")


def _restore(args: argparse.Namespace) -> int:
    from shelldon.core.upkeep import backup

    root = data_root(args)

    def restore() -> str:
        aside = backup.restore(root, Path(args.src))
        return f"restored {args.src} into {root.home}; the data it replaced is in {aside}"

    return _done(restore)


def _repair(args: argparse.Namespace) -> int:
    from shelldon.core.upkeep import backup

    root = data_root(args)

    def repair() -> str:
        report = backup.repair(root, use_cli=not args.no_cli)
        counts = ", ".join(f"{table} {n}" for table, n in sorted(report.salvaged.items()) if n)
        return (
            f"repaired {root.history_db} ({report.method}): salvaged {counts or 'no rows'}; "
            f"the damaged file is kept as {report.damaged_kept}"
        )

    return _done(repair)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "backup",
        parents=[common],
        help="copy history.db (consistently, while the pet runs) and the memory tree to DEST",
    )
    parser.add_argument("dest", help="a new directory, or a tarball (.tar, .tar.gz, .tgz)")
    add_run_dir(parser)
    parser.set_defaults(func=_backup)
    parser = sub.add_parser(
        "restore",
        parents=[common],
        help="put a backup in place (the pet must be stopped; the current data is kept aside)",
    )
    parser.add_argument("src", help="a backup directory or tarball made by `shelldon backup`")
    add_run_dir(parser)
    parser.set_defaults(func=_restore)
    parser = sub.add_parser(
        "repair",
        parents=[common],
        help="salvage a damaged history.db into a fresh file (the damaged one is kept aside)",
    )
    parser.add_argument(
        "--no-cli", action="store_true", help="do not use the sqlite3 CLI's .recover"
    )
    add_run_dir(parser)
    parser.set_defaults(func=_repair)
