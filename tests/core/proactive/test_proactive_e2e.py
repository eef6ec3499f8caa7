"""The pet speaks first, through the real processes: a reminder set by the offline brain, listed
and cancelled from the command line; one that came due while the pet was off, shown by the next
terminal chat (marked late), offered again to a client that fetched it without acknowledging,
then delivered once and kept in the history."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.contracts import wire
from shelldon.contracts.ops import Remind
from shelldon.core.history.store import HistoryStore, open_readonly
from shelldon.core.proactive.owner_time import Clocks
from shelldon.core.proactive.reminders import Book
from shelldon.paths import DataRoot
from shelldon.transport.terminal import ask_core
from support.pet import start_pet


def test_a_reminder_set_in_a_turn_is_listed_and_cancelled(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Europe/Lisbon")  # the system's zone, for the pet and the CLI
    pet = start_pet()
    try:
        said = pet.cli("say", "remind me tomorrow at 9 to call mum")
        assert said.returncode == 0, said.stderr
        assert said.stdout.strip() == "Okay, I'll remind you tomorrow at 09:00 to call mum."
        pet.settled()  # the reminder is stored after the reply; `reminders` reads history.db
        listed = pet.cli("reminders")
        assert listed.returncode == 0, listed.stderr
        assert re.search(r"#1 \w{3} \d+ \w{3} 09:00: call mum", listed.stdout), listed.stdout
        assert "(Europe/Lisbon)" in listed.stdout
        status = pet.cli("status")
        assert "time zone: Europe/Lisbon (the system's; not set)" in status.stdout
        assert "reminders: 1 pending" in status.stdout
        bad = pet.cli("timezone", "Europe/Lisbn")
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1
        assert bad.stderr.startswith("shelldon timezone: unknown time zone 'Europe/Lisbn'")
        assert pet.cli("timezone", "Asia/Tokyo").returncode == 0
        assert "time zone: Asia/Tokyo" in pet.cli("status").stdout  # core reads it afresh
        cancelled = pet.cli("reminders", "cancel", "1")
        assert cancelled.stdout.strip() == "Cancelled reminder #1: call mum"
        assert pet.cli("reminders").stdout.startswith("No reminders set.")
        # A short one, fired by the running ticker (woken by the turn that set it).
        soon = pet.cli("say", "remind me in 2 seconds to stretch")
        assert soon.stdout.strip() == "Okay, I'll remind you in 2 seconds to stretch."
        pet.wait_for_log(r"reminder \d+ fired \(queue item \d+\)")
        chat = pet.cli("chat", stdin="/quit\n")
        assert "shelldon> Reminder: stretch\n" in chat.stdout
    finally:
        assert pet.stop() == 0, pet.log


def test_one_due_while_off_reaches_the_next_chat_late_and_once(run_dir: Path) -> None:
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    set_at = datetime.now(UTC) - timedelta(hours=3)
    store = HistoryStore.open(root.history_db)
    clocks = Clocks(wall=lambda: set_at, synced=lambda: True)
    Book(store, clocks).add_op(Remind(text="call mum", in_seconds=600), now=set_at)
    store.close()

    pet = start_pet()
    try:
        # Fired at start, before core said it was ready: it is waiting now.
        fetched = ask_core(root, wire.ProactiveFetch())
        assert isinstance(fetched, wire.ProactiveBatch)
        [item] = fetched.items
        assert item.late and item.kind == "reminder"
        # That client never acknowledged (it died): the chat gets the same item.
        chat = pet.cli("chat", stdin="/quit\n")
        assert chat.returncode == 0, chat.stderr
        assert f"shelldon> {item.text}" in chat.stdout
        assert "while I was off): call mum" in item.text
        again = pet.cli("chat", stdin="/quit\n")
        assert "call mum" not in again.stdout  # delivered once
    finally:
        assert pet.stop() == 0, pet.log
    reader = open_readonly(root.history_db)
    try:
        rows = [r for r in reader.recent(20) if r["turn_id"] == f"proactive-{item.id}"]
    finally:
        reader.close()
    assert [(r["role"], r["content"]) for r in rows] == [("pet", item.text)]


def test_after_a_long_silence_the_pet_checks_in_from_memory(run_dir: Path) -> None:
    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    # No quiet hours, so the test does not depend on the hour it runs at.
    root.config.write_text('[proactive]\nquiet_start = "00:00"\nquiet_end = "00:00"\n')
    pet = start_pet()
    try:
        said = pet.cli("say", "my sister is called Ana")
        assert said.returncode == 0, said.stderr
    finally:
        assert pet.stop() == 0, pet.log
    # Three days pass in silence: the owner's rows are moved back (history.db is plain sqlite).
    store = HistoryStore.open(root.history_db)
    with store.writing() as conn:
        old = (datetime.now(UTC) - timedelta(days=3)).isoformat()
        conn.execute("UPDATE messages SET ts = ?", (old,))
    store.close()

    pet = start_pet({"SHELLDON_RECORD_PROMPTS": "1"})
    try:
        pet.wait_for_log(r"check-in checkin-\S+ queued as item \d+")
        chat = pet.cli("chat", stdin="/quit\n")
        assert "shelldon> Hi! It's been a little while. How is Ana, your sister?" in chat.stdout
        status = pet.cli("status")
        assert "check-in: not now (last check-in" in status.stdout
    finally:
        assert pet.stop() == 0, pet.log
    prompts = (root.state / "prompts.jsonl").read_text()
    assert '"purpose": "checkin"' in prompts and "The owner last wrote 3 days ago." in prompts


def test_a_reminder_to_mail_records_is_kept_through_the_real_pet(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner's errand ("email the member list to ...") was refused by the records rule
    while the pet said it would remind (docs/gate-design.md, "Owner lines wrongly refused")."""
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    pet = start_pet()
    try:
        said = pet.cli(
            "say", "remind me tomorrow at 9 to email the member list to secretary@ourclub.example"
        )
        assert said.returncode == 0, said.stderr
        assert said.stdout.startswith("Okay, I'll remind you tomorrow at 09:00"), said.stdout
        pet.settled()
        listed = pet.cli("reminders")
        assert "email the member list to secretary@ourclub.example" in listed.stdout, listed.stdout
    finally:
        assert pet.stop() == 0, pet.log
