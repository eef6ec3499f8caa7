"""appliance.update: the card's updater as the card runs it (its own copy, `python3 -IS`), on a
temporary /opt/shelldon, with real keys and bundles: refused bundles write nothing, and a process
killed at each step of an update leaves a version that runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from shelldon.appliance import bundle, update
from shelldon.appliance.field_status import SECURITY_ENV
from shelldon.appliance.releases import Releases
from support.releases import Keys, flashed_card, make_bundle, make_keys, runnable, tree_listing

STEPS = ("verified", "staged", "installed", "previous", "trial", "switched")


@pytest.fixture
def card(tmp_path: Path) -> tuple[Releases, Keys, Path, dict[str, str]]:
    releases = flashed_card(tmp_path, "1.0")
    keys = make_keys(tmp_path / "keys")
    agent = update.install_updater(tmp_path / "usr-lib-shelldon")
    data = tmp_path / "var-lib-shelldon"  # the pet's data: no update may touch it
    data.mkdir()
    (data / "history.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 4080)
    env = {**os.environ, "SHELLDON_RELEASES": str(releases.root),
           "SHELLDON_UPDATE_KEY": str(keys.public)}  # fmt: skip
    env.pop(update.STOP_AT_ENV, None)
    return releases, keys, agent, env


def _agent(agent: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(agent), *args], env=env, capture_output=True, text=True, timeout=60)


def test_the_agent_applies_a_signed_bundle_from_its_own_copy(card, tmp_path: Path) -> None:
    releases, keys, agent, env = card
    made = make_bundle(tmp_path, keys, "2.0")
    r = _agent(agent, env, "apply", str(made), "--no-restart")
    assert r.returncode == 0, r.stderr
    assert "step switched" in r.stderr
    assert runnable(releases) == "2.0"
    assert releases.trial()["candidate"] == "2.0"  # type: ignore[index]
    r = _agent(agent, env, "apply", str(made), "--no-restart")
    assert r.returncode == update.EXIT_REFUSED and "already on trial" in r.stderr
    # The copy runs without the package on sys.path (-S: no site, so no shelldon.pth either).
    assert not (agent.parent / "updater" / "shelldon" / "core").exists()


def _tampered(tmp_path: Path, keys: Keys) -> Path:
    made = make_bundle(tmp_path / "t", keys, "2.0")
    with tarfile.open(made) as tar:
        parts = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    payload = bytearray(parts["payload.tar.gz"])
    payload[-40] ^= 0xFF
    out = tmp_path / "tampered.bundle"
    bundle.write_container(out, parts["manifest.json"], parts["manifest.sig"], bytes(payload))
    return out


def _unsigned(tmp_path: Path, keys: Keys) -> Path:
    made = make_bundle(tmp_path / "u", keys, "2.0")
    with tarfile.open(made) as tar:
        parts = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    out = tmp_path / "unsigned.bundle"
    bundle.write_container(out, parts["manifest.json"], None, parts["payload.tar.gz"])
    return out


@pytest.mark.parametrize("kind", ["tampered", "unsigned", "foreign key", "missing"])
def test_a_refused_bundle_writes_nothing(card, tmp_path: Path, kind: str) -> None:
    releases, keys, agent, env = card
    (tmp_path / "t").mkdir()
    (tmp_path / "u").mkdir()
    if kind == "tampered":
        source = str(_tampered(tmp_path, keys))
    elif kind == "unsigned":
        source = str(_unsigned(tmp_path, keys))
    elif kind == "foreign key":
        source = str(make_bundle(tmp_path / "t", make_keys(tmp_path / "other"), "2.0"))
    else:
        source = str(tmp_path / "nowhere.bundle")
    before = tree_listing(releases.root), tree_listing(tmp_path / "var-lib-shelldon")
    r = _agent(agent, env, "apply", source, "--no-restart")
    assert r.returncode == update.EXIT_REFUSED, r.stderr
    assert "refused" in r.stderr and "Traceback" not in r.stderr
    assert "step" not in r.stderr  # not even verified
    assert (tree_listing(releases.root), tree_listing(tmp_path / "var-lib-shelldon")) == before
    assert runnable(releases) == "1.0"


def test_a_refused_bundle_on_the_fat_partition_is_set_aside(card, tmp_path: Path) -> None:
    releases, keys, agent, env = card
    (tmp_path / "t").mkdir()
    fat = tmp_path / "fat"
    fat.mkdir()
    _tampered(tmp_path, keys).rename(fat / "shelldon-update.bundle")
    before = tree_listing(releases.root)
    r = _agent(agent, {**env, update.FAT_ENV: str(fat / "shelldon-update.bundle")}, "fat")
    assert r.returncode == update.EXIT_REFUSED, r.stderr
    assert sorted(p.name for p in fat.iterdir()) == ["shelldon-update.bundle.refused"]
    assert tree_listing(releases.root) == before
    r = _agent(agent, {**env, update.FAT_ENV: str(fat / "shelldon-update.bundle")}, "fat")
    assert r.returncode == 0  # nothing dropped: nothing to do


@pytest.mark.parametrize("stop_at", STEPS)
def test_a_kill_at_each_step_leaves_a_version_that_runs(card, tmp_path: Path, stop_at: str) -> None:
    releases, keys, agent, env = card
    made = make_bundle(tmp_path, keys, "2.0")
    data_before = tree_listing(tmp_path / "var-lib-shelldon")
    proc = subprocess.Popen(
        [str(agent), "apply", str(made), "--no-restart"],
        env={**env, update.STOP_AT_ENV: stop_at}, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    for line in proc.stderr:  # the agent stops itself (SIGSTOP) right after this line
        if line.strip() == f"shelldon-update: step {stop_at}":
            break
    else:
        raise AssertionError(f"the agent ended before step {stop_at}: exit {proc.wait()}")
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    said = _agent(agent, env, "boot")  # the next boot, before the pet starts
    assert said.returncode == 0, said.stderr
    expected = "2.0" if stop_at == "switched" else "1.0"
    assert runnable(releases) == expected
    assert not list(releases.releases_dir.glob(".staging-*"))
    assert not releases.updating_file.exists()  # the boot unit's cue is gone with the work
    if stop_at == "switched":
        assert "on trial, boot 1" in said.stderr
    else:
        assert releases.trial() is None
    assert tree_listing(tmp_path / "var-lib-shelldon") == data_before
    # And the card still takes the update afterwards (or is already on it).
    again = _agent(agent, env, "apply", str(made), "--no-restart")
    if expected == "1.0":
        assert again.returncode == 0, again.stderr
        assert runnable(releases) == "2.0"
    else:
        assert again.returncode == update.EXIT_REFUSED and "already on trial" in again.stderr


def test_the_boot_check_imports_nothing_of_the_bundle_side(card) -> None:
    """`boot` runs before the pet at every boot with an update pending: it stays light."""
    _, _, agent, env = card
    updater = agent.parent / "updater"
    heavy = ("tarfile", "urllib.request", "ssl", "hashlib")
    code = (
        f"import sys; sys.path.insert(0, {str(updater)!r}); "
        "from shelldon.appliance.update import main; rc = main(['boot']); "
        f"print(rc, sorted(m for m in {heavy!r} if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-IS", "-c", code], env=env, capture_output=True, text=True)
    assert r.stdout.strip() == "0 []", r.stdout + r.stderr


def test_status_lines_say_the_version_and_the_last_update(card, tmp_path: Path) -> None:
    releases, keys, agent, env = card
    made = make_bundle(tmp_path, keys, "2.0")
    assert _agent(agent, env, "apply", str(made), "--no-restart").returncode == 0
    releases.roll_back("core did not answer")
    r = _agent(agent, {**env, SECURITY_ENV: str(tmp_path / "none.json")}, "status")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "version: 1.0 (fallback 1.0)"
    assert lines[1].endswith("rolled back 2.0 -> 1.0: core did not answer")
    assert lines[2].startswith("security updates: not run yet")


def test_the_updater_explains_itself_when_python_drops_docstrings() -> None:
    """PYTHONOPTIMIZE=2 runs the pet's services (app.Supervisor.start); an owner's shell that sets
    it must not turn `shelldon update --help` into a traceback."""
    done = subprocess.run(
        [sys.executable, "-OO", "-m", "shelldon.appliance.update", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "make-bundle" in done.stdout
