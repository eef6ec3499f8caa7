"""The command line: --home on every command, and never silently dropped."""

from __future__ import annotations

import argparse

from shelldon.cli import build_parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_command_takes_home_and_groups_do_not_swallow_it() -> None:
    top = _subcommands(build_parser())
    assert {"run", "core", "broker", "forkserver", "chat", "say", "status", "vault"} <= set(top)
    for name, parser in top.items():
        actions = _subcommands(parser)
        if not actions:
            assert "--home" in parser._option_string_actions, name
            continue
        # A group with --home of its own would have it overwritten by the action's default
        # (argparse): `shelldon memory --home X list` would quietly use the default home.
        assert "--home" not in parser._option_string_actions, name
        for action_name, action in actions.items():
            assert "--home" in action._option_string_actions, f"{name} {action_name}"


def test_home_after_the_action_is_kept() -> None:
    parser = build_parser()
    assert parser.parse_args(["vault", "list", "--home", "/tmp/h1"]).home == "/tmp/h1"
    assert parser.parse_args(["say", "--home", "/tmp/h2", "hi"]).home == "/tmp/h2"
    assert (
        parser.parse_args(["status", "--home", "/tmp/h3", "--run-dir", "/tmp/r"]).run_dir
        == "/tmp/r"
    )
