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
        assert "--home" in parser._option_string_actions, name
        for action_name, action in _subcommands(parser).items():
            assert "--home" in action._option_string_actions, f"{name} {action_name}"


def test_home_before_the_command_is_kept_for_every_command() -> None:
    """`shelldon --home X status`: the option before the command, before a group's action, or
    after it; the command's own default never overwrites it (they are SUPPRESS)."""
    parser = build_parser()
    for name, sub in _subcommands(parser).items():
        actions = list(_subcommands(sub)) or [None]
        for action in actions:
            words = [name, action] if action else [name]
            extra = {
                "say": ["hi"],
                "vault": ["k"] if action == "set" else [],
                "backup": ["dest"],
                "restore": ["src"],
                "agent": ["--project", "p"],
            }.get(name, [])
            if name == "memory":
                extra = {
                    "show": ["x"],
                    "forget": ["x"],
                    "remember": ["facts", "n", "t"],
                    "why": ["x"],
                    "history": ["x"],
                }.get(action or "", [])
            before = parser.parse_args(["--home", "/tmp/h0", *words, *extra])
            assert before.home == "/tmp/h0", words
            if action:
                middle = parser.parse_args([name, "--home", "/tmp/h1", action, *extra])
                assert middle.home == "/tmp/h1", words
            after = parser.parse_args([*words, "--home", "/tmp/h2", *extra])
            assert after.home == "/tmp/h2", words


def test_home_after_the_action_is_kept() -> None:
    parser = build_parser()
    assert parser.parse_args(["vault", "list", "--home", "/tmp/h1"]).home == "/tmp/h1"
    assert parser.parse_args(["say", "--home", "/tmp/h2", "hi"]).home == "/tmp/h2"
    assert (
        parser.parse_args(["status", "--home", "/tmp/h3", "--run-dir", "/tmp/r"]).run_dir
        == "/tmp/r"
    )
