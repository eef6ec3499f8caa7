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


@pytest.mark.parametrize("option", ["--home", "--run-dir"])
@pytest.mark.parametrize("command", [("status",), ("run", "--no-chat"), ("memory", "list")])
def test_an_empty_home_or_run_dir_is_one_line(
    tmp_path: Path, option: str, command: tuple[str, ...]
) -> None:
    """Before: "" was the working directory, so `run` made a pet's tree wherever the shell was."""
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", option, "", *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "SHELLDON_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"{option} is empty" in one_line(done.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing was made anywhere


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("memory", "log", "-n", "-5"), "-5 is below 0"),
        (("memory", "log", "-n", "many"), "'many' is not a whole number"),
        (("memory", "undo", "--dream", "-3"), "-3 is below 0"),
        (("doctor", "--timeout", "nan"), "give more than 0"),
        (("doctor", "--timeout", "-1"), "give more than 0"),
        (("doctor", "--timeout", "1e308"), "at most 86400"),
    ],
)
def test_a_number_out_of_its_range_is_refused_by_name(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """Before: `log -n -5` printed nothing and exit 0; a nan or negative timeout reached the
    provider probes' sockets."""
    done = cli("--home", str(tmp_path / "home"), *args)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr.strip().splitlines()[-1], done.stderr


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


def test_say_with_a_command_is_the_chats_command_not_a_message(pet: Pet) -> None:
    """`shelldon say /help` was sent as a message ("I hear you."), and kept as one."""
    helped = cli("say", "/help")
    assert helped.returncode == 0 and "/memory" in helped.stdout, helped.stdout
    unknown = cli("say", "/nonsense")
    assert unknown.returncode == 0 and "/help lists" in unknown.stdout, unknown.stdout
    spaced = cli("say", "/ hi")  # not a command's shape: a message
    assert spaced.returncode == 0, spaced.stderr
    store = HistoryStore.open(pet.root.history_db)
    try:
        texts = [row["content"] for row in store.recent(10) if row["role"] == "owner"]
    finally:
        store.close()
    assert texts == ["/ hi"]


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


# --- a history.db that cannot be read -----------------------------------------------------------


def _history_made_unreadable(home: Path, shape: str) -> Path:
    db = home / "history.db"
    home.mkdir(parents=True, exist_ok=True)
    HistoryStore.open(db).close()
    if shape == "garbage":
        with open(db, "r+b") as f:
            f.write(os.urandom(100))  # the header: "file is not a database"
    else:
        db.unlink()
        db.mkdir()
    return db


@pytest.mark.parametrize("shape", ["garbage", "a folder"])
@pytest.mark.parametrize(
    "command", [("reminders",), ("memory", "learnings"), ("backup", "DEST")], ids=" ".join
)
def test_a_history_db_that_cannot_be_read_is_one_line_not_an_internal_error(
    home: Path, tmp_path: Path, shape: str, command: tuple[str, ...]
) -> None:
    """Before: `shelldon reminders: internal error: StorageFault: ...`, `shelldon backup:
    internal error: DatabaseError: file is not a database`, exit 70 (a bug's code) for the
    owner's damaged file."""
    _history_made_unreadable(home, shape)
    args = [str(tmp_path / "bk") if part == "DEST" else part for part in command]
    done = cli(*args)
    assert done.returncode == 1, (done.returncode, done.stderr)
    line = one_line(done.stderr)
    assert "internal error" not in line, line
    assert "history.db" in line and any(w in line for w in ("repair", "doctor", "move it")), line


@pytest.mark.parametrize("shape", ["garbage", "a folder"])
def test_doctor_does_not_call_an_unreadable_history_db_all_good(home: Path, shape: str) -> None:
    """Before: every line ok and "all good" over a history.db that core would refuse at start."""
    _history_made_unreadable(home, shape)
    done = cli("doctor", "--offline")
    assert done.returncode == 1
    assert "all good" not in done.stdout
    assert "FAIL  history" in done.stdout, done.stdout


def test_a_history_db_linked_out_of_the_root_is_refused_in_one_line(
    home: Path, tmp_path: Path
) -> None:
    """history.db a link to a file outside the data root (put there between a stop and a
    start): sqlite would follow it and make the -wal, the -shm and every turn there, where core's
    watch, backup and restore do not look. Core refuses, naming the link."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    db = _history_made_unreadable(home, "none")  # a folder for now
    db.rmdir()
    HistoryStore.open(outside / "history.db").close()
    db.symlink_to(outside / "history.db")
    before = sorted(p.name for p in outside.iterdir())
    done = cli("run", "--no-chat")
    assert done.returncode == 1, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "history.db is a link" in line, done.stderr
    assert sorted(p.name for p in outside.iterdir()) == before


@pytest.mark.parametrize(
    ("where", "shape", "said"),
    [
        ("state", "a file", "is a file, not a directory"),
        ("memory/vault", "a link", "vault is a link"),
        ("memory/vault", "a file", "vault is not a directory"),
        ("run", "a file", "the run dir (sockets, pid files) is a file"),
        ("memory/people", "a file", "is a file, not the pet's memory folder"),
    ],
)
def test_a_file_or_link_where_the_pet_keeps_a_folder_is_one_line_at_start(
    home: Path, tmp_path: Path, where: str, shape: str, said: str
) -> None:
    """Put there while the pet was stopped. Before: `shelldon run: .../state: File exists`, and
    for the vault `internal error: LayoutError` (exit 70)."""
    (home / "memory").mkdir(parents=True)
    path = home / where
    if shape == "a link":
        (tmp_path / "elsewhere").mkdir()
        path.symlink_to(tmp_path / "elsewhere")
    else:
        path.write_text("someone's file\n")
    done = cli("run", "--no-chat")
    assert done.returncode == 1, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert said in line and "internal error" not in line, done.stderr
    assert "move" in line, line
    if shape == "a file":
        assert path.read_text() == "someone's file\n"


@pytest.mark.parametrize("shape", ["garbage", "a folder", "not TOML"])
def test_a_config_file_that_cannot_be_loaded_is_one_line_before_any_process_starts(
    home: Path, shape: str
) -> None:
    """Before: the fork-server's log line, then `shelldon: forkserver (pid N) exited with status 2
    while starting; stopping the others` as the last word."""
    home.mkdir(parents=True)
    config = home / "shelldon.toml"
    if shape == "a folder":
        config.mkdir()
    else:
        config.write_bytes(os.urandom(300) if shape == "garbage" else b"[[[\n")
    done = cli("run", "--no-chat")
    assert done.returncode == 1, done.stderr
    line = one_line(done.stderr)
    assert line.startswith("shelldon run: ") and "shelldon.toml" in line, line
    assert "doctor" in line, line
