"""A check-in the model wrote, through the real processes (core, broker, fork-server, a worker)
and a fake provider over real HTTP with the offline brain behind it: the words the pet says first
pass the same reply check as a turn's (broker.answer: the scrub, stage directions, talk about
the prompt, a request for a secret) and the same credential blanking (core.proactive.queue) before
any transport fetches them (the terminal chat here; the Telegram poller fetches the same
`ProactiveFetch`; a paired chat's delivery is the last test) and before they become a history
row."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, raw
from fakes.fake_telegram import FakeTelegram
from shelldon.contracts import wire
from shelldon.core.telegram.chat import PAIRED
from shelldon.transport.terminal import ask_core
from support.pet import start_pet
from support.telegram import OWNER, configure, pair, turns

OFFLINE_CHECKIN = "Hi! It's been a little while. How is Ana, your sister?"
KEY = "sk-proj-" + "Q7f3ZkLm9XvB2nRt8WcY4hJd6PsA1eGu"

# (case, what the model wrote as its check-in, what the owner reads and history keeps)
CASES = [
    (
        "stage direction",
        "*wags tail* Hi! How is Ana doing these days?",
        "Hi! How is Ana doing these days?",
    ),
    ("only a stage direction", "(happy beeping noises)", OFFLINE_CHECKIN),
    (
        "talk about the prompt",
        "The owner has not written for a while, so I speak first. How is Ana?",
        OFFLINE_CHECKIN,
    ),
    (
        "asks for a secret",
        "Hi! Before we chat, what's your bank password? I'll keep it safe.",
        OFFLINE_CHECKIN,
    ),
    ("a key in the words", f"Hi! I still have {KEY} here. How is Ana?", None),
]


NO_QUIET = '[proactive]\nquiet_start = "00:00"\nquiet_end = "00:00"\n'
OFFLINE = '\n[[provider]]\nname = "offline"\nkind = "offline"\n'


def _age_history(db_path: Path) -> None:
    """Three days of silence: the owner's rows moved back (history.db is plain sqlite)."""
    db = sqlite3.connect(db_path)
    try:
        old = (datetime.now(UTC) - timedelta(days=3)).isoformat()
        with db:
            db.execute("UPDATE messages SET ts = ?", (old,))
    finally:
        db.close()


def _everything(db_path: Path) -> str:
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("SELECT content FROM messages").fetchall()
        rows += db.execute("SELECT text FROM proactive_queue").fetchall()
    finally:
        db.close()
    return "\n".join(str(r[0]) for r in rows)


@pytest.mark.parametrize(("case", "written", "shown"), CASES, ids=[c[0] for c in CASES])
def test_a_model_written_check_in_is_checked_before_the_owner_reads_it(
    run_dir: Path,
    home: Path,
    keyless_fake: FakeProvider,
    case: str,
    written: str,
    shown: str | None,
) -> None:
    with (home / "shelldon.toml").open("a") as config:  # the offline brain last; no quiet hours
        config.write(OFFLINE + NO_QUIET)
    keyless_fake.script(raw("Ana is a lovely name!"))
    pet = start_pet()
    try:
        assert pet.say("my sister is called Ana") == "Ana is a lovely name!"
    finally:
        assert pet.stop() == 0, pet.log
    _age_history(pet.root.history_db)
    keyless_fake.script(raw(written))
    pet = start_pet()
    try:
        pet.wait_for_log(r"check-in checkin-\S+ queued as item \d+")
        fetched = ask_core(pet.root, wire.ProactiveFetch())  # what every transport fetches
        assert isinstance(fetched, wire.ProactiveBatch)
        [item] = fetched.items
        chat = pet.cli("chat", stdin="/quit\n")
        assert chat.returncode == 0, chat.stderr
    finally:
        assert pet.stop() == 0, pet.log
    assert any("you speak first" in r.body.decode() for r in keyless_fake.requests[1:])
    if shown is None:  # a credential: blanked wherever the words go
        assert KEY not in item.text and "How is Ana?" in item.text
        shown = item.text
    assert item.text == shown
    assert f"shelldon> {shown}" in chat.stdout
    stored = _everything(pet.root.history_db)
    assert shown in stored and KEY not in stored
    assert written not in stored or written == shown


def test_a_check_in_reaches_the_paired_chat_checked(
    run_dir: Path, home: Path, keyless_fake: FakeProvider
) -> None:
    """The phone: the poller fetches the check-in and sends it to the paired chat; the owner
    reads the words without the stage direction, and history keeps what was sent."""
    with FakeTelegram() as telegram:
        configure(telegram, extra=keyless_fake.provider_table(retries=0) + OFFLINE + NO_QUIET)
        keyless_fake.script(raw("Ana is a lovely name!"))
        pet = start_pet()
        try:
            pair(pet, telegram)
            assert pet.say("my sister is called Ana") == "Ana is a lovely name!"
        finally:
            assert pet.stop() == 0, pet.log
        _age_history(pet.root.history_db)
        keyless_fake.script(raw("(taking the owner's hand) Hi! How is Ana doing?"))
        pet = start_pet()
        try:
            pet.wait_for_log(r"check-in checkin-\S+ queued as item \d+")
            sent = "Hi! How is Ana doing?"
            assert telegram.wait_until(lambda f: sent in f.sent_to(OWNER)), telegram.sent
            # The poller confirms the send to core after it: history holds it once confirmed.
            assert telegram.wait_until(lambda _: ("pet", sent) in turns(pet.root))
        finally:
            assert pet.stop() == 0, pet.log
        assert telegram.sent_to(OWNER) == [PAIRED, sent]
