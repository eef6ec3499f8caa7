"""`shelldon chat`, `shelldon say "…"`, `shelldon status`: the terminal client's commands."""

from __future__ import annotations

import argparse
import json
import sys

from shelldon.cli.common import add_run_dir, ask_running_core, data_root
from shelldon.contracts import wire
from shelldon.core.status_text import format_status
from shelldon.transport.terminal import chat_loop, print_reply


def _chat(args: argparse.Namespace) -> int:
    return chat_loop(data_root(args))


def _say(args: argparse.Namespace) -> int:
    text = " ".join(args.text).strip()
    if not text:
        print("shelldon say: nothing to say", file=sys.stderr)
        return 2
    answer = ask_running_core(args, wire.Say(text=text))
    return 1 if answer is None else print_reply(answer)


def _status(args: argparse.Namespace) -> int:
    answer = ask_running_core(args, wire.StatusRequest(), 15.0)
    if answer is None:
        return 1
    if not isinstance(answer, wire.Status):
        return print_reply(answer)
    if args.json:
        import msgspec

        print(json.dumps(msgspec.to_builtins(answer), indent=2))
    else:
        print(format_status(answer))
    return 0 if all(p.up for p in answer.processes) else 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    chat = sub.add_parser("chat", parents=[common], help="talk to the running pet in this terminal")
    add_run_dir(chat)
    chat.set_defaults(func=_chat)
    say = sub.add_parser(
        "say", parents=[common], help='send one message and print the reply: shelldon say "hi"'
    )
    add_run_dir(say)
    say.add_argument("text", nargs="+")
    say.set_defaults(func=_say)
    status = sub.add_parser(
        "status", parents=[common], help="processes, last turn, memory counts, vault isolation"
    )
    add_run_dir(status)
    status.add_argument("--json", action="store_true", help="machine-readable")
    status.set_defaults(func=_status)
