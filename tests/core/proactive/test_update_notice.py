"""core.proactive.update_notice: the card's last update, queued once for the paired chat, from the
outcome file the updater writes (real stores, a real releases root made by appliance.releases)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive import update_notice
from shelldon.core.storage import layout
from shelldon.core.stores import Stores
from shelldon.core.telegram import state as telegram_state
from shelldon.paths import DataRoot
from support.proactive import T0
from support.releases import flashed_card, release_tree


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    root = DataRoot(tmp_path / "home")
    layout.prepare(root)
    opened = Stores.open(root)
    yield opened
    opened.history.close()


def _pair(stores: Stores) -> None:
    def pair(conn):  # type: ignore[no-untyped-def]
        code, _ = telegram_state.start_pairing(conn, T0)
        assert telegram_state.try_code(conn, 5550001, code, T0) == "paired"

    stores.history.write(pair)


def _rolled_back_card(tmp_path: Path) -> Path:
    card = flashed_card(tmp_path, "1.0")
    card.install(release_tree(tmp_path, "2.0"), "2.0")
    card.begin_trial("2.0")
    card.roll_back("core did not start")
    return card.root


def test_a_roll_back_is_queued_once_for_the_paired_chat(tmp_path: Path, stores: Stores) -> None:
    _pair(stores)
    releases = _rolled_back_card(tmp_path)
    text = update_notice.queue_update_notice(stores.history, stores.root, T0, releases)
    assert text is not None
    assert "failed its self-test (core did not start)" in text and "back to 1.0" in text
    pending = proactive_queue.pending(stores.history, 10)
    assert [(i.kind, i.text) for i in pending] == [("notice", text)]
    # The next start of core: already told.
    assert update_notice.queue_update_notice(stores.history, stores.root, T0, releases) is None
    assert len(proactive_queue.pending(stores.history, 10)) == 1


def test_unpaired_or_never_updated_queues_nothing(tmp_path: Path, stores: Stores) -> None:
    never = flashed_card(tmp_path / "fresh", "1.0").root
    assert update_notice.queue_update_notice(stores.history, stores.root, T0, never) is None
    releases = _rolled_back_card(tmp_path)
    assert update_notice.queue_update_notice(stores.history, stores.root, T0, releases) is None
    assert proactive_queue.pending(stores.history, 10) == []
    _pair(stores)  # paired later: an old update is not news
    assert update_notice.queue_update_notice(stores.history, stores.root, T0, releases) is None


def test_a_kept_update_is_told_too() -> None:
    text = update_notice.notice_text({"result": "kept", "version": "2.0", "from": "1.0"})
    assert text == "I was updated to shelldon 2.0 (from 1.0); my self-test passed."
    assert update_notice.notice_text({"result": "weird"}) is None
