"""appliance.releases: the switch, the trial, the roll-back, the boot's recovery, on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shelldon.appliance.releases import MAX_TRIAL_BOOTS, ReleaseError, Releases
from support.releases import flashed_card, release_tree, runnable


def _install(releases: Releases, where: Path, version: str, **kw: object) -> None:
    tree = release_tree(where, version, **kw)  # type: ignore[arg-type]
    releases.install(tree, version)


def test_a_kept_update_runs_the_new_version_and_keeps_the_old_one_as_fallback(
    tmp_path: Path,
) -> None:
    card = flashed_card(tmp_path, "1.0")
    _install(card, tmp_path, "2.0")
    assert card.begin_trial("2.0") == "1.0"
    assert runnable(card) == "2.0"
    assert card.trial() is not None
    outcome = card.keep(seconds=12.5, written=4096)
    assert (outcome["result"], outcome["version"], outcome["from"]) == ("kept", "2.0", "1.0")
    assert card.trial() is None
    assert (card.current(), card.previous()) == ("2.0", "1.0")
    _install(card, tmp_path, "3.0")
    card.begin_trial("3.0")
    card.keep()
    assert card.versions() == ["2.0", "3.0"]  # two kept, the oldest removed


def test_a_rollback_returns_to_the_version_before_and_removes_the_candidate(
    tmp_path: Path,
) -> None:
    card = flashed_card(tmp_path, "1.0")
    _install(card, tmp_path, "2.0", broken=True)
    card.begin_trial("2.0")
    with pytest.raises(AssertionError, match="broken on purpose"):
        runnable(card)
    outcome = card.roll_back("core did not start")
    assert (outcome["result"], outcome["version"], outcome["reason"]) == (
        "rolled back", "1.0", "core did not start",
    )  # fmt: skip
    assert runnable(card) == "1.0"
    assert card.versions() == ["1.0"]
    assert json.loads(card.outcome_file.read_text())["result"] == "rolled back"


def test_a_candidate_that_never_passes_is_rolled_back_before_the_pet_starts(tmp_path: Path) -> None:
    card = flashed_card(tmp_path, "1.0")
    _install(card, tmp_path, "2.0")
    card.begin_trial("2.0")
    for boot in range(1, MAX_TRIAL_BOOTS + 1):  # each boot the trial did not conclude
        assert card.recover() == f"2.0 on trial, boot {boot}"
        assert runnable(card) == "2.0"
    said = card.recover()
    assert said.startswith("rolled back to 1.0")
    assert runnable(card) == "1.0"
    assert card.trial() is None


def test_recover_drops_a_trial_whose_switch_never_happened_and_staging_leftovers(
    tmp_path: Path,
) -> None:
    card = flashed_card(tmp_path, "1.0")
    _install(card, tmp_path, "2.0")
    stale = card.staging("9.9")
    (stale / "lib").mkdir(parents=True)
    card.point("previous", "1.0")
    card.trial_file.write_text(json.dumps({"candidate": "2.0", "previous": "1.0", "boots": 0}))
    (card.root / ".current.new").symlink_to("releases/2.0")
    said = card.recover()
    assert "had not happened" in said and f"removed {stale.name}" in said
    assert card.trial() is None and not stale.exists()
    assert not (card.root / ".current.new").is_symlink()
    assert runnable(card) == "1.0"


def test_recover_repoints_a_missing_current(tmp_path: Path) -> None:
    card = flashed_card(tmp_path, "1.0")
    (card.root / "current").unlink()
    assert "now 1.0" in card.recover()
    assert runnable(card) == "1.0"


def test_the_switch_refuses_what_would_leave_no_fallback(tmp_path: Path) -> None:
    card = flashed_card(tmp_path, "1.0")
    with pytest.raises(ReleaseError, match="running version"):
        card.begin_trial("1.0")
    with pytest.raises(ReleaseError, match="no release"):
        card.begin_trial("2.0")
    _install(card, tmp_path, "2.0")
    with pytest.raises(ReleaseError, match="already on the card"):
        _install(card, tmp_path / "again", "2.0")
    with pytest.raises(ReleaseError, match="not a release name"):
        card.release("../etc")
