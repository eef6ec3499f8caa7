"""Shared fixtures. Every test gets an injected data root; nothing touches a real home."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider
from support.pet import Pet, running_pet, start_pet
from support.users import TestUser, throwaway_user

REPO_ROOT = Path(__file__).resolve().parents[1]


def _find_shared_data() -> Path:
    """../shared/data beside the clone (or beside any ancestor: worktrees live one level deeper)."""
    override = os.environ.get("SHELLDON_SHARED_DATA")
    if override:
        return Path(override)
    for parent in REPO_ROOT.parents:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return REPO_ROOT.parent / "shared" / "data"


SHARED_DATA = _find_shared_data()

# A suite started in the background by a shell without job control (`cmd &`, `nohup`) inherits
# SIGINT ignored, and every process it starts keeps it ignored across exec: the Ctrl-C tests'
# children then never see their SIGINT. A handler (unlike "ignore") is reset to the default at
# exec, so the children get the Ctrl-C an owner's terminal would send.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--live", action="store_true", help="run tests marked live (real providers)")
    parser.addoption(
        "--live-model", action="store_true", help="run tests marked live_model (a real small model)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_live = pytest.mark.skip(reason="live provider test: opt in with --live")
    skip_live_model = pytest.mark.skip(reason="real small model: `just live-model` (--live-model)")
    skip_drill = pytest.mark.skip(reason="a long kill drill: run `just drill` (-m drill)")
    drills_selected = "drill" in (config.getoption("-m") or "")
    for item in items:
        if "live" in item.keywords and not config.getoption("--live"):
            item.add_marker(skip_live)
        if "live_model" in item.keywords and not config.getoption("--live-model"):
            item.add_marker(skip_live_model)
        if "drill" in item.keywords and not drills_selected:
            item.add_marker(skip_drill)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point SHELLDON_HOME at a fresh temporary directory for every test."""
    home = tmp_path / "shelldon-home"
    monkeypatch.setenv("SHELLDON_HOME", str(home))
    monkeypatch.delenv("SHELLDON_RUN_DIR", raising=False)
    monkeypatch.delenv("SHELLDON_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "fake-user-home"))
    yield home


@pytest.fixture
def home() -> Path:
    return Path(os.environ["SHELLDON_HOME"])


@pytest.fixture
def run_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short run dir for the sockets: AF_UNIX paths are limited to 108 bytes and pytest's tmp
    paths are long."""
    path = Path(tempfile.mkdtemp(prefix="shd-", dir="/tmp"))
    os.chmod(path, 0o755)
    monkeypatch.setenv("SHELLDON_RUN_DIR", str(path))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    """The fake LLM provider on 127.0.0.1, answering only requests that carry FAKE_KEY."""
    with FakeProvider(require_key=FAKE_KEY) as server:
        yield server


@pytest.fixture
def keyless_fake(home: Path) -> Iterator[FakeProvider]:
    """A fake provider that needs no key (no vault entry to store), and the pet's home set to
    use it alone, retries off: a hostile brain's turns each reach it once."""
    with FakeProvider() as server:
        home.mkdir(parents=True, exist_ok=True)
        (home / "shelldon.toml").write_text(server.provider_table(retries=0))
        yield server


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or skip: third-party data is never copied into the project."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"third-party data not present at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture
def pet(run_dir: Path) -> Iterator[Pet]:
    """A real `shelldon run` (core, broker, fork-server) on the test's data root."""
    with running_pet() as pet:
        yield pet


@pytest.fixture
def world_home(monkeypatch: pytest.MonkeyPatch, run_dir: Path) -> Iterator[Path]:
    """SHELLDON_HOME under /tmp, 0755: a dropped worker (`nobody`) can traverse it, which it
    cannot do under pytest's tmp dirs (0700)."""
    home = Path(tempfile.mkdtemp(prefix="shelldon-home-", dir="/tmp"))
    os.chmod(home, 0o755)
    monkeypatch.setenv("SHELLDON_HOME", str(home))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def worker_user() -> Iterator[TestUser]:
    """A throwaway worker account for this pytest run (root only; see tests/support/users.py)."""
    if os.geteuid() != 0:
        pytest.skip("needs root (CI runs as root): creates a throwaway worker user")
    with throwaway_user("worker") as user:
        yield user


@pytest.fixture(scope="session")
def stranger_user() -> Iterator[TestUser]:
    """A third uid, neither the service's nor the worker's: the data and sockets must refuse it."""
    if os.geteuid() != 0:
        pytest.skip("needs root (CI runs as root): creates a throwaway third user")
    with throwaway_user("stranger") as user:
        yield user


@pytest.fixture
def guarded_pet(world_home: Path, worker_user: TestUser, fake: FakeProvider) -> Iterator[Pet]:
    """The appliance's shape: workers dropped to the run's own worker user, the fake provider's
    key in the vault (the broker rebuilds its chain once the key is stored)."""
    (world_home / "shelldon.toml").write_text(
        fake.provider_table(key="llm_key", retries=0)
        + '\n[[provider]]\nname = "offline"\nkind = "offline"\n'
    )
    pet = start_pet({"SHELLDON_WORKER_USER": worker_user.name})
    try:
        stored = pet.cli("vault", "set", "llm_key", stdin=FAKE_KEY + "\n")
        assert stored.returncode == 0, stored.stderr
        yield pet
    finally:
        pet.stop()
