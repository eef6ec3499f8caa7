"""The README's set-up on a newcomer's box: a clean Debian 13 root with only python3, python3-venv
and Debian's cargo (`image/base.sh newcomer`, cached like the image's layers), a copy of this clone
in it (what `git clone` would give, plus uncommitted work), and the README's own commands typed as
root and as an ordinary user: the first `./just run` says what it builds and shows cargo's
progress, then the chat answers "hello" with the offline brain; a second `./just dev` prints
nothing; as root the README's test command runs too (Rust tests, then pytest on one file).

Network: the box fetches just and the Python tools from PyPI and the crates from crates.io, as a
newcomer's machine does. Each user's first build is a real one (minutes; more under load)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from imagetools import IMAGE, REPO, machine_name, need_root, need_tools

pytestmark = pytest.mark.debian_root

HERE = Path(__file__).parent
USER = "newcomer"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROXY_VARS = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
# One quick file of the suite for the README's test command: the gate's rule examples through the
# freshly built extension.
PYTEST_SAMPLE = "tests/core/test_gate_rules.py"


def readme_commands() -> list[str]:
    """The commands of the README's first code block, without their comments."""
    text = (REPO / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no ```sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def in_box(box: Path, *cmd: str, user: str = "root", cwd: str = "/", timeout: float = 1800):
    """cmd in the box as user (a container sharing the host's network, nothing else: systemd-nspawn
    sets HOME and a clean environment, as a login does). stdout: the command's stdout and stderr
    together; stderr: nspawn's own messages."""
    passed = [f"--setenv={v}={os.environ[v]}" for v in PROXY_VARS if v in os.environ]
    return subprocess.run(
        [
            "systemd-nspawn", "-q", "--register=no", "--keep-unit", "--console=pipe",
            f"--machine={machine_name('newcomer')}", "-D", str(box), f"--user={user}",
            f"--chdir={cwd}", *passed, "--", "sh", "-c", 'exec "$0" "$@" 2>&1', *cmd,
        ],
        capture_output=True, stdin=subprocess.DEVNULL, text=True, errors="replace",
        timeout=timeout,
    )  # fmt: skip


def clone_files() -> list[str]:
    """What a clone has (tracked files) plus uncommitted work, never .venv, target/ or a host build
    of the extension (git's ignore rules keep those out)."""
    r = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    )
    names = [n.decode() for n in r.stdout.split(b"\0") if n]
    return [n for n in names if (REPO / n).is_file() or (REPO / n).is_symlink()]


def copy_clone(dest: Path) -> None:
    dest.mkdir(parents=True)
    listing = "\0".join(clone_files()).encode()
    pack = subprocess.Popen(
        ["tar", "-C", str(REPO), "--null", "-T", "-", "-cf", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    unpack = subprocess.Popen(["tar", "-C", str(dest), "-xf", "-"], stdin=pack.stdout)
    assert pack.stdout is not None and pack.stdin is not None
    pack.stdout.close()
    pack.stdin.write(listing)
    pack.stdin.close()
    assert pack.wait() == 0 and unpack.wait() == 0


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_root()
    if os.environ.get("CI") == "true":
        subprocess.run([str(IMAGE / "deps.sh"), "check"], check=True)
    need_tools("mmdebstrap", "systemd-nspawn", "git", "tar")
    if not (REPO / ".git").exists():
        pytest.skip("not a git clone: the box gets the clone's files from git ls-files")
    tar = subprocess.run(
        [str(IMAGE / "base.sh"), "newcomer"], stdout=subprocess.PIPE, text=True, check=True
    ).stdout.strip()
    root = tmp_path_factory.mktemp("newcomer") / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-xpf", tar], check=True)
    # A box behind the same TLS-inspecting proxy as this host would trust the proxy's CA: give it
    # the host's local trust anchors (an ordinary CI host has none, and this copies nothing).
    local_cas = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    if local_cas:
        for ca in local_cas:
            shutil.copy(ca, root / "usr/local/share/ca-certificates" / ca.name)
        r = in_box(root, "update-ca-certificates")
        assert r.returncode == 0, r.stdout + r.stderr
    r = in_box(root, "useradd", "--create-home", "--shell", "/bin/bash", USER)
    assert r.returncode == 0, r.stdout + r.stderr
    copy_clone(root / "root/shelldon")
    copy_clone(root / f"home/{USER}/shelldon")
    r = in_box(root, "chown", "-R", f"{USER}:{USER}", f"/home/{USER}/shelldon")
    assert r.returncode == 0, r.stdout + r.stderr
    shutil.copy(HERE / "readme_chat.py", root / "usr/local/bin/readme_chat.py")
    return root


def first_run(box: Path, user: str, clone: str) -> str:
    """The README's first command, typed on a terminal in a fresh clone: chat "hello", /quit."""
    command = readme_commands()[0]
    assert command == "./just run", f"README's first command changed: {command!r}; update this test"
    start = time.monotonic()
    r = in_box(
        box, "python3", "/usr/local/bin/readme_chat.py", "1500", *command.split(),
        user=user, cwd=clone,
    )  # fmt: skip
    seen = ANSI.sub("", r.stdout)
    print(f"{user}: first `{command}` took {time.monotonic() - start:.0f} s")
    assert r.returncode == 0, seen[-6000:] + r.stderr
    return seen


def check_first_run(seen: str) -> None:
    # It says what it does and how long, and cargo's progress shows.
    assert "./just: creating .venv" in seen, seen[-6000:]
    assert "shelldon setup: installing the Python tools" in seen, seen[-6000:]
    assert "shelldon setup: building the Rust extension" in seen, seen[-6000:]
    assert re.search(r"Compiling shelldon-native v", seen), seen[-6000:]
    # No pip noise: PEP 668's refusal, the root warning, the extras markers.
    for noise in ("externally-managed-environment", "Running pip as the 'root' user", "Ignoring "):
        assert noise not in seen, seen[-6000:]
    # The chat answered with the offline brain.
    reply = re.search(r"^shelldon> (.+)$", seen, re.M)
    assert reply and reply.group(1).strip(), seen[-6000:]


def check_set_up(box: Path, user: str, clone: str) -> None:
    r = in_box(box, "./just", "dev", user=user, cwd=clone)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == "", f"a no-op `./just dev` printed:\n{r.stdout}"
    r = in_box(box, ".venv/bin/shelldon", "--help", user=user, cwd=clone)
    assert r.returncode == 0 and "usage: shelldon" in r.stdout, r.stdout + r.stderr


def test_readme_first_command_as_root(box):
    seen = first_run(box, "root", "/root/shelldon")
    check_first_run(seen)
    check_set_up(box, "root", "/root/shelldon")


def test_readme_test_command_as_root(box):
    """`./just test` (after the first command's set-up, or doing it itself when run alone): cargo's
    tests link without libpython (Debian has it only in python3-dev), then pytest on one file."""
    command = readme_commands()[1]
    assert command == "./just test", f"README's test command changed: {command!r}; update this test"
    r = in_box(box, *command.split(), "-q", PYTEST_SAMPLE, cwd="/root/shelldon")
    out = ANSI.sub("", r.stdout)
    assert r.returncode == 0, out[-6000:] + r.stderr
    assert re.search(r"test result: ok\. \d+ passed", out), out[-6000:]
    assert re.search(r"^\d+ passed", out.split("test result:")[-1], re.M), out[-6000:]


def test_readme_first_command_as_an_ordinary_user(box):
    clone = f"/home/{USER}/shelldon"
    seen = first_run(box, USER, clone)
    check_first_run(seen)
    check_set_up(box, USER, clone)
