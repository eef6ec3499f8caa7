"""The dream red-team drills' fake brain, started and stopped around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.dream_drill import DreamBrain


@pytest.fixture
def red_team_brain() -> Iterator[DreamBrain]:
    brain = DreamBrain()
    brain.fake.start()
    yield brain
    brain.fake.stop()
