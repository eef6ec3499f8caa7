"""The Telegram transport through the real processes: `shelldon run` with the poller in the broker,
a fake Bot API on 127.0.0.1 speaking Telegram's wire format, the owner's phone played by the fake."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.fake_telegram import FakeTelegram
from procs_support import Pet, start_pet
from telegram_support import OWNER, STRANGER, configure, pair, polling, turns, wait_reply

from shelldon.contracts.commands import OWNER_COMMANDS
from shelldon.core.telegram_chat import PAIR_HOW, REFUSAL, TEXT_ONLY


@pytest.fixture
def fake() -> Iterator[FakeTelegram]:
    with FakeTelegram() as tg:
        yield tg


@pytest.fixture
def tg_pet(run_dir: Path, fake: FakeTelegram) -> Iterator[Pet]:
    configure(fake)
    pet = start_pet()
    try:
        yield pet
    finally:
        if pet.proc.poll() is None:
            pet.stop()


def test_pairing_then_a_turn_from_the_phone(tg_pet: Pet, fake: FakeTelegram) -> None:
    polling(fake)
    assert fake.webhook_deletes == [False]  # pending updates kept
    assert [c["command"] for c in fake.commands or []] == [n for n, _ in OWNER_COMMANDS]
    out = pair(tg_pet, fake)
    assert f"https://t.me/{fake.bot_username}?start=" in out
    status = tg_pet.cli("status")
    assert f"telegram: paired with chat {OWNER}" in status.stdout
    assert f"telegram: polling as @{fake.bot_username}" in status.stdout

    before = len(fake.sent_to(OWNER))
    fake.text(OWNER, "hello there, my name is Robin")
    reply = wait_reply(fake, OWNER, before)
    assert len(reply) == 1 and reply[0].strip()
    assert all(m["parse_mode"] is None for m in fake.sent)  # plain text
    assert any(a == {"chat_id": OWNER, "action": "typing"} for a in fake.actions)
    rows = turns(tg_pet.root)
    assert ("owner", "hello there, my name is Robin") in rows
    assert ("pet", reply[0]) in rows
