"""Step 8's two halves together, through the real processes and the fake Bot API: what the pet says
first reaches the paired chat (the poller's ProactiveFetch -> sendMessage -> ProactiveDelivered),
once, and not the terminal; with no chat paired it waits for the terminal; the broker killed in
the middle of a delivery loses nothing; the owner sets, lists and cancels reminders and uses
/quiet and /timezone from the phone."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_telegram import FakeTelegram
from shelldon.contracts import wire
from shelldon.core.telegram.chat import PAIRED
from shelldon.paths import DataRoot
from shelldon.transport.terminal import ask_core
from support.pet import Pet, Units, start_pet
from support.telegram import OWNER, configure, pair, polling, start_paired, turns, wait_reply

# Longer than any step of these tests: a send the fake holds stays in flight until released.
HELD_SEND_TIMEOUT = 120.0


def queue(root: DataRoot) -> list[tuple[str, str | None]]:
    """(text, channel) of every proactive item, oldest first; channel None: not delivered."""
    conn = sqlite3.connect(f"{root.history_db.as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT text, channel FROM proactive_queue ORDER BY id").fetchall()
    finally:
        conn.close()
    return [(str(text), channel) for text, channel in rows]


def reminded(fake: FakeTelegram, text: str, times: int = 1) -> None:
    """Wait until the owner's chat has got the reminder `text` `times` times."""
    line = f"Reminder: {text}"
    assert fake.wait_until(lambda f: f.sent_to(OWNER).count(line) >= times), fake.sent_to(OWNER)


def terminal_chat(pet: Pet) -> str:
    chat = pet.cli("chat", stdin="/quit\n")
    assert chat.returncode == 0, chat.stderr
    return chat.stdout


def test_a_reminder_goes_to_the_paired_chat_once_and_never_to_the_terminal(
    run_dir: Path, fake: FakeTelegram
) -> None:
    configure(fake, request_timeout=HELD_SEND_TIMEOUT)
    pet = start_pet()
    try:
        pair(pet, fake)
        fake.hang("sendMessage")  # the reminder's send is held at Telegram, in flight
        assert pet.say("remind me in 2 seconds to stretch") == (
            "Okay, I'll remind you in 2 seconds to stretch."
        )
        assert fake.wait_until(lambda f: f.held == 1)  # fired, fetched by the poller, on its way
        assert queue(pet.root) == [("Reminder: stretch", None)]
        # While it is pending, the terminal is offered nothing: the phone is where it goes.
        assert "Reminder" not in terminal_chat(pet)
        fetched = ask_core(pet.root, wire.ProactiveFetch())
        assert isinstance(fetched, wire.ProactiveBatch) and fetched.items == ()
        # The terminal cannot claim a delivery to the phone either.
        claimed = ask_core(pet.root, wire.ProactiveDelivered(ids=(1,), channel="telegram"))
        assert isinstance(claimed, wire.Refused)
        fake.release()  # the send is cut unanswered: nothing delivered; offered again
        reminded(fake, "stretch")
        # A second one, sent after the first was confirmed: had the first been offered again,
        # it would have gone out before this one.
        pet.say("remind me in 2 seconds to drink water")
        reminded(fake, "drink water")
        assert fake.sent_to(OWNER) == [PAIRED, "Reminder: stretch", "Reminder: drink water"]
        # Confirmed before the next fetch (the second one's confirmation may still be on its way).
        assert queue(pet.root)[0] == ("Reminder: stretch", "telegram")
        assert ("pet", "Reminder: stretch") in turns(pet.root)  # what the owner was told
        assert "Reminder" not in terminal_chat(pet)
    finally:
        assert pet.stop() == 0, pet.log


def test_with_no_chat_paired_the_item_waits_for_the_terminal(
    run_dir: Path, fake: FakeTelegram
) -> None:
    configure(fake)
    pet = start_pet()
    try:
        polling(fake)
        pet.say("remind me in 2 seconds to stretch")
        pet.wait_for_log(r"reminder \d+ fired \(queue item \d+\)")
        assert "shelldon> Reminder: stretch\n" in terminal_chat(pet)
        assert queue(pet.root) == [("Reminder: stretch", "terminal")]
        # Paired afterwards: the phone gets what comes next, not what the terminal showed.
        pair(pet, fake)
        pet.say("remind me in 2 seconds to drink water")
        reminded(fake, "drink water")
        assert fake.sent_to(OWNER) == [PAIRED, "Reminder: drink water"]
    finally:
        assert pet.stop() == 0, pet.log


def test_an_item_telegram_refuses_stays_pending_and_holds_up_nothing(
    run_dir: Path, fake: FakeTelegram
) -> None:
    configure(fake)
    pet = start_pet()
    try:
        pair(pet, fake)
        fake.fail("sendMessage", 403, "Forbidden: bot was blocked by the user")
        pet.say("remind me in 2 seconds to stretch")
        assert fake.wait_until(lambda f: any(c.fault for c in f.calls_of("sendMessage")))
        pet.say("remind me in 2 seconds to drink water")
        reminded(fake, "drink water")
        assert fake.sent_to(OWNER) == [PAIRED, "Reminder: drink water"]
        assert queue(pet.root)[0] == ("Reminder: stretch", None)  # not lost: kept for later
        pet.wait_for_log("proactive item 1 not delivered: sendMessage: 403 Forbidden")
    finally:
        assert pet.stop() == 0, pet.log


def test_reminders_quiet_and_timezone_from_the_phone(run_dir: Path, fake: FakeTelegram) -> None:
    configure(fake)
    pet = start_pet()
    try:
        pair(pet, fake)

        def ask(text: str) -> str:
            before = len(fake.sent_to(OWNER))
            fake.text(OWNER, text)
            [answer] = wait_reply(fake, OWNER, before)
            return answer

        assert ask("/timezone Asia/Tokyo").startswith("Time zone set to Asia/Tokyo: it's ")
        assert ask("/timezone").endswith("time zone Asia/Tokyo.")
        assert "time zone: Asia/Tokyo\n" in pet.cli("status").stdout

        rows = turns(pet.root)
        assert ask("remind me in 1 minute to stretch") == (
            "Okay, I'll remind you in 1 minute to stretch."
        )
        assert turns(pet.root)[len(rows) :] == [
            ("owner", "remind me in 1 minute to stretch"),
            ("pet", "Okay, I'll remind you in 1 minute to stretch."),
        ]
        listed = ask("/reminders").splitlines()
        assert listed[0] == "Your reminders (Asia/Tokyo):"
        assert listed[1].startswith("#1 ") and listed[1].endswith(": stretch")
        assert listed[2] == "(/reminders cancel N cancels one)"
        assert ": stretch" in pet.cli("reminders").stdout  # stored in history.db
        assert ask("/reminders cancel 1") == "Cancelled reminder #1: stretch"
        assert ask("/reminders").startswith("No reminders set.")

        quiet = ask("/quiet")
        assert quiet.startswith("Okay, I'll keep quiet until ") and "(Asia/Tokyo)" in quiet
        assert "check-in: not now (paused by /quiet until" in pet.cli("status").stdout
        assert ask("/quiet off") == "Check-ins are back on."
        assert "paused by /quiet" not in pet.cli("status").stdout

        # One set from the phone fires into the phone (a reminder fires whatever /quiet says).
        assert ask("/quiet").startswith("Okay, I'll keep quiet")
        fake.text(OWNER, "remind me in 2 seconds to drink water")
        reminded(fake, "drink water")
        sent = fake.sent_to(OWNER)
        assert sent.count("Okay, I'll remind you in 2 seconds to drink water.") == 1
        assert sent.count("Reminder: drink water") == 1
        # The commands took no turn: the two reminder requests are the only owner rows.
        assert [c for r, c in turns(pet.root) if r == "owner"] == [
            "remind me in 1 minute to stretch",
            "remind me in 2 seconds to drink water",
        ]
    finally:
        assert pet.stop() == 0, pet.log


# --- the broker killed in the middle of a delivery ------------------------------------------------


def _say(units: Units, text: str) -> None:
    said = units.cli("say", text)
    assert said.returncode == 0 and said.stdout.startswith("Okay, I'll remind you"), said


@pytest.fixture
def units(run_dir: Path, fake: FakeTelegram) -> Iterator[Units]:
    root = configure(fake, poll_timeout=2, request_timeout=HELD_SEND_TIMEOUT)
    started = Units(root)
    try:
        start_paired(started, fake)
        yield started
    finally:
        started.stop_all()


@pytest.mark.parametrize("taken", [False, True], ids=["send-cut", "sent-unconfirmed"])
def test_killed_between_sending_and_recording_the_delivery_nothing_is_lost(
    units: Units, fake: FakeTelegram, taken: bool
) -> None:
    fake.hang("sendMessage", taken=taken)
    _say(units, "remind me in 2 seconds to stretch")
    assert fake.wait_until(lambda f: f.held == 1)  # the poller is inside sendMessage
    units.kill("broker")  # SIGKILL: ProactiveDelivered never goes
    fake.release()
    # Taken: Telegram delivered it, but nobody told core. Cut: nothing was delivered.
    assert fake.sent_to(OWNER) == [PAIRED] + ["Reminder: stretch"] * taken
    assert queue(units.root) == [("Reminder: stretch", None)]  # still pending: not lost
    units.start("broker")
    reminded(fake, "stretch", times=1 + taken)  # offered again by the new broker
    _say(units, "remind me in 2 seconds to drink water")
    reminded(fake, "drink water")
    # Sent once after the restart; the taken case is the documented window: one duplicate.
    expected = [PAIRED] + ["Reminder: stretch"] * (1 + taken) + ["Reminder: drink water"]
    assert fake.sent_to(OWNER) == expected
    assert queue(units.root)[0] == ("Reminder: stretch", "telegram")  # marked once, at last


def test_core_killed_before_it_hears_of_a_delivery_the_item_is_not_sent_again(
    units: Units, fake: FakeTelegram
) -> None:
    fake.hold("sendMessage")  # Telegram is slow to answer the reminder's send
    _say(units, "remind me in 2 seconds to stretch")
    assert fake.wait_until(lambda f: f.held == 1)
    units.kill("core")
    fake.release()  # delivered and answered; core is not there to hear ProactiveDelivered
    reminded(fake, "stretch")
    units.start("core")  # the item is still pending in history.db
    _say(units, "remind me in 2 seconds to drink water")
    reminded(fake, "drink water")
    # The poller told the new core first what it had sent, and did not send it again.
    assert fake.sent_to(OWNER) == [PAIRED, "Reminder: stretch", "Reminder: drink water"]
    assert queue(units.root)[0] == ("Reminder: stretch", "telegram")
