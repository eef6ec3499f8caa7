"""What `shelldon status` adds on the card: the running release, the last update, the security
updates. Reads three small files; imports nothing heavy (status is started often)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from shelldon.paths import DEFAULT_RELEASES, RELEASES_ENV, UPDATE_OUTCOME

SECURITY_ENV = "SHELLDON_SECURITY_STATE"
DEFAULT_SECURITY = "/var/lib/shelldon-update/security.json"


def security_state() -> Path:
    return Path(os.environ.get(SECURITY_ENV) or DEFAULT_SECURITY)


def _json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _link(root: Path, name: str) -> str | None:
    try:
        return Path(os.readlink(root / name)).name
    except OSError:
        return None


def status_lines(root: Path | None = None) -> list[str]:
    """Nothing where there are no releases (a laptop's `shelldon run`)."""
    root = root or Path(os.environ.get(RELEASES_ENV) or DEFAULT_RELEASES)
    if not (root / "current").is_symlink():
        return []
    lines = [f"version: {_link(root, 'current')} (fallback {_link(root, 'previous') or 'none'})"]
    trial = _json(root / "trial.json")
    if trial is not None:
        lines.append(f"update: {trial.get('candidate')} on trial since {trial.get('started')}")
    outcome = _json(root / UPDATE_OUTCOME)
    if outcome:
        why = f": {outcome['reason']}" if outcome.get("reason") else ""
        lines.append(
            f"last update: {outcome.get('at')} {outcome.get('result')} "
            f"{outcome.get('from')} -> {outcome.get('version')}{why}"
        )
    else:
        lines.append("last update: none since the card was flashed")
    security = _json(security_state())
    if security:
        lines.append(
            f"security updates: last run {security.get('at')} ({security.get('result')}), "
            f"{security.get('upgraded', 0)} upgraded, {security.get('pending', '?')} pending"
            + (", a reboot is needed" if security.get("reboot_required") else "")
        )
    else:
        lines.append(
            "security updates: not run yet (shelldon-security-update.timer, in quiet hours)"
        )
    return lines
