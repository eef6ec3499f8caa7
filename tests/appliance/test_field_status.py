"""appliance.field_status: the lines `shelldon status` adds on a card, from real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shelldon.appliance.field_status import SECURITY_ENV, status_lines
from support.releases import flashed_card, release_tree


def test_nothing_where_there_are_no_releases(tmp_path: Path) -> None:
    assert status_lines(tmp_path / "nothing") == []


def test_a_trial_and_the_security_run_are_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    card = flashed_card(tmp_path, "1.0")
    card.install(release_tree(tmp_path, "2.0"), "2.0")
    card.begin_trial("2.0")
    security = tmp_path / "security.json"
    security.write_text(json.dumps({"at": "2026-12-02T03:12:00Z", "result": "ok", "upgraded": 2,
                                    "pending": 1, "reboot_required": True}))  # fmt: skip
    monkeypatch.setenv(SECURITY_ENV, str(security))
    lines = status_lines(card.root)
    assert lines[0] == "version: 2.0 (fallback 1.0)"
    assert lines[1].startswith("update: 2.0 on trial since ")
    assert lines[2] == "last update: none since the card was flashed"
    assert lines[3] == (
        "security updates: last run 2026-12-02T03:12:00Z (ok), 2 upgraded, 1 pending, "
        "a reboot is needed"
    )
    card.keep()
    assert status_lines(card.root)[1].endswith(" kept 1.0 -> 2.0")
