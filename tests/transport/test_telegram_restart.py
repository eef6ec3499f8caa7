"""The drill: the broker killed between core recording a reply and Telegram taking it, and killed
while a turn runs. The reply arrives once; the turn runs once; nothing is lost."""

from __future__ import annotations

from pathlib import Path

from fakes.fake_provider import FakeProvider, hold
from fakes.fake_telegram import FakeTelegram
from shelldon.core.telegram.chat import PAIRED
from support.pet import Units
from support.telegram import OWNER, configure, start_paired, turns, wait_reply


def _settled(fake: FakeTelegram, update_id: int) -> None:
    """The new broker polled past `update_id` after its outbox was sent: a duplicate, if there
    were one to send, would have gone before that poll."""
    assert fake.wait_until(
        lambda f: (
            any(c.payload.get("offset", 0) > update_id for c in f.calls_of("getUpdates"))
            and update_id not in f.pending
        )
    )
    polls = len(fake.calls_of("getUpdates"))
    assert fake.wait_until(lambda f: len(f.calls_of("getUpdates")) > polls)


def test_killed_between_recording_and_sending_the_reply_arrives_once(
    run_dir: Path, fake: FakeTelegram
) -> None:
    root = configure(fake, poll_timeout=2)
    units = Units(root)
    try:
        start_paired(units, fake)
        fake.hang("sendMessage")
        update = fake.text(OWNER, "the drill is at noon")
        assert fake.wait_until(lambda f: f.held == 1)  # recorded by core, on its way out
        recorded = turns(root)
        assert ("owner", "the drill is at noon") in recorded
        reply = recorded[-1][1]
        units.kill("broker")  # SIGKILL: no goodbye, the send cut off
        fake.release()  # the cut request was never answered: nothing was delivered
        assert fake.sent_to(OWNER) == [PAIRED]
        assert update in fake.pending  # never acknowledged
        units.start("broker")
        assert wait_reply(fake, OWNER, 1) == [reply]  # re-sent from the outbox, not recomputed
        _settled(fake, update)
        assert fake.sent_to(OWNER) == [PAIRED, reply]
        assert turns(root) == recorded  # the turn ran once
    finally:
        units.stop_all()


def test_killed_while_the_turn_runs_nothing_is_lost_or_doubled(
    run_dir: Path, fake: FakeTelegram
) -> None:
    with FakeProvider() as brain:
        brain.script(hold())
        root = configure(
            fake,
            poll_timeout=2,
            extra=(
                '\n[[provider]]\nname = "fake"\nkind = "openai"\n'
                f'base_url = "{brain.openai_base_url}"\nmodel = "m"\nretries = 0\n'
            ),
        )
        units = Units(root)
        try:
            start_paired(units, fake)
            update = fake.text(OWNER, "think hard about this")
            assert brain.wait_held()  # the turn is running: the worker waits on the brain
            units.kill("broker")
            brain.release()
            units.start("broker")
            replies = wait_reply(fake, OWNER, 1)
            _settled(fake, update)
            assert fake.sent_to(OWNER)[1:] == replies and len(replies) == 1
            owner_rows = [r for r in turns(root) if r == ("owner", "think hard about this")]
            assert len(owner_rows) == 1  # one turn, whatever it answered
            assert ("pet", replies[0]) in turns(root)
        finally:
            units.stop_all()
