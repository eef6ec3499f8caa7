"""Core's in-process tests."""

from __future__ import annotations

import pytest

from shelldon.core.history import store


@pytest.fixture(autouse=True)
def search_has_room(monkeypatch: pytest.MonkeyPatch) -> None:
    """What recall finds is checked here, not how fast: a search under the product's 0.2 s budget
    returned nothing once on a loaded CI machine (test_recall's stemming case). Handles made in a
    core test get 30 s; the budget itself is tested with an explicit one
    (tests/core/history/test_history.py::test_search_budget_interrupts_and_returns_empty)."""
    monkeypatch.setattr(store, "SEARCH_BUDGET_S", 30.0)
