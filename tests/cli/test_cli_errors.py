"""No command ends in a traceback: each mistake a user made is one clear line and an exit code.

Every test runs the real CLI as a subprocess (against a real pet where the mistake needs one) and
asserts the exit code, the line, and that no "Traceback" was printed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, hold
from shelldon.cli import EXIT_INTERRUPTED
from shelldon.core.history.store import HistoryStore
from support.pet import Pet, start_pet


def cli(
    *args: str, stdin: str | bytes | None = None, prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "shelldon", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    out = subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    return out


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


# --- --home that cannot be a data root --------------------------------------------------------


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("not a directory\n")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ("status",),
        ("say", "hi"),
        ("chat",),
        ("memory", "list"),
        ("memory", "remember", "facts", "tea", "The owner likes tea."),
        ("vault", "list"),
        ("doctor", "--offline"),
        ("run", "--no-chat"),
    ],
)
@pytest.mark.parametrize("under", [False, True], ids=["a file", "under a file"])
def test_home_naming_a_file_is_one_line(
    a_file: Path, command: tuple[str, ...], under: bool
) -> None:
    home = a_file / "pet" if under else a_file
    done = cli("--home", str(home), *command)
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert "not a directory" in line and "--home" in line, line
    assert a_file.read_text() == "not a directory\n"  # nothing was written through it


# --- a read-only data root ----------------------------------------------------------------------

# Root writes anywhere: without its capabilities, root meets the permissions like anyone else.
NO_CAPS = ("setpriv", "--bounding-set=-all", "--inh-caps=-all") if os.geteuid() == 0 else ()


@pytest.fixture
def read_only_home(tmp_path: Path) -> Iterator[Path]:
    if NO_CAPS and shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to drop root's capabilities")
    home = tmp_path / "ro-home"
    home.mkdir()
    home.chmod(0o555)
    yield home
    home.chmod(0o755)


def test_memory_remember_on_a_read_only_root_is_one_line(read_only_home: Path) -> None:
    done = cli(
        "memory", "remember", "--home", str(read_only_home), "facts", "tea", "The owner likes tea.",
        prefix=NO_CAPS,
    )  # fmt: skip
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith("shelldon memory remember: ") and "Permission denied" in line, line
    assert list(read_only_home.iterdir()) == []


def test_doctor_offline_does_not_call_a_read_only_root_all_good(read_only_home: Path) -> None:
    done = cli("doctor", "--offline", "--home", str(read_only_home), prefix=NO_CAPS)
    assert done.returncode == 1
    assert "all good" not in done.stdout
    assert "FAIL  data root" in done.stdout and "read-only" in done.stdout


# --- what the owner typed -----------------------------------------------------------------------


def test_say_with_bytes_that_are_not_utf8(pet: Pet) -> None:
    """`shelldon say "$(printf 'caf\\xe9')"`: Python keeps the byte as a lone surrogate, which
    no encoder takes (UnicodeEncodeError before the fix)."""
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"shelldon", b"say", b"caf\xe9 au lait"],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert b"Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    store = HistoryStore.open(pet.root.history_db)
    try:
        owner = [row for row in store.recent(10) if row["role"] == "owner"]
    finally:
        store.close()
    assert [row["content"] for row in owner] == ["caf\ufffd au lait"]


def test_say_dash_reads_the_message_from_stdin(pet: Pet) -> None:
    done = cli("say", "-", stdin="my sister is called Ana\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    store = HistoryStore.open(pet.root.history_db)
    try:
        texts = [row["content"] for row in store.recent(10) if row["role"] == "owner"]
    finally:
        store.close()
    assert texts == ["my sister is called Ana"]


def test_options_before_the_command(pet: Pet) -> None:
    """`shelldon --home X status`: the README says --home works on any command."""
    home = str(pet.root.home)
    for command in (("status",), ("memory", "list"), ("vault", "list"), ("say", "hello")):
        done = cli("--home", home, *command)
        assert done.returncode == 0, (command, done.stderr)
    assert cli("--home", home, "-v", "status").returncode == 0


# --- Ctrl-C -----------------------------------------------------------------------------------


def interrupted(proc: subprocess.Popen[bytes]) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err.decode("utf-8", "replace")


def test_ctrl_c_in_say_is_one_line(run_dir: Path, home: Path) -> None:
    with FakeProvider() as fake:
        home.mkdir(parents=True, exist_ok=True)
        (home / "shelldon.toml").write_text(fake.provider_table(retries=0))
        fake.script(hold())
        pet = start_pet()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "shelldon", "say", "are you there?"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            assert fake.wait_held(60), "the turn never reached the provider"
            code, err = interrupted(proc)  # `say` is waiting for the reply now
        finally:
            fake.release()
            pet.stop()
    assert code == EXIT_INTERRUPTED
    assert "Traceback" not in err
    assert one_line(err) == "shelldon: interrupted"


def test_ctrl_c_in_chat_is_one_line(pet: Pet) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shelldon", "chat"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    banner = proc.stdout.readline().decode()  # printed once connected, before the first read
    assert banner.startswith("Talk to your pet"), banner
    code, err = interrupted(proc)
    assert code == EXIT_INTERRUPTED
    assert "Traceback" not in err
    assert one_line(err) == "shelldon: interrupted"


# --- a reader that left early, and an output that cannot be written -------------------------


def _with_stdout(home: Path, stdout: int, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "--home", str(home), *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=120,
        check=False,
    )


def test_a_reader_that_left_early_ends_the_command_quietly(home: Path) -> None:
    """`shelldon doctor | head -0`: the pipe's reader is gone before the first write. As a
    shell tool does, the command stops silently with 128 + SIGPIPE (it used to print "Broken
    pipe" as if something had failed, because the OSError line caught it first)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = _with_stdout(home, write, "doctor", "--offline")
    finally:
        os.close(write)
    assert done.returncode == 141, done
    assert done.stderr == b"", done.stderr


def test_an_output_that_cannot_be_written_is_one_line(home: Path) -> None:
    """stdout on a full device is not a reader that left: it is said, once."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this machine")
    with open("/dev/full", "wb") as full:
        done = _with_stdout(home, full.fileno(), "memory", "skills")
    assert done.returncode == 1, done
    err = done.stderr.decode()
    assert "Traceback" not in err and "No space left on device" in one_line(err), err
