"""The build's layer cache key (image/common.sh `layer_key`): what goes into a layer decides it,
not where the checkout lives, so a second clone reuses the 30-minute base layer."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from imagetools import IMAGE


def layer_key(*args: str | Path) -> str:
    script = f'. "{IMAGE / "common.sh"}"; layer_key "$@"'
    done = subprocess.run(
        ["bash", "-c", script, "layer_key", *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def two_checkouts(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum (coreutils) is not on PATH")
    first, second = tmp_path / "one" / "hooks", tmp_path / "two" / "hooks"
    for hooks in (first, second):
        hooks.mkdir(parents=True)
        (hooks / "base-customize.sh").write_text("#!/bin/sh\necho customise\n")
    return first, second


def test_the_same_sources_in_two_places_have_one_key(two_checkouts: tuple[Path, Path]) -> None:
    first, second = two_checkouts
    one = layer_key("trixie", "arm64", first / "base-customize.sh")
    assert len(one) == 16
    assert one == layer_key("trixie", "arm64", second / "base-customize.sh")


def test_a_changed_hook_or_string_changes_the_key(two_checkouts: tuple[Path, Path]) -> None:
    first, second = two_checkouts
    (second / "base-customize.sh").write_text("#!/bin/sh\necho customise differently\n")
    one = layer_key("trixie", "arm64", first / "base-customize.sh")
    assert one != layer_key("trixie", "arm64", second / "base-customize.sh")
    assert one != layer_key("trixie", "amd64", first / "base-customize.sh")
