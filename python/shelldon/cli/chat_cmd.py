"""`shelldon chat`, `shelldon say "…"` (or `say -`: the message from stdin), `shelldon status`:
the terminal client's commands. Imports are function-local: a client command loads only the
socket client, never core's stores (tests/cli/test_cli_start.py)."""

from __future__ import annotations

import argparse
import json
import sys

from shelldon.cli.common import CliError, add_run_dir, ask_running_core, data_root, owner_text


def _chat(args: argparse.Namespace) -> int:
    from shelldon.transport.terminal import chat_loop

    return chat_loop(data_root(args))


def _say_text(args: argparse.Namespace) -> str:
    """The message: the words given, or stdin for `say -` (bytes that are not UTF-8 → U+FFFD)."""
    if args.text == ["-"]:
        return sys.stdin.buffer.read().decode("utf-8", "replace").strip()
    return " ".join(args.text).strip()


def _say(args: argparse.Namespace) -> int:
    from shelldon.contracts import wire
    from shelldon.transport.terminal import print_reply

    text = _say_text(args)
    if not text:
        raise CliError("nothing to say", 2)
    answer = ask_running_core(args, wire.Say(text=text))
    return 1 if answer is None else print_reply(answer)


def _status(args: argparse.Namespace) -> int:
    from shelldon.contracts import wire
    from shelldon.core.status.text import format_status
    from shelldon.transport.terminal import print_reply

    answer = ask_running_core(args, wire.StatusRequest(), 15.0)
    if answer is None:
        return 1
    if not isinstance(answer, wire.Status):
        return print_reply(answer)
    if args.json:
        import msgspec

        print(json.dumps(msgspec.to_builtins(answer), indent=2))
    else:
        from shelldon.appliance.field_status import status_lines

        print(format_status(answer))
        for line in status_lines():  # on the card: the release, the last update, security updates
            print(line)
    return 0 if all(p.up for p in answer.processes) else 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    chat = sub.add_parser("chat", parents=[common], help="talk to the running pet in this terminal")
    add_run_dir(chat)
    chat.set_defaults(func=_chat)
    say = sub.add_parser(
        "say",
        parents=[common],
        help='send one message and print the reply: shelldon say "hi" (or - for stdin)',
    )
    add_run_dir(say)
    say.add_argument("text", nargs="+", type=owner_text, help="the message; - reads it from stdin")
    say.set_defaults(func=_say)
    status = sub.add_parser(
        "status", parents=[common], help="processes, last turn, memory counts, vault isolation"
    )
    add_run_dir(status)
    status.add_argument("--json", action="store_true", help="machine-readable")
    status.set_defaults(func=_status)
