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


def test_the_readme_says_what_the_test_command_builds_as_root_and_how_to_skip_it() -> None:
    """`just test` as root builds Debian roots with mmdebstrap and runs them with systemd-nspawn;
    the README says so and names the switch that skips them, and that switch really selects
    every test module that builds one (its marker is on each, and registered)."""
    text = (REPO / "README.md").read_text()
    paragraph = next(p for p in text.split("\n\n") if p.startswith("`./just test`"))
    for needed in ("mmdebstrap", "systemd-nspawn", "/var/cache/shelldon-image", "root"):
        assert needed in paragraph, needed
    switch = re.search(r'`\./just test -m "not (\w+)"`', paragraph)
    assert switch, paragraph
    marker = switch.group(1)
    assert re.search(rf'^\s*"{marker}:', (REPO / "pyproject.toml").read_text(), re.M)
    for module in sorted((REPO / "tests" / "image").glob("test_*.py")):
        source = module.read_text()
        if re.search(r"\b(check_root|base\.sh)\b", source):
            assert f"pytestmark = pytest.mark.{marker}" in source, module.name
