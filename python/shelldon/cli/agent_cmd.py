"""`shelldon agent serve --project DIR`: the agent face, project memory over MCP on stdio; and
`shelldon agent note --project DIR [TEXT]`: the user's rules captured from their own words, for a
host's prompt hook (TEXT, else stdin: plain text, or a hook's JSON with a "prompt" field; a hook's
JSON without one, such as a Stop hook's, holds the assistant's words and is refused, exit 1).

A mistake is one line on stderr and an exit code (docs/cli.md): no such directory, a file given
for the project, a project inside the data root's vault (exit 2), the MCP SDK missing (exit 1,
with how to install it). Everything else is in `shelldon.agent` (docs/agents.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shelldon.cli.common import CliError, data_root


def _serve(args: argparse.Namespace) -> int:
    from shelldon.agent.memory import AgentMemoryError
    from shelldon.agent.server import MissingExtra, serve

    project = _project(args)
    try:
        serve(project, data_root(args))
    except AgentMemoryError as exc:
        raise CliError(f"--project {args.project}: {exc}", 2) from None
    except MissingExtra as exc:
        raise CliError(str(exc)) from None
    return 0


def _project(args: argparse.Namespace) -> Path:
    project = Path(args.project).expanduser()
    if not project.exists():
        raise CliError(f"--project {args.project}: no such directory", 2)
    if not project.is_dir():
        raise CliError(f"--project {args.project}: not a directory", 2)
    return project


# What marks stdin as a host's hook payload rather than words the user typed.
HOOK_KEYS = frozenset({"hook_event_name", "session_id", "transcript_path"})


def _note(args: argparse.Namespace) -> int:
    """Rules from the user's words; prints what was kept (a prompt hook shows it to the agent)."""
    import json
    import sys

    from shelldon.agent.memory import AgentMemory, AgentMemoryError

    project = _project(args)
    text = args.text if args.text is not None else sys.stdin.read()
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("prompt"), str):
        text = payload["prompt"]
    elif isinstance(payload, dict) and HOOK_KEYS.intersection(payload):
        # A hook's payload without the user's prompt (a Stop hook's last_assistant_message, a
        # tool's input): the assistant's words or a tool's, never the owner's.
        event = payload.get("hook_event_name")
        said = f"a {event[:40]!r} hook" if isinstance(event, str) else "a hook's payload"
        raise CliError(f"{said} carries no user prompt: nothing noted (hook UserPromptSubmit)")
    try:
        # The hook is the host seeing the user type: these words are the owner's.
        said = AgentMemory(project, data_root(args)).note_request(text, heard=True)
    except AgentMemoryError as exc:
        if str(exc).startswith("reject"):  # the gate refused the rule: say so, not an error
            print(f"shelldon did not keep the user's rule: {exc}")
            return 0
        raise CliError(f"--project {args.project}: {exc}", 2) from None
    if not said.startswith("no rule found"):
        print(f"shelldon noted the user's rule(s): {said}")
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    agent = sub.add_parser(
        "agent", parents=[common], help="memory for coding agents (an MCP server)"
    )
    asub = agent.add_subparsers(dest="agent_command", metavar="ACTION", required=True)
    serve = asub.add_parser(
        "serve",
        parents=[common],
        help="serve a project's memory over MCP on stdio (docs/agents.md)",
    )
    serve.add_argument(
        "--project",
        required=True,
        metavar="DIR",
        help="the project; its memory lives in DIR/.shelldon/memory",
    )
    serve.set_defaults(func=_serve)

    note = asub.add_parser(
        "note",
        parents=[common],
        help="capture the user's rules (always/never/prefer) from their words: a prompt hook",
    )
    note.add_argument("--project", required=True, metavar="DIR", help="the project")
    note.add_argument("text", nargs="?", help="the words (default: stdin, text or hook JSON)")
    note.set_defaults(func=_note)
