"""A client command imports only what it needs: `shelldon --help` and `shelldon say` load neither
the gate, nor the memory writer, nor the audit log (they cost 60-100 ms here, seconds on a Pi).
The figures are in tests/bench/test_bench_cli.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

NOT_FOR_A_CLIENT = ("shelldon.core.gate", "shelldon.core.memory", "shelldon.core.audit")


def imported_by(*args: str) -> set[str]:
    """Every module `python -X importtime -m shelldon ARGS` imported (from its stderr)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "shelldon", *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    modules = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip())
    assert "shelldon.cli" in modules, done.stderr[-2000:]
    return modules


@pytest.mark.parametrize(
    "args",
    [("--help",), ("say", "hello"), ("status",), ("chat", "--help"), ("vault", "list")],
    ids=["help", "say", "status", "chat", "vault"],
)
def test_a_client_command_does_not_import_core(args: tuple[str, ...], run_dir: object) -> None:
    modules = imported_by(*args)  # no pet runs: `say` gets as far as the socket
    loaded = sorted(m for m in modules if m.startswith(NOT_FOR_A_CLIENT))
    assert loaded == [], loaded


def test_the_memory_commands_still_load_what_they_use(home: object) -> None:
    """The check above can fail: the modules it looks for are the ones the memory commands use."""
    modules = imported_by("memory", "list")
    assert "shelldon.core.memory" in modules
