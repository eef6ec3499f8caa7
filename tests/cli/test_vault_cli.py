"""`shelldon vault set` works whether or not the pet runs, and never replaces a key unasked."""

from __future__ import annotations

import os
import pty
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.pet import Pet


def vault_set(key: str, value: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shelldon", "vault", "set", key, *flags],
        input=value + "\n", capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def entry(home: Path, key: str) -> Path:
    return home / "memory" / "vault" / f"{key}.md"


def test_vault_set_with_the_pet_down_writes_the_key_0600(home: Path, run_dir: Path) -> None:
    """It answered "shelldon is not running" before, so a key could never be stored first."""
    done = vault_set("groq_key", "gsk-first-0000000000")
    assert done.returncode == 0, done.stderr
    assert "not running" in done.stdout
    path = entry(home, "groq_key")
    assert path.read_text() == "gsk-first-0000000000"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    listed = subprocess.run(
        [sys.executable, "-m", "shelldon", "vault", "list"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert listed.stdout.split() == ["groq_key"]


def test_an_existing_key_is_replaced_only_with_replace(home: Path, run_dir: Path) -> None:
    assert vault_set("groq_key", "gsk-first-0000000000").returncode == 0
    again = vault_set("groq_key", "gsk-second-000000000")
    assert again.returncode == 1
    assert "'groq_key' is already stored; nothing changed (--replace overwrites it)" in again.stderr
    assert entry(home, "groq_key").read_text() == "gsk-first-0000000000"
    replaced = vault_set("groq_key", "gsk-second-000000000", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert entry(home, "groq_key").read_text() == "gsk-second-000000000"


def test_an_existing_key_is_refused_through_the_running_pet_too(pet: Pet) -> None:
    assert pet.cli("vault", "set", "k", stdin="first-value\n").returncode == 0
    again = pet.cli("vault", "set", "k", stdin="second-value\n")
    assert again.returncode == 1 and "already stored" in again.stderr
    assert entry(pet.root.home, "k").read_text() == "first-value"


def read_until(fd: int, needle: bytes, timeout: float = 30.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {needle!r}; got {seen!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_at_a_terminal_it_asks_before_replacing(home: Path, run_dir: Path) -> None:
    assert vault_set("groq_key", "gsk-first-0000000000").returncode == 0
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "shelldon", "vault", "set", "groq_key"],
        stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True,
    )  # fmt: skip
    os.close(terminal)
    try:
        read_until(controller, b"replace it? [y/N]")
        os.write(controller, b"y\n")
        read_until(controller, b"value (not echoed):")
        os.write(controller, b"gsk-asked-0000000000\n")
        assert proc.wait(timeout=60) == 0
    finally:
        os.close(controller)
        if proc.poll() is None:
            proc.kill()
    assert entry(home, "groq_key").read_text() == "gsk-asked-0000000000"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands a file to another uid")
def test_root_hands_the_key_to_the_service_user(home: Path, run_dir: Path) -> None:
    """On the card the broker runs as the service user: a key root wrote must be its."""
    home.mkdir(parents=True)
    os.chown(home, 65534, 65534)
    assert vault_set("groq_key", "gsk-first-0000000000").returncode == 0
    for path in (entry(home, "groq_key"), entry(home, "groq_key").parent):
        st = path.stat()
        assert (st.st_uid, st.st_gid) == (65534, 65534), path
