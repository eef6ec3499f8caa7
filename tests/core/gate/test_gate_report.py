"""The gate's figures on the shared tuning data (skips when the data is absent).

Runs the same measurement as `just gate-report` (scripts/gate_report.py) and asserts the floors
reached when docs/gate.md was last written, so a rule change that loses recall or adds false
positives fails here. The issue's aims are the minimum; the floors sit at or above them.
"""

from __future__ import annotations

from typing import Any

import pytest

from support.scripts import load_script

# Floors: what the rules reach on this data now, rounded down a little. Aims: secrets >= 0.80,
# in-the-wild >= 0.80, ignore-instructions >= 0.85, benign memory FP <= 0.001, trigger FP <= 0.05;
# disguised positives >= 0.80 per transform, disguised benign text FP <= 0.001.
FLOORS = {
    "secrets_recall": 0.88,
    "inthewild_recall": 0.86,
    "ignore_instructions_recall": 0.88,
    # The obfuscation matrix (issue 12): the worst transform of each kind.
    "disguised_instruction_recall": 0.90,
    "disguised_secret_recall": 0.82,
}
CEILINGS = {
    "benign_memory_fp": 0.001,
    "trigger_word_fp": 0.02,
    "disguised_benign_fp": 0.001,
}


@pytest.fixture(scope="module")
def measured() -> dict[str, Any]:
    # Module scope (the measurement takes seconds), so it finds the data the way the script does
    # rather than through the function-scoped `shared_data` fixture; same rule: absent -> skip.
    report = load_script("gate_report")
    data = report.find_data()
    if data is None or not data.is_dir():
        pytest.skip(f"gate tuning data not present ({data})")
    result: dict[str, Any] = report.measure(data, timing=False)
    return {"result": result, "figures": report.figures(result), "report": report}


def test_the_floors_meet_the_aims() -> None:
    report = load_script("gate_report")
    for key, floor in FLOORS.items():
        assert floor >= report.AIMS[key]
    for key, ceiling in CEILINGS.items():
        assert ceiling <= report.AIMS[key]


@pytest.mark.parametrize("key", sorted(FLOORS))
def test_recall_does_not_fall(measured: dict[str, Any], key: str) -> None:
    assert measured["figures"][key] >= FLOORS[key]


@pytest.mark.parametrize("key", sorted(CEILINGS))
def test_false_positives_do_not_rise(measured: dict[str, Any], key: str) -> None:
    assert measured["figures"][key] <= CEILINGS[key]


def test_near_duplicate_check_rarely_merges_two_facts(measured: dict[str, Any]) -> None:
    # Non-paraphrase pairs it would merge lose a fact; paraphrases it merges save a line.
    result = measured["result"]
    assert result["nonparaphrase_merged"].rate <= 0.10
    assert result["paraphrase_merged"].rate > result["nonparaphrase_merged"].rate


def test_the_report_renders_every_section(measured: dict[str, Any]) -> None:
    text = measured["report"].render(measured["result"])
    for heading in (
        "## Headline",
        "## Secrets",
        "## Instruction-shaped",
        "## Benign memory",
        "## Paraphrase",
        "## Disguised positives",
    ):
        assert heading in text
    assert "NOT met" not in text


def test_without_the_data_the_report_says_where_it_lives_and_skips(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`just gate-report` exited 2 with "gate data not found (None)" on a fresh clone."""
    monkeypatch.setenv("SHELLDON_SHARED_DATA", str(tmp_path / "nothing-here"))
    report = load_script("gate_report")
    assert report.main(["--print-only"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gate-report: skipped: no gate data at ")
    assert str(tmp_path / "nothing-here" / "gate") in out
    assert "../shared/data/gate beside the clone" in out and "$SHELLDON_SHARED_DATA/gate" in out
