"""The transport tests' fake Bot API (it stands in for the top-level `fake` model provider here)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fakes.fake_telegram import FakeTelegram


@pytest.fixture
def fake() -> Iterator[FakeTelegram]:
    with FakeTelegram() as tg:
        yield tg
