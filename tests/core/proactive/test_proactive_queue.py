"""The proactive queue, the service's wire side, a turn's `remind` op, and the owner commands,
against real stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from shelldon.contracts import wire
from shelldon.contracts.config import ProactiveConfig
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time, reminders
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive import service as proactive
from shelldon.core.proactive.service import ProactiveService
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.core.telegram import state as telegram_state
from shelldon.core.turn.apply import apply_turn
from shelldon.paths import DataRoot
from support.proactive import T0, ZONE, FakeClock


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    root = DataRoot(tmp_path / "home")
    layout.prepare(root)
    opened = Stores.open(root)
    opened.history.set_setting(owner_time.TIMEZONE_SETTING, ZONE, T0)
    yield opened
    opened.history.close()


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


def service(stores: Stores, fake: FakeClock) -> ProactiveService:
    return ProactiveService(
        stores, None, scheduler=None, config=ProactiveConfig(), clocks=fake.clocks
    )


# --- the queue ------------------------------------------------------------------------------------


def test_items_wait_oldest_first_until_delivered_then_join_the_history(stores: Stores) -> None:
    history = stores.history
    first = proactive_queue.enqueue(history, "reminder", "Reminder: call mum", T0)
    second = proactive_queue.enqueue(history, "checkin", "How is Ana?", T0 + timedelta(minutes=1))
    assert [i.id for i in proactive_queue.pending(history)] == [first, second]
    assert history.recent(10) == []  # not told yet: not in the conversation
    assert proactive_queue.delivered(history, (first,), "terminal", T0) == 1
    assert [i.id for i in proactive_queue.pending(history)] == [second]
    [row] = history.recent(10)
    assert (row["role"], row["content"], row["turn_id"]) == (
        "pet",
        "Reminder: call mum",
        f"proactive-{first}",
    )
    assert proactive_queue.delivered(history, (first, 999), "telegram", T0) == 0  # once
    assert len(history.recent(10)) == 1
    assert history.search("mum", 5)[0]["content"] == "Reminder: call mum"  # recall finds it


def test_a_queued_text_has_its_credentials_blanked(stores: Stores) -> None:
    key = "sk-proj-" + "Z7q" * 16
    proactive_queue.enqueue(stores.history, "notice", f"the key was {key}", T0)
    [item] = proactive_queue.pending(stores.history)
    assert key not in item.text and "[secret:" in item.text


def test_an_unknown_channel_or_kind_is_refused(stores: Stores) -> None:
    with pytest.raises(ValueError):
        proactive_queue.delivered(stores.history, (1,), "carrier-pigeon", T0)
    with pytest.raises(ValueError):
        proactive_queue.enqueue(stores.history, "gossip", "x", T0)  # type: ignore[arg-type]


# --- the service --------------------------------------------------------------------------------


def test_start_fires_what_came_due_while_off_then_the_wire_serves_it(
    stores: Stores, fake: FakeClock
) -> None:
    svc = service(stores, fake)
    svc.book.add_op(wire_remind("call mum", in_seconds=600), now=T0)
    fake.advance(hours=5)  # the pet was off
    svc.start()
    try:
        batch = svc.fetch(20, from_terminal=True)
        [item] = batch.items
        assert item.late and item.kind == "reminder" and "call mum" in item.text
        assert svc.fetch(20, from_terminal=True).items == batch.items  # still there: not acked
        assert svc.delivered((item.id,), "terminal") == 1
        assert svc.fetch(20, from_terminal=True).items == ()
    finally:
        svc.stop()


def test_one_door_at_a_time_the_paired_chat_or_the_terminal(
    stores: Stores, fake: FakeClock
) -> None:
    svc = service(stores, fake)
    proactive_queue.enqueue(stores.history, "notice", "hello", T0)
    assert len(svc.fetch(20, from_terminal=True).items) == 1
    assert svc.fetch(20, from_terminal=False).items == ()  # the poller, no chat paired
    with stores.history.writing() as conn:
        code, _ = telegram_state.start_pairing(conn, T0)
        assert telegram_state.try_code(conn, 5550001, code, T0) == "paired"
    assert svc.fetch(20, from_terminal=True).items == ()  # the phone speaks first
    [item] = svc.fetch(20, from_terminal=False).items
    assert item.text == "hello"
    with stores.history.writing() as conn:
        telegram_state.unpair(conn)
    assert svc.fetch(20, from_terminal=False).items == ()  # an unpaired chat is not written to
    assert svc.fetch(20, from_terminal=True).items == (item,)


def test_an_item_always_fits_one_telegram_message(stores: Stores) -> None:
    proactive_queue.enqueue(stores.history, "checkin", "🐢" * 3000, T0)  # 6,000 UTF-16 units
    [item] = proactive_queue.pending(stores.history)
    assert telegram_state.units(item.text) == proactive_queue.MAX_ITEM_UNITS
    assert item.text == "🐢" * (proactive_queue.MAX_ITEM_UNITS // 2)


def test_status_lines_name_the_zone_and_the_next_reminder(stores: Stores, fake: FakeClock) -> None:
    svc = service(stores, fake)
    svc.book.add_op(wire_remind("call mum", at="2026-05-06T09:00"), now=T0)
    lines = svc.status_lines()
    assert "time zone: Europe/Lisbon" in lines
    assert "reminders: 1 pending, next Wed 6 May 09:00" in lines


def wire_remind(text: str, **kwargs: Any) -> Any:
    from shelldon.contracts.ops import Remind

    return Remind(text=text, **kwargs)


# --- a turn's remind op --------------------------------------------------------------------------


def turn(stores: Stores, fake: FakeClock, ops: tuple[Any, ...], turn_id: str = "t1") -> Any:
    emitted: list[str] = []
    outcome = wire.TurnResult(turn_id=turn_id, reply="Okay!", ops=ops, provider="test")
    return apply_turn(
        root=stores.root,
        history=stores.history,
        memory=stores.memory,
        turn_id=turn_id,
        purpose="turn",
        message="remind me",
        outcome=outcome,
        emit=lambda text, degraded: emitted.append(text),
        now=fake.wall,
        book=service(stores, fake).book,
    )


def audit_lines(stores: Stores) -> list[dict[str, Any]]:
    path = stores.root.memory / "history.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_turn_sets_a_reminder_through_core(stores: Stores, fake: FakeClock) -> None:
    result = turn(stores, fake, ({"op": "remind", "text": "call mum", "in_seconds": 1200},))
    [verdict] = result.verdicts
    assert (verdict.op, verdict.action, verdict.reason_code) == ("remind", "created", "reminder")
    [kept] = reminders.pending_reminders(stores.history)
    assert kept.text == "call mum" and kept.due == T0 + timedelta(minutes=20)
    assert any(
        line["op"] == "remind" and line["action"] == "created" for line in audit_lines(stores)
    )


def test_a_past_time_is_refused_audited_and_the_owner_told(stores: Stores, fake: FakeClock) -> None:
    result = turn(stores, fake, ({"op": "remind", "text": "call mum", "at": "2026-05-05T09:00"},))
    [verdict] = result.verdicts
    assert (verdict.action, verdict.reason_code) == ("reject", "past")
    assert reminders.pending_reminders(stores.history) == []
    [notice] = proactive_queue.pending(stores.history)
    assert notice.kind == "notice"
    assert notice.text == (
        'I could not set the reminder "call mum": Tue 5 May 09:00 (Europe/Lisbon) has already '
        "passed."
    )
    assert any(
        line["op"] == "remind" and line["reason_code"] == "past" for line in audit_lines(stores)
    )


def test_a_secret_in_a_reminder_is_refused_and_never_stored(
    stores: Stores, fake: FakeClock
) -> None:
    key = "sk-proj-" + "Z7q" * 16
    result = turn(stores, fake, ({"op": "remind", "text": f"use key {key}", "in_seconds": 60},))
    assert [v.reason_code for v in result.verdicts] == ["secret"]
    assert reminders.pending_reminders(stores.history) == []
    [notice] = proactive_queue.pending(stores.history)
    assert key not in notice.text and "use key" not in notice.text
    home = stores.root.home
    raw = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
    assert key.encode() not in raw


def test_the_cap_refusal_reaches_the_owner(stores: Stores, fake: FakeClock) -> None:
    ops = tuple({"op": "remind", "text": f"thing {n}", "in_seconds": 600} for n in range(4))
    svc = ProactiveService(
        stores, None, scheduler=None, config=ProactiveConfig(max_reminders=3), clocks=fake.clocks
    )
    emitted: list[str] = []
    result = apply_turn(
        root=stores.root,
        history=stores.history,
        memory=stores.memory,
        turn_id="t-cap",
        purpose="turn",
        message="remind me of four things",
        outcome=wire.TurnResult(turn_id="t-cap", reply="Okay!", ops=ops, provider="test"),
        emit=lambda text, degraded: emitted.append(text),
        now=fake.wall,
        book=svc.book,
    )
    assert [v.reason_code for v in result.verdicts] == ["reminder"] * 3 + ["cap"]
    [notice] = proactive_queue.pending(stores.history)
    assert "already have 3 reminders" in notice.text


# --- the owner commands ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ctx:
    stores: Stores
    now: datetime


def test_reminders_command_lists_and_cancels(stores: Stores, fake: FakeClock) -> None:
    ctx = Ctx(stores, T0)
    assert proactive.command_reminders(ctx, "").startswith("No reminders set.")
    book = service(stores, fake).book
    first = book.add_op(wire_remind("call mum", at="2026-05-06T09:00"), now=T0)
    book.add_op(wire_remind("water plants", at="2026-05-11T08:00", repeat="weekly"), now=T0)
    listed = proactive.command_reminders(ctx, "")
    assert f"#{first} Wed 6 May 09:00: call mum" in listed
    assert "every Monday at 08:00 (next Mon 11 May 08:00): water plants" in listed
    assert proactive.command_reminders(ctx, f"cancel {first}") == (
        f"Cancelled reminder #{first}: call mum"
    )
    assert proactive.command_reminders(ctx, f"cancel {first}") == (
        f"There is no pending reminder #{first}."
    )
    assert "call mum" not in proactive.command_reminders(ctx, "")
    # Digits that are no number, or no sqlite INTEGER: asked again, never an exception.
    for odd in ("cancel ³", "cancel " + "9" * 30, "cancel ١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠"):
        assert proactive.command_reminders(ctx, odd).startswith("Which one?"), odd
    assert proactive.command_reminders(ctx, "cancel ٧") == "There is no pending reminder #٧."


def test_timezone_command_shows_sets_and_refuses_an_unknown_zone(stores: Stores) -> None:
    ctx = Ctx(stores, T0)
    assert (
        proactive.command_timezone(ctx, "") == "My clock says Tue 14:00, time zone Europe/Lisbon."
    )
    assert proactive.command_timezone(ctx, "Asia/Tokyo").startswith("Time zone set to Asia/Tokyo")
    assert owner_time.owner_zone(stores.history) == "Asia/Tokyo"
    refused = proactive.command_timezone(ctx, "Europe/Lisbn")
    assert refused.startswith("unknown time zone 'Europe/Lisbn'") and "\n" not in refused
    assert owner_time.owner_zone(stores.history) == "Asia/Tokyo"


def test_quiet_command_pauses_until_the_end_of_the_next_quiet_hours(stores: Stores) -> None:
    from shelldon.core.proactive import checkins

    ctx = Ctx(stores, T0)  # 14:00 in Lisbon: the next quiet hours are tonight 22:00-08:00
    reply = proactive.command_quiet(ctx, "")
    assert "until Wed 6 May 08:00 (Europe/Lisbon)" in reply
    assert checkins.quiet_until(stores.history) == datetime(2026, 5, 6, 7, 0, tzinfo=UTC)
    assert proactive.command_quiet(ctx, "off") == "Check-ins are back on."
    assert checkins.quiet_until(stores.history) is None


def test_the_wire_messages_round_trip() -> None:
    batch = wire.ProactiveBatch(
        items=(
            wire.ProactiveItem(id=3, kind="reminder", text="Reminder: x", created="t", late=True),
        )
    )
    assert wire.decode(wire.encode(batch)) == batch
    acked = wire.ProactiveDelivered(ids=(3, 4), channel="terminal")
    assert wire.decode(wire.encode(acked)) == acked
    assert wire.decode(wire.encode(wire.ProactiveFetch())) == wire.ProactiveFetch(limit=20)


def test_a_history_store_reports_the_zone_to_a_reader(stores: Stores) -> None:
    from shelldon.core.history.store import open_readonly

    reader = open_readonly(stores.root.history_db)
    try:
        assert owner_time.owner_zone(reader) == ZONE
    finally:
        reader.close()
    assert isinstance(stores.history, HistoryStore)


def test_a_reminder_journaled_by_a_killed_core_is_set_once_at_the_next_start(
    stores: Stores, fake: FakeClock
) -> None:
    from shelldon.core.turn import journal
    from shelldon.core.turn.apply import replay_journal

    items = journal.plan([], [{"op": "remind", "text": "call mum", "in_seconds": 1200}])
    stores.history.journal_turn(
        "t-cut", "remind me in 20 minutes to call mum", "Okay!", T0, items=journal.encode(items)
    )
    book = service(stores, fake).book
    assert replay_journal(stores.history, stores.memory, book=book) == 1
    [kept] = reminders.pending_reminders(stores.history)
    assert kept.due == T0 + timedelta(minutes=20)  # from when the owner asked
    assert replay_journal(stores.history, stores.memory, book=book) == 0
    # Even if the journal row had survived (cleared after the kill), the op's source is unique.
    again = book.add_op(wire_remind("call mum", in_seconds=1200), now=T0, source="t-cut:0")
    assert again == kept.id and len(reminders.pending_reminders(stores.history)) == 1
