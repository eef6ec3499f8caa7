"""The agent face's shared fixture: an empty project for `shelldon agent serve --project`.

A test module that needs a project with memory in it (test_server.py) defines its own `project`,
which pytest prefers to this one.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "proj"
    path.mkdir()
    return path
