"""`shelldon vault set KEY` (value from stdin or a hidden prompt, never argv), `vault list`."""

from __future__ import annotations

import argparse
import getpass
import sys

from shelldon.cli.common import add_run_dir, ask_running_core
from shelldon.contracts import wire
from shelldon.transport.terminal import print_refused_or_unexpected


def _read_secret() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("value (not echoed): ")
    return sys.stdin.read().rstrip("\n")


def _set(args: argparse.Namespace) -> int:
    value = _read_secret()
    if not value.strip():
        print("shelldon vault set: empty value, nothing stored", file=sys.stderr)
        return 2
    return _ask(args, wire.VaultSet(key=args.key, value=value))


def _list(args: argparse.Namespace) -> int:
    return _ask(args, wire.VaultList())


def _ask(args: argparse.Namespace, message: wire._Msg) -> int:
    answer = ask_running_core(args, message, 15.0)
    if answer is None:
        return 1
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
    # No common options on the group itself: argparse would let the action's defaults silently
    # overwrite a `vault --home X` (so --home goes after the action: `vault set --home X KEY`).
    vault = sub.add_parser("vault", help="secrets only the broker can read")
    vsub = vault.add_subparsers(dest="vault_command", metavar="ACTION", required=True)
    set_ = vsub.add_parser(
        "set", parents=[common], help="store a secret (value from stdin or a hidden prompt)"
    )
    add_run_dir(set_)
    set_.add_argument("key")
    set_.set_defaults(func=_set)
    list_ = vsub.add_parser(
        "list", parents=[common], help="the names of the stored secrets (never values)"
    )
    add_run_dir(list_)
    list_.set_defaults(func=_list)
