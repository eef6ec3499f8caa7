"""`shelldon vault set KEY` (value from stdin or a hidden prompt, never argv), `vault list`.

`vault set` works whether or not the pet runs: with core up it asks core (the sole writer); with
core down it writes through the same code (`core.vault.set_secret`), 0600, and a root caller gives
the file to the data root's owner (the service user) so the broker can read it. A name that is
already stored is replaced only after a yes at the terminal, or with `--replace`.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import TYPE_CHECKING

from shelldon.cli.common import CliError, add_run_dir, data_root

if TYPE_CHECKING:
    from shelldon.contracts import wire
    from shelldon.paths import DataRoot


def _read_secret() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("value (not echoed): ")
    return sys.stdin.buffer.read().decode("utf-8", "replace").rstrip("\n")


def _core_answer(root: DataRoot, message: wire._Msg) -> wire.Message | None:
    """Core's answer, or None when the pet is not running."""
    from shelldon import ipc
    from shelldon.transport.terminal import NotRunning, ask_core

    try:
        return ask_core(root, message, 15.0)
    except NotRunning:
        return None
    except (ipc.IpcError, OSError) as exc:
        raise CliError(f"lost core ({exc})") from None


def _stored_names(root: DataRoot) -> list[str]:
    from shelldon.contracts import wire
    from shelldon.core.vault import list_names

    answer = _core_answer(root, wire.VaultList())
    if isinstance(answer, wire.VaultNames):
        return list(answer.names)
    return list_names(root.vault)


def _confirm_replace(key: str) -> bool:
    if not sys.stdin.isatty():
        return False
    answer = input(f"vault entry {key!r} is already stored; replace it? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def _set(args: argparse.Namespace) -> int:
    from shelldon.contracts import wire
    from shelldon.core.vault import check_key

    root = data_root(args)
    try:
        check_key(args.key)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.key in _stored_names(root) and not args.replace and not _confirm_replace(args.key):
        raise CliError(f"{args.key!r} is already stored; nothing changed (--replace overwrites it)")
    value = _read_secret()
    if not value.strip():
        raise CliError("empty value, nothing stored", 2)
    answer = _core_answer(root, wire.VaultSet(key=args.key, value=value))
    if answer is None:
        _set_directly(root, args.key, value)
        print(f"stored {args.key} (shelldon is not running: written to {root.vault} directly)")
        return 0
    return _print_answer(answer)


def _set_directly(root: DataRoot, key: str, value: str) -> None:
    """Core is down: core's vault code, as the data root's owner (root hands the file over)."""
    from shelldon.core.vault import VaultError, set_secret

    owner = None
    if os.geteuid() == 0 and root.home.exists():
        st = root.home.stat()
        owner = (st.st_uid, st.st_gid) if st.st_uid != 0 else None
    try:
        set_secret(root.vault, key, value, owner=owner)
    except VaultError as exc:
        raise CliError(str(exc)) from None


def _list(args: argparse.Namespace) -> int:
    from shelldon.contracts import wire
    from shelldon.core.vault import list_names

    root = data_root(args)
    answer = _core_answer(root, wire.VaultList())
    if answer is None:
        answer = wire.VaultNames(names=tuple(list_names(root.vault)))
    return _print_answer(answer)


def _print_answer(answer: wire.Message) -> int:
    from shelldon.contracts import wire
    from shelldon.transport.terminal import print_refused_or_unexpected

    if isinstance(answer, wire.Ack):
        print(answer.detail)
        return 0
    if isinstance(answer, wire.VaultNames):
        for name in answer.names:
            print(name)
        return 0
    return print_refused_or_unexpected(answer)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    # The shared options default to SUPPRESS (cli.common), so `vault --home X set` keeps X.
    vault = sub.add_parser("vault", parents=[common], help="secrets only the broker can read")
    vsub = vault.add_subparsers(dest="vault_command", metavar="ACTION", required=True)
    set_ = vsub.add_parser(
        "set", parents=[common], help="store a secret (value from stdin or a hidden prompt)"
    )
    add_run_dir(set_)
    set_.add_argument("key")
    set_.add_argument(
        "--replace", action="store_true", help="overwrite a stored secret without asking"
    )
    set_.set_defaults(func=_set)
    list_ = vsub.add_parser(
        "list", parents=[common], help="the names of the stored secrets (never values)"
    )
    add_run_dir(list_)
    list_.set_defaults(func=_list)
