"""The Telegram poller when the Bot API fails: 5xx, 429 (retry_after honoured), 409 (another
poller on the token), 401 (a revoked token, then a new one), the network gone, DNS failing, a hung
connection. Each backs off, shows in `shelldon status`, leaves the terminal working and recovers by
itself; the token never appears in a log line, an error or a command's output."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_telegram import FakeTelegram
from support.files import file_contents
from support.pet import Pet, running_pet, start_pet
from support.telegram import OWNER, configure, pair, wait_reply

NEW_TOKEN = "123456789:AAGnewTokenAfterRevoke_Qm2Wn3Eb4Rv5Tc6Yx7"


@pytest.fixture
def tg_pet(run_dir: Path, fake: FakeTelegram) -> Iterator[Pet]:
    configure(fake, poll_timeout=3, request_timeout=2.0)
    with running_pet() as pet:
        yield pet


def status_shows(pet: Pet, text: str, timeout: float = 60.0) -> str:
    """`shelldon status` (run again until it shows `text`, within `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        out = pet.cli("status").stdout
        if text in out or time.monotonic() > deadline:
            assert text in out, out
            return out


def answered(pet: Pet, fake: FakeTelegram, text: str) -> str:
    """The owner says `text` on the phone; the pet's one reply."""
    before = len(fake.sent_to(OWNER))
    fake.text(OWNER, text)
    replies = wait_reply(fake, OWNER, before)
    assert len(replies) == 1
    return replies[0]


def terminal_works(pet: Pet) -> None:
    said = pet.cli("say", "are you still there?")
    assert said.returncode == 0 and said.stdout.strip(), said.stderr


def no_token_anywhere(pet: Pet, *texts: str, tokens: tuple[str, ...]) -> None:
    secrets = {t for token in tokens for t in (token, token.split(":", 1)[1])}
    stored = [
        data.decode(errors="replace")
        for path, data in file_contents(pet.root.home)
        if "vault" not in path.parts
    ]
    haystacks = [pet.log, *texts, *stored]
    for secret in secrets:
        assert not any(secret in h for h in haystacks), "the bot token leaked"


def _gap_after(fake: FakeTelegram, fault: str) -> float:
    """Seconds between the getUpdates that met `fault` and the next getUpdates."""
    calls = fake.calls_of("getUpdates")
    index = next(i for i, c in enumerate(calls) if c.fault == fault)
    return calls[index + 1].at - calls[index].at


def test_server_errors_and_flood_control(tg_pet: Pet, fake: FakeTelegram) -> None:
    pair(tg_pet, fake)
    fake.fail("getUpdates", 502, "Bad Gateway", times=2)
    fake.fail("getUpdates", 429, "Too Many Requests: retry after 2", retry_after=2)
    assert fake.wait_until(lambda f: any(c.fault == "fail 429" for c in f.calls_of("getUpdates")))
    status_shows(tg_pet, "telegram: 429 Too Many Requests")
    assert answered(tg_pet, fake, "still with me?")
    assert _gap_after(fake, "fail 429") >= 2.0  # retry_after honoured
    assert "telegram: polling as @" in tg_pet.cli("status").stdout
    no_token_anywhere(tg_pet, tokens=(fake.token,))


def _rival(fake: FakeTelegram, stop: threading.Event) -> None:
    """Another program polling the same token (a second bot instance)."""
    while not stop.is_set():
        request = urllib.request.Request(
            f"{fake.api_base}/bot{fake.token}/getUpdates",
            data=json.dumps({"timeout": 2}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with contextlib.suppress(urllib.error.URLError, OSError):
            urllib.request.urlopen(request, timeout=10).read()


def test_another_poller_on_the_token_shows_as_409_then_recovers(
    tg_pet: Pet, fake: FakeTelegram
) -> None:
    pair(tg_pet, fake)
    stop = threading.Event()
    rival = threading.Thread(target=_rival, args=(fake, stop), daemon=True)
    rival.start()
    try:
        out = status_shows(tg_pet, "telegram: 409 Conflict")
        assert "another program is polling this bot's token" in out
        terminal_works(tg_pet)
    finally:
        stop.set()
        rival.join(timeout=30)
    assert answered(tg_pet, fake, "are you back?")


def test_a_revoked_token_is_401_in_status_and_doctor_until_a_new_one_is_set(
    tg_pet: Pet, fake: FakeTelegram
) -> None:
    pair(tg_pet, fake)
    fake.revoke(NEW_TOKEN)
    status = status_shows(tg_pet, "telegram: 401 Unauthorized")
    assert "shelldon vault set --replace telegram_token" in status
    doctor = tg_pet.cli("doctor")
    assert "401 Unauthorized" in doctor.stdout and doctor.returncode == 1
    terminal_works(tg_pet)
    stored = tg_pet.cli("vault", "set", "--replace", "telegram_token", stdin=NEW_TOKEN + "\n")
    assert stored.returncode == 0, stored.stderr
    status_shows(tg_pet, "telegram: polling as @")
    assert answered(tg_pet, fake, "new token, same pet?")
    doctor = tg_pet.cli("doctor")
    assert "accepted (getMe: @shelldon_test_bot)" in doctor.stdout
    assert f"paired with chat {OWNER}" in doctor.stdout
    no_token_anywhere(tg_pet, status, doctor.stdout, doctor.stderr, tokens=(NEW_TOKEN,))
    old = "123456789:AAHfakeTokenForTests_x9ZqW3e4r5t6y7u8i9"
    no_token_anywhere(tg_pet, status, doctor.stdout, tokens=(old,))


def test_the_network_gone_then_back(tg_pet: Pet, fake: FakeTelegram) -> None:
    pair(tg_pet, fake)
    fake.down()
    status_shows(tg_pet, "telegram: network:")
    terminal_works(tg_pet)
    fake.text(OWNER, "written while the pet was offline")
    fake.up()
    replies = wait_reply(fake, OWNER, 1)
    assert len(replies) == 1
    no_token_anywhere(tg_pet, tokens=(fake.token,))


def test_a_hung_connection_times_out_and_polling_goes_on(tg_pet: Pet, fake: FakeTelegram) -> None:
    pair(tg_pet, fake)
    fake.hang("getUpdates")
    assert fake.wait_until(lambda f: f.held == 1)
    fake.text(OWNER, "hello?")  # waits for a poll the pet starts after giving up on the hung one
    replies = wait_reply(fake, OWNER, 1)
    assert len(replies) == 1
    fake.release()
    assert _gap_after(fake, "hang") >= 3 + 2.0  # the long poll plus the margin, then on


def test_dns_failure_shows_in_status_and_the_pet_works(run_dir: Path, fake: FakeTelegram) -> None:
    configure(fake, api_base="http://bot-api.shelldon.invalid", extra="allow_plain_http = true\n")
    pet = start_pet()
    try:
        out = status_shows(pet, "cannot resolve host")
        terminal_works(pet)
    finally:
        pet.stop()
    no_token_anywhere(pet, out, tokens=(fake.token,))
