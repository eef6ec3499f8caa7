"""The date a recall query names (core/history/recall_dates.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from shelldon.core.history.recall_dates import DateWindow, window

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)  # a Sunday


def _day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I say yesterday?", _day(2026, 11, 28), _day(2026, 11, 29)),
        ("anything today", _day(2026, 11, 29), _day(2026, 11, 30)),
        ("What did we do LAST WEEK", _day(2026, 11, 16), _day(2026, 11, 23)),
        ("this week so far", _day(2026, 11, 23), _day(2026, 11, 30)),
        ("last month's trip", _day(2026, 10, 1), _day(2026, 11, 1)),
        ("three days ago", _day(2026, 11, 26), _day(2026, 11, 27)),
        ("2 weeks ago", _day(2026, 11, 9), _day(2026, 11, 16)),
        ("a year ago", _day(2025, 1, 1), _day(2026, 1, 1)),
        ("on Monday", _day(2026, 11, 23), _day(2026, 11, 24)),
        ("last sunday", _day(2026, 11, 22), _day(2026, 11, 23)),
        ("back in March 2025", _day(2025, 3, 1), _day(2025, 4, 1)),
        ("in December, 2025", _day(2025, 12, 1), _day(2026, 1, 1)),
        ("what happened in 2024?", _day(2024, 1, 1), _day(2025, 1, 1)),
    ],
)
def test_ranges(query: str, start: datetime, end: datetime) -> None:
    assert window(query, NOW) == DateWindow(start, end)


@pytest.mark.parametrize(
    ("query", "month"),
    [("camping in June?", 6), ("in May", 5), ("May 5th", 5), ("the 3rd of May", 5), ("july", 7)],
)
def test_a_month_without_a_year_is_that_month_of_any_year(query: str, month: int) -> None:
    found = window(query, NOW)
    assert found == DateWindow(month=month)
    assert found is not None
    assert found.contains(f"2019-{month:02d}-10T12:00:00+00:00")
    assert not found.contains(f"2019-{month % 12 + 1:02d}-10T12:00:00+00:00")


@pytest.mark.parametrize("query", ["may I ask you something", "I may go", "tell me about tea", ""])
def test_no_date(query: str) -> None:
    assert window(query, NOW) is None


def test_relative_dates_are_read_in_nows_timezone() -> None:
    lisbon_evening = datetime(2026, 11, 29, 23, 30, tzinfo=timezone(timedelta(hours=1)))
    found = window("yesterday", lisbon_evening)
    assert found is not None
    assert found.contains("2026-11-28T12:00:00+00:00")
    assert found.contains("2026-11-28T22:30:00+00:00")  # 23:30 on the 28th there: yesterday
    assert not found.contains("2026-11-28T23:30:00+00:00")  # 00:30 on the 29th there: today
    assert not found.contains("garbage")
