"""The README's first two commands are what a newcomer types and what CI runs: both go through the
justfile via ./just (which needs nothing but python3 with venv), and .ci/run runs the test command
exactly as the README writes it. (That they work on a clean Debian 13 root:
tests/image/test_readme_setup.py.)"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    assert block, "README.md has no ```sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_commands_go_through_the_justfile() -> None:
    commands = readme_commands()
    assert [c.split()[:2] for c in commands] == [["./just", "run"], ["./just", "test"]], commands
    recipes = (REPO / "justfile").read_text()
    for command in commands:
        assert re.search(rf"^{command.split()[1]}\b.*:", recipes, re.M), command


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO / ".ci/run").read_text().splitlines()
    assert readme_commands()[1] in ci, ci


def test_the_just_wrapper_is_an_executable_posix_script() -> None:
    wrapper = REPO / "just"
    assert os.access(wrapper, os.X_OK)
    assert wrapper.read_text().startswith("#!/bin/sh\n")
    subprocess.run(["sh", "-n", str(wrapper)], check=True)
