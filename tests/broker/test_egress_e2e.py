"""The real pet (core, broker, fork-server, a worker) talking to an HTTP provider on 127.0.0.1.

What only whole processes can show: the key goes from the vault to the broker and out in one
header, and nowhere else — not in the prompt, any file of the data root outside the vault, any log,
nor the memory of core, the fork-server or the worker (read from /proc/<pid>/mem while the turn is
held mid-flight), while the broker's own memory holds it (the positive control that proves the scan
can see a key). A configuration the broker cannot honour stops the start-up with a clear message.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fakes.fake_provider import FAKE_KEY, FakeProvider, hold, reply, status
from shelldon.core.turn.apply import DEGRADE_TEXT
from shelldon.paths import DataRoot
from support.files import file_contents
from support.pet import Pet, running_pet, start_pet, start_to_exit
from support.providers import store_key

REPLY = "Ana is a lovely name for a sister!"


def configure(
    home: Path, fake: FakeProvider, *, key: str = "llm_key", kind: str = "openai"
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        fake.provider_table(kind=kind, key=key, retries=0)
        + '\n[[provider]]\nname = "offline"\nkind = "offline"\n'
    )


def memory_holds(pid: int, needle: bytes) -> bool:
    """Whether any readable mapping of process `pid` contains `needle` (raises PermissionError)."""
    found = False
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            name = fields[5] if len(fields) > 5 else ""
            if not fields[1].startswith("r") or name in ("[vvar]", "[vsyscall]", "[vvar_vclock]"):
                continue
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            if needle in chunk:
                found = True
                break
    return found


def peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmHWM for {pid}")


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(x) for x in text.split()]


def files_holding(root: Path, needle: bytes, *, skip: Path) -> list[str]:
    return [
        str(path.relative_to(root))
        for path, data in file_contents(root)
        if skip not in path.parents and needle in data
    ]


def test_the_broker_stays_within_its_memory_budget(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    """The broker's budget (DESIGN.md): 30 MiB, its high-water mark after turns over HTTP. Not
    measured in the test below: reading a process's memory through /proc/<pid>/mem faults its
    file-backed pages in, and on Python 3.13 (one 7 MB static interpreter binary) that alone adds
    ~7 MiB to the broker's RSS (docs/brain.md)."""
    store_key(home)
    configure(home, fake)
    fake.script(reply(REPLY), reply(REPLY))
    with running_pet() as pet:
        for text in ("my sister is called Ana", "and my brother is Bruno"):
            assert pet.say(text) == REPLY
        broker_peak_kib = peak_rss_kib(pet.pid_of("broker"))
    assert len(fake.requests) == 2
    print(f"broker peak RSS after two HTTP turns: {broker_peak_kib / 1024:.1f} MiB")
    assert broker_peak_kib <= 30 * 1024, f"broker peak RSS {broker_peak_kib} KiB"


def test_the_key_stays_in_the_broker_through_a_real_turn(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    store_key(home)
    configure(home, fake)
    ops = [{"op": "remember", "collection": "people", "name": "ana", "content": "Sister: Ana."}]
    fake.script(hold(reply(REPLY, ops=ops, usage=(321, 12))))
    pet: Pet = start_pet()
    try:
        say = subprocess.Popen(
            [sys.executable, "-m", "shelldon", "say", "my sister is called Ana"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert fake.wait_held(60), f"no request reached the provider:\n{pet.log}"
        # The turn is frozen mid-flight: the worker is waiting on the broker, which is waiting
        # on the provider. Now look inside every process.
        scans: dict[str, bool] = {}
        try:
            forkserver = pet.pid_of("forkserver")
            workers = children(forkserver)
            assert workers, "no worker in flight"
            scans["broker"] = memory_holds(pet.pid_of("broker"), FAKE_KEY.encode())
            scans["core"] = memory_holds(pet.pid_of("core"), FAKE_KEY.encode())
            scans["forkserver"] = memory_holds(forkserver, FAKE_KEY.encode())
            for worker in workers:
                scans[f"worker {worker}"] = memory_holds(worker, FAKE_KEY.encode())
        except PermissionError:
            scans = {}
        finally:
            fake.release()
        out, err = say.communicate(timeout=60)
        assert say.returncode == 0, err
        assert REPLY in out
    finally:
        pet.stop()

    (sent,) = fake.requests
    assert sent.headers["authorization"] == f"Bearer {FAKE_KEY}"
    assert "my sister is called Ana" in sent.user_text()
    assert FAKE_KEY.encode() not in sent.body
    assert FAKE_KEY not in repr({k: v for k, v in sent.headers.items() if k != "authorization"})
    assert not files_holding(home, FAKE_KEY.encode(), skip=DataRoot.resolve().vault)
    assert not files_holding(run_dir, FAKE_KEY.encode(), skip=DataRoot.resolve().vault)
    assert FAKE_KEY not in pet.log and FAKE_KEY not in out + err
    if not scans:
        pytest.skip("cannot read the processes' memory here (ptrace restrictions)")
    assert scans.pop("broker") is True, "positive control: the broker must hold the key"
    assert not any(scans.values()), f"the key leaked into: {[n for n, v in scans.items() if v]}"


def _start_fails() -> str:
    done = start_to_exit()
    assert done.returncode != 0, done.stderr
    return done.stderr


def test_a_missing_key_skips_its_provider_until_vault_set_stores_it(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    """The set-up dead end: a key named in shelldon.toml but not stored yet. The pet starts
    anyway (the provider skipped, said in status and in the reply), and `shelldon vault set`
    while it runs brings the provider in without a restart."""
    configure(home, fake, key="never_stored")
    fake.script(reply(REPLY))
    pet = start_pet()
    try:
        status = pet.cli("status")
        first = pet.cli("say", "my sister is called Ana")
        stored = pet.cli("vault", "set", "never_stored", stdin=FAKE_KEY + "\n")
        second = pet.cli("say", "my sister is called Ana")
    finally:
        pet.stop()
    skipped = "its key is not stored yet (`shelldon vault set never_stored`)"
    assert f"provider fake skipped: {skipped}" in status.stdout
    assert first.returncode == 0, first.stderr
    assert f"my model link is down: {skipped}" in first.stdout
    assert stored.returncode == 0, stored.stderr
    assert second.stdout.strip() == REPLY
    assert len(fake.requests) == 1


def test_an_unknown_provider_kind_stops_the_start(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    configure(home, fake, kind="gpt")
    log = _start_fails()
    assert re.search(r"shelldon\.toml: provider 'fake': unknown provider kind 'gpt'", log), log


def test_every_provider_failing_gives_the_degrade_reply_and_the_next_turn_works(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    store_key(home)
    home.joinpath("shelldon.toml").write_text(
        fake.provider_table(key="llm_key", retries=1, backoff=0.01)
    )
    fake.script(status(503), status(500), reply("back again"))
    pet = start_pet()
    try:
        first = pet.cli("say", "hello?")
        second = pet.cli("say", "hello again")
    finally:
        pet.stop()
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(DEGRADE_TEXT)
    assert "my model link is down: it had an error on its side (500)" in first.stdout
    assert second.stdout.strip() == "back again"
    assert len(fake.requests) == 3  # one try and one retry, then the next turn's request
    assert "fake: server (HTTP 503" in pet.log  # why, in the broker's log


def last_turn(pet: Pet) -> dict[str, object]:
    done = pet.cli("status", "--json")
    assert done.returncode == 0, done.stderr
    turn: dict[str, object] = json.loads(done.stdout)["last_turn"]
    return turn


def test_a_hung_provider_does_not_starve_the_offline_brain(run_dir: Path, home: Path) -> None:
    """[a server that never answers, offline], the provider's timeout longer than the turn: the
    turn's deadline leaves the offline brain its time, so the owner gets its answer, not the
    degrade reply."""
    with FakeProvider() as fake:  # no key asked: a local server
        _hung_then_offline(home, fake)


def _hung_then_offline(home: Path, fake: FakeProvider) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        fake.provider_table(timeout=120)
        + '\n[[provider]]\nname = "offline"\nkind = "offline"\n'
        # The file's turn fits the timeout (checked at load); the turn the test runs is 8 s.
        + "\n[worker]\nturn_timeout = 130\n"
    )
    fake.script(hold(max_seconds=120))
    pet = start_pet({"SHELLDON_TURN_DEADLINE": "8"})
    try:
        said = pet.cli("say", "hello there")
        turn = last_turn(pet)
    finally:
        fake.release()
        pet.stop()
    assert said.returncode == 0, said.stderr
    assert DEGRADE_TEXT not in said.stdout
    assert (turn["provider"], turn["outcome"]) == ("offline", "ok")
    assert "my model link is down: it did not answer in time" in said.stdout
    assert len(fake.requests) == 1  # the hung server was not asked again inside the turn


def test_a_refused_key_is_told_once_in_the_reply_and_shown_in_status(
    run_dir: Path, home: Path, fake: FakeProvider
) -> None:
    configure(home, fake)
    # `vault set` with the pet down: written directly, 0600.
    stored = subprocess.run(
        [sys.executable, "-m", "shelldon", "vault", "set", "llm_key"],
        input="sk-wrong-0000000000000000\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert stored.returncode == 0, stored.stderr
    assert "not running" in stored.stdout
    pet = start_pet()
    try:
        first = pet.cli("say", "hello")
        second = pet.cli("say", "hello again")
        status = pet.cli("status")
    finally:
        pet.stop()
    told = "my model link is down: the key was refused (401). `shelldon doctor` has details"
    assert first.returncode == 0, first.stderr
    assert told in first.stdout
    assert "model link" not in second.stdout  # once per kind of failure
    assert re.search(r"model link: fake down since \S+: the key was refused \(401\)", status.stdout)
    assert len(fake.requests) == 2
