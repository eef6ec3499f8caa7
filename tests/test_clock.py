"""One time helper: UTC now, one ISO shape written, every shape written before still read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from shelldon.clock import compact, iso, parse_iso

MOMENT = datetime(2026, 11, 29, 21, 0, 5, 123456, tzinfo=UTC)


def test_one_shape_is_written() -> None:
    assert iso(MOMENT) == "2026-11-29T21:00:05Z"
    lisbon_summer = timezone(timedelta(hours=1))
    assert iso(MOMENT.astimezone(lisbon_summer)) == "2026-11-29T21:00:05Z"
    assert compact(MOMENT) == "20261129T210005"


def test_a_time_without_a_zone_is_refused() -> None:
    with pytest.raises(ValueError):
        iso(datetime(2026, 11, 29, 21, 0))


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-29T21:00:05Z",  # front matter, the audit log, and everything now
        "2026-11-29T21:00:05+00:00",  # the scheduler's state and the status, before
        "2026-11-29T21:00:05.123456+00:00",  # history.db rows, before
        "2026-11-29T22:00:05+01:00",  # any offset
        "2026-11-29T21:00:05",  # no zone: UTC
    ],
)
def test_every_shape_written_before_still_reads(text: str) -> None:
    moment = parse_iso(text)
    assert moment.tzinfo is UTC
    assert moment.replace(microsecond=0) == MOMENT.replace(microsecond=0)
    assert iso(moment) == "2026-11-29T21:00:05Z"


def test_what_is_not_a_time_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_iso("yesterday")
