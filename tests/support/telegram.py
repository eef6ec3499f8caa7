"""The Telegram tests' shared steps: a pet configured for the fake Bot API, pairing, reading the
history core recorded."""

from __future__ import annotations

import re
import sqlite3

from fakes.fake_telegram import FakeTelegram
from shelldon.core.telegram.chat import PAIRED
from shelldon.core.vault import set_secret
from shelldon.paths import DataRoot
from support.pet import Pet, Units

OWNER = 5550001
STRANGER = 5550002


def configure(
    fake: FakeTelegram,
    *,
    token: str | None = None,
    poll_timeout: int = 5,
    request_timeout: float = 3.0,
    extra: str = "",
    api_base: str | None = None,
) -> DataRoot:
    """shelldon.toml pointing the poller at `fake`, and the bot token in the vault (the way core
    stores it for `shelldon vault set`)."""
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    root.config.write_text(
        "[telegram]\n"
        f'api_base = "{api_base or fake.api_base}"\n'
        f"poll_timeout = {poll_timeout}\n"
        f"request_timeout = {request_timeout}\n"
        "backoff_cap = 2.0\n" + extra
    )
    set_secret(root.vault, "telegram_token", token if token is not None else fake.token)
    return root


def polling(fake: FakeTelegram, timeout: float = 60.0) -> None:
    assert fake.wait_until(lambda f: bool(f.calls_of("getUpdates")), timeout), "never polled"


def pair(pet: Pet, fake: FakeTelegram, chat: int = OWNER, *, via: str = "/start") -> str:
    """`shelldon telegram pair`, then the code sent from `chat` (as the deep link would)."""
    polling(fake)
    out = pet.cli("telegram", "pair")
    assert out.returncode == 0, out.stderr
    code = re.search(r"/pair ([A-Z0-9]+)", out.stdout)
    assert code is not None, out.stdout
    fake.text(chat, f"{via} {code.group(1)}")
    assert fake.wait_until(lambda f: PAIRED in f.sent_to(chat)), fake.sent
    return out.stdout


def start_paired(units: Units, fake: FakeTelegram) -> None:
    """Start the three units one by one, then pair OWNER through them."""
    for name in ("broker", "forkserver", "core"):
        units.start(name)
    polling(fake)
    out = units.cli("telegram", "pair")
    assert out.returncode == 0, out.stderr
    fake.text(OWNER, f"/start {out.stdout.split('/pair ')[1].split()[0]}")
    assert fake.wait_until(lambda f: f.sent_to(OWNER) == [PAIRED])


def turns(root: DataRoot) -> list[tuple[str, str]]:
    """(role, content) of every history row, oldest first."""
    conn = sqlite3.connect(f"{root.history_db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT role, content FROM messages ORDER BY id").fetchall()
    finally:
        conn.close()


def wait_reply(fake: FakeTelegram, chat: int, after: int, timeout: float = 60.0) -> list[str]:
    """The messages sent to `chat` once more than `after` have been."""
    assert fake.wait_until(lambda f: len(f.sent_to(chat)) > after, timeout), fake.sent
    return fake.sent_to(chat)[after:]
