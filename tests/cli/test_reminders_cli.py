"""`shelldon reminders` and `shelldon timezone` on the data root's history.db, core not running."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelldon.cli import main
from shelldon.contracts.ops import Remind
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time
from shelldon.core.proactive.reminders import Book
from shelldon.paths import DataRoot
from support.proactive import T0, FakeClock


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_nothing_is_created_before_the_pet_ran(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "reminders")
    assert code == 0 and out == ""
    code, _, err = run(capsys, "timezone", "Europe/Lisbon")
    assert code == 1 and "start the pet once" in err
    assert not DataRoot.resolve().history_db.exists()


def test_list_cancel_and_set_the_zone(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home.mkdir(parents=True)
    store = HistoryStore.open(DataRoot.resolve().history_db)
    Book(store, FakeClock().clocks).add_op(
        Remind(text="call mum", at="2026-05-06T09:00", zone="Europe/Lisbon"), now=T0
    )
    store.close()
    code, out, _ = run(capsys, "reminders")
    assert code == 0 and "#1 Wed 6 May 09:00" in out and out.rstrip().endswith("cancels one)")
    code, _, err = run(capsys, "timezone", "Europe/Lisbn")
    assert code == 2 and err.count("\n") == 1 and "unknown time zone 'Europe/Lisbn'" in err
    code, out, _ = run(capsys, "timezone", "Europe/Lisbon")
    assert code == 0 and out.startswith("time zone set to Europe/Lisbon")
    code, out, _ = run(capsys, "timezone")
    assert code == 0 and out.startswith("Europe/Lisbon (set with shelldon timezone)")
    code, _, err = run(capsys, "reminders", "cancel", "x")
    assert code == 2 and "give its number" in err
    for odd in ("9" * 24, "³"):  # was exit 70: no sqlite INTEGER; no number to int()
        code, _, err = run(capsys, "reminders", "cancel", odd)
        assert code == 2 and err.count("\n") == 1 and "give its number" in err, (odd, err)
    code, out, _ = run(capsys, "reminders", "cancel", "1")
    assert code == 0 and out.strip() == "Cancelled reminder #1: call mum"
    code, out, _ = run(capsys, "reminders", "cancel", "1")
    assert code == 1 and "no pending reminder #1" in out
    store = HistoryStore.open(DataRoot.resolve().history_db)
    assert owner_time.owner_zone(store) == "Europe/Lisbon"
    store.close()
