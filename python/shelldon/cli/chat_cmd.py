"""`shelldon chat`, `shelldon say "…"` (or `say -`: the message from stdin), `shelldon status`:
the terminal client's commands. Imports are function-local: a client command loads only the
socket client, never core's stores (tests/cli/test_cli_start.py)."""

from __future__ import annotations

import argparse
import sys

from shelldon.cli.common import (
    CliError,
    add_run_dir,
    ask_running_core,
    data_root,
    owner_text,
    refuse_a_file_in_the_way,
)


def _chat(args: argparse.Namespace) -> int:
    from shelldon.transport.terminal import chat_loop

    return chat_loop(data_root(args))


def _say_text(args: argparse.Namespace) -> str:
    """The message: the words given, or stdin for `say -` (bytes that are not UTF-8 → U+FFFD)."""
    if args.text == ["-"]:
        return sys.stdin.buffer.read().decode("utf-8", "replace").strip()
    return " ".join(args.text).strip()


def _say_command(args: argparse.Namespace, text: str) -> int | None:
    """An owner command typed to `say` ("/help", "/memory"), answered by core as in a chat; None
    when the text is a message after all (a bare "/", "/ hi")."""
    from shelldon.contracts import wire
    from shelldon.transport.terminal import COMMAND_TIMEOUT_S, owner_command, print_reply

    command = owner_command(text)
    if command is None:
        return None
    answer = ask_running_core(args, command, COMMAND_TIMEOUT_S)
    if answer is None:
        return 1
    if isinstance(answer, wire.CommandReply):
        print(answer.text)
        return 0
    return print_reply(answer)


def _say(args: argparse.Namespace) -> int:
    """transport.quick_say: core's socket found, the Say sent and its answer read without msgspec,
    pathlib or the config loader (what `ask_running_core` would do, at a third of the start)."""
    import os

    from shelldon import frames, paths
    from shelldon.transport import quick_say

    text = _say_text(args)
    if not text:
        raise CliError("nothing to say", 2)
    if text.startswith("/"):  # `say /help` is the chat's /help, not a message
        told = _say_command(args, text)
        if told is not None:
            return told
    home = paths.home_text(getattr(args, "home", None))
    if not os.path.isdir(home):
        refuse_a_file_in_the_way(home)  # the CliError every command gives (data_root)
    core = paths.socket_text("core", home, getattr(args, "run_dir", None))

    def slow_timeout() -> float:
        from shelldon.transport.waiting import say_timeout

        return say_timeout(data_root(args))

    try:
        answer = quick_say.ask(core, text, slow_timeout)
    except quick_say.TooLong as exc:
        raise CliError(f"{exc}; nothing was sent", 2) from None
    except quick_say.NotRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    except (frames.IpcError, OSError) as exc:
        print(f"shelldon: lost core ({exc})", file=sys.stderr)
        return 1
    return quick_say.print_answer(answer)


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
        import json

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
    say.set_defaults(func=_say, quiet_start=True)
    status = sub.add_parser(
        "status", parents=[common], help="processes, last turn, memory counts, vault isolation"
    )
    add_run_dir(status)
    status.add_argument("--json", action="store_true", help="machine-readable")
    status.set_defaults(func=_status)
