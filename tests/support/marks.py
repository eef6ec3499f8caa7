"""Skip marks shared across the test tree."""

from __future__ import annotations

import os

import pytest


def needs_root(why: str) -> pytest.MarkDecorator:
    """Skip unless running as root (CI does), with the reason saying what root is needed for."""
    return pytest.mark.skipif(os.geteuid() != 0, reason=f"needs root (CI runs as root): {why}")
