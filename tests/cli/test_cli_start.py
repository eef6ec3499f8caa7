"""A client command imports only what it needs: `shelldon --help` and `shelldon say` load neither
the gate, nor the memory writer, nor the audit log (they cost 60-100 ms here, seconds on a Pi).
The figures are in tests/bench/test_bench_cli.py."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from shelldon.contracts import wire
from support.fake_core import serving_core

NOT_FOR_A_CLIENT = ("shelldon.core.gate", "shelldon.core.memory", "shelldon.core.memory.audit")
# What `shelldon say` does without (transport.quick_say): together they were 4-5 bare
# interpreters of its start (docs/cli.md, "Start time").
NOT_FOR_SAY = {
    "msgspec", "shelldon.contracts.wire", "shelldon.ipc", "shelldon.config", "tomllib",
    "logging", "pathlib", "dataclasses", "typing", "socket", "shutil", "json",
}  # fmt: skip


def imported_by(*args: str) -> set[str]:
    """Every module `python -X importtime -m shelldon ARGS` imported (from its stderr)."""
    return run_importing(*args)[1]


def run_importing(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`python -X importtime -m shelldon ARGS` (its stderr without the import lines) and the
    modules it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "shelldon", *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    modules = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip())
    assert "shelldon.cli" in modules, done.stderr[-2000:]
    rest = "".join(line for line in done.stderr.splitlines(True) if not line.startswith("import "))
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, rest), modules


@pytest.mark.parametrize(
    "args",
    [("--help",), ("say", "hello"), ("status",), ("chat", "--help"), ("vault", "list")],
    ids=["help", "say", "status", "chat", "vault"],
)
def test_a_client_command_does_not_import_core(args: tuple[str, ...], run_dir: object) -> None:
    modules = imported_by(*args)  # no pet runs: `say` gets as far as the socket
    loaded = sorted(m for m in modules if m.startswith(NOT_FOR_A_CLIENT))
    assert loaded == [], loaded


def test_say_imports_none_of_the_heavy_modules_answered_or_not(run_dir: Path) -> None:
    assert NOT_FOR_SAY & imported_by("say", "hello") == set()  # no pet: "not running"
    reply = wire.Reply(text="hi there", turn_id="t1")
    with serving_core(run_dir, lambda message: reply) as received:
        done, modules = run_importing("say", "hello")
    assert (done.returncode, done.stdout) == (0, "hi there\n"), done.stderr[-2000:]
    assert received == [wire.Say(text="hello")]
    assert NOT_FOR_SAY & modules == set()


def test_the_say_check_can_fail_status_imports_them(run_dir: Path) -> None:
    assert {"msgspec", "shelldon.ipc"} <= imported_by("status")


def test_the_memory_commands_still_load_what_they_use(home: object) -> None:
    """The check above can fail: the modules it looks for are the ones the memory commands use."""
    modules = imported_by("memory", "list")
    assert "shelldon.core.memory" in modules


def command_modules_after(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\nprint(*sorted(sys.modules))"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return [m for m in done.stdout.split() if m.startswith("shelldon.cli.") and m.endswith("_cmd")]


def test_the_long_running_processes_load_only_their_own_command() -> None:
    """`shelldon core|broker|forkserver` live for days: their parser has only run_cmd, so they do
    not hold the other commands' imports (the broker's 30 MiB budget on Python 3.13)."""
    lean = "from shelldon.cli import build_parser\nbuild_parser(processes_only=True)"
    assert command_modules_after(lean) == ["shelldon.cli.run_cmd"]
    full = "from shelldon.cli import build_parser\nbuild_parser()"
    assert "shelldon.cli.chat_cmd" in command_modules_after(full)  # the check can fail


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["broker"], "broker"),
        (["--home", "/x", "-v", "broker"], "broker"),
        (["--home=/x", "core", "--run-dir", "/r"], "core"),
        (["--run-dir", "/r", "forkserver"], "forkserver"),
        (["say", "broker"], "say"),
        (["-v"], None),
    ],
)
def test_the_command_word_is_the_one_argparse_would_pick(argv: list[str], word: str | None) -> None:
    from shelldon.cli import command_word

    assert command_word(argv) == word


def test_the_command_list_is_the_one_the_modules_register() -> None:
    """`shelldon --help` lists cli.COMMANDS without importing a command module: each line, and
    the module named for it, must be what that module registers."""
    from shelldon.cli import COMMANDS, MODULES, build_parser

    for module in MODULES:
        parser = build_parser(only=module)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        registered = {action.dest: action.help for action in sub._choices_actions}
        mine = {name: text for name, (owner, text) in COMMANDS.items() if owner == module}
        assert registered == mine, module


def test_help_imports_no_command_module_and_a_command_only_its_own() -> None:
    help_modules = imported_by("--help")
    assert not [m for m in help_modules if m.startswith("shelldon.cli.") and m.endswith("_cmd")]
    say_modules = [m for m in imported_by("say", "--help") if m.endswith("_cmd")]
    assert say_modules == ["shelldon.cli.chat_cmd"], say_modules


# What the long-running processes do not import at start (docs/performance.md, "Memory at rest"):
# their command line is read without argparse (cli.process_args); shutil (with bz2 and lzma) only
# where a rare path needs it (core.learning.skills; the fork-server's warm-up makes its scratch
# directory without tempfile); and the broker of a pet with no HTTP provider and no Telegram
# pairing makes no HTTP call (broker.providers.scope).
NOT_AT_A_PROCESS_START = {"argparse", "gettext", "tempfile", "shutil", "bz2", "lzma"}
NOT_AT_THE_BROKER_START = {"http.client", "ssl", "email", "shelldon.broker.providers.http"}


def started_process_imports(name: str, run_dir: Path) -> set[str]:
    """Every module `python -X importtime -m shelldon NAME` imported until it told READY=1 on a
    notify socket (as systemd hears it), then stopped."""
    notify_path = run_dir / "notify"
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify,
        tempfile.TemporaryFile("w+") as stderr,
    ):
        notify.bind(str(notify_path))
        notify.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=str(notify_path))
        proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "shelldon", name, "--run-dir", str(run_dir)],
            env=env, stdout=subprocess.DEVNULL, stderr=stderr, text=True,
        )  # fmt: skip
        try:
            while b"READY=1" not in notify.recv(4096):
                pass
        finally:
            proc.terminate()
            proc.wait(timeout=60)
        stderr.seek(0)
        lines = stderr.read().splitlines()
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in lines
        if line.startswith("import time:") and "|" in line
    }
    assert "shelldon.cli.run_cmd" in modules, lines[-20:]
    return modules


@pytest.mark.parametrize("name", ["core", "broker", "forkserver"])
def test_a_process_starts_without_what_it_does_not_use(name: str, run_dir: Path) -> None:
    modules = started_process_imports(name, run_dir)
    assert NOT_AT_A_PROCESS_START & modules == set()
    if name == "broker":
        assert NOT_AT_THE_BROKER_START & modules == set()


def test_the_process_check_can_fail_a_process_with_help_imports_argparse() -> None:
    """`shelldon core --help` is not a process start: argparse answers it."""
    assert "argparse" in imported_by("core", "--help")


@pytest.mark.parametrize(
    "argv",
    [
        ["core"],
        ["--home", "/h", "-v", "broker", "--run-dir=/r"],
        ["--home=/a", "forkserver", "--home", "/b", "--verbose"],
        ["--run-dir", "/r", "core", "-v"],
    ],
)
def test_a_process_command_line_is_read_as_argparse_reads_it(argv: list[str]) -> None:
    from shelldon.cli import build_parser, process_args

    fast = process_args(argv)
    assert fast is not None
    parsed = build_parser(processes_only=True).parse_args(argv)
    for option in ("command", "home", "run_dir", "verbose"):
        assert getattr(fast, option) == getattr(parsed, option, None), option


@pytest.mark.parametrize(
    "argv",
    [
        ["say", "core"],
        ["core", "--help"],
        ["core", "--ho", "/h"],
        ["core", "--home"],
        ["core", "--home", "-v"],
        ["core", "core"],
        ["core", "extra"],
        ["run"],
        [],
    ],
)
def test_anything_else_goes_to_argparse(argv: list[str]) -> None:
    from shelldon.cli import process_args

    assert process_args(argv) is None


def test_the_three_processes_import_and_speak_the_wire_without_typing_extensions() -> None:
    """msgspec imports typing_extensions whenever it is installed (this venv has it, the card's
    Debian root does not): a process marks it absent first, and every module the three load
    still imports, and the wire still encodes and decodes, without it."""
    pytest.importorskip("typing_extensions", reason="nothing to keep out: not installed here")
    script = textwrap.dedent(
        """
        import sys
        from shelldon.cli.run_cmd import without_typing_extensions
        without_typing_extensions()
        import shelldon.core.server, shelldon.broker.server, shelldon.worker.forkserver
        import shelldon.transport.telegram_start
        from shelldon.contracts import wire
        message = wire.Say(text="hello")
        assert wire.decode(wire.encode(message)) == message
        print(repr(sys.modules["typing_extensions"]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"


def test_a_process_that_already_has_msgspec_is_left_as_it_is() -> None:
    """Marked after msgspec's import, the mark would lie (msgspec holds the module already)."""
    script = textwrap.dedent(
        """
        import sys
        import msgspec
        had = "typing_extensions" in sys.modules
        from shelldon.cli.run_cmd import without_typing_extensions
        without_typing_extensions()
        kept = sys.modules.get("typing_extensions", "absent")
        print(had == ("typing_extensions" in sys.modules) and kept is not None)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
