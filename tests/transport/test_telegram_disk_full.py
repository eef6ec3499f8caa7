"""A write that fails after the reply is told in the paired Telegram chat too, through the real
processes and the fake Bot API over HTTP: the memory tree on a small tmpfs filled until ENOSPC
(root only, as tests/core/storage/test_disk_full.py; CI runs as root).

A terminal turn whose write fails: the chat gets the notice once, and the terminal's next reply
says it too. A Telegram turn whose write fails: the chat gets the notice once, and the chat's
next reply does not repeat it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_telegram import FakeTelegram
from support.disk import fill, memory_files, small_tmpfs
from support.pet import Pet, start_pet
from support.telegram import OWNER, configure, pair, wait_reply

NOTICE = "could not be stored"


@pytest.fixture
def memory_on_a_small_tmpfs(home: Path) -> Iterator[Path]:
    with small_tmpfs(home / "memory") as memory:
        yield memory


def told_in_chat(fake: FakeTelegram) -> int:
    return sum(NOTICE in text for text in fake.sent_to(OWNER))


def chat_turn(fake: FakeTelegram, text: str) -> str:
    before = len(fake.sent_to(OWNER))
    fake.text(OWNER, text)
    return "\n".join(wait_reply(fake, OWNER, before))


def test_a_failed_write_is_told_in_the_paired_chat(
    memory_on_a_small_tmpfs: Path, run_dir: Path, fake: FakeTelegram
) -> None:
    memory = memory_on_a_small_tmpfs
    configure(fake)
    pet: Pet = start_pet()
    try:
        pair(pet, fake)
        pet.say("my sister is called Ana")
        pet.say("hello")  # one turn at a time: the previous one's ops are applied by now
        assert "sister is called Ana" in memory_files(memory), pet.log[-3000:]

        # A terminal turn's write fails after its reply: the phone hears of it by itself.
        filler = fill(memory)
        assert NOTICE not in pet.say("my brother is called Tom")
        assert fake.wait_until(lambda f: told_in_chat(f) == 1), fake.sent_to(OWNER)
        assert "brother is called Tom" not in memory_files(memory)
        assert NOTICE in pet.say("how are you?")  # and the next reply here says it too

        # Space returns, a write goes through: the fault clears.
        filler.unlink()
        pet.say("my mother is called Eva")
        pet.say("thanks")
        assert "mother is called Eva" in memory_files(memory)
        assert "last write failed" not in pet.cli("status").stdout

        # A Telegram turn's write fails: the chat hears it once, its next reply does not repeat it.
        fill(memory)
        assert NOTICE not in chat_turn(fake, "my cousin is called Rui")
        assert fake.wait_until(lambda f: told_in_chat(f) == 2), fake.sent_to(OWNER)
        assert NOTICE not in chat_turn(fake, "are you there?")
        assert told_in_chat(fake) == 2
        assert "last write failed" in pet.cli("status").stdout
    finally:
        pet.stop()
