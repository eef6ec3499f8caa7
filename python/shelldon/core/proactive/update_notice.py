"""The card's last update, told once in the paired Telegram chat (at core's first start after it).

The updater (appliance.update, root, outside the pet) writes the outcome to the releases root's
last-update.json: kept, or rolled back by itself and why. Core cannot write there (its sandbox), so
which outcome it already queued is kept in its own state/update-told.json. Both a kept update and
a roll-back restart core, so this start is the one that tells. Unpaired, nothing is queued (the
outcome is marked told all the same: news of an old update is not worth a first message later);
`shelldon status` says the last update whichever way.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.storage import durability
from shelldon.core.telegram import state as telegram_state
from shelldon.paths import DEFAULT_RELEASES, RELEASES_ENV, UPDATE_OUTCOME, UPDATE_TOLD, DataRoot

log = logging.getLogger("shelldon.core.proactive.update_notice")


def releases_root() -> Path:
    return Path(os.environ.get(RELEASES_ENV) or DEFAULT_RELEASES)


def notice_text(outcome: dict[str, object]) -> str | None:
    if outcome.get("result") == "kept":
        return (
            f"I was updated to shelldon {outcome.get('version')} (from {outcome.get('from')}); "
            "my self-test passed."
        )
    if outcome.get("result") == "rolled back":
        return (
            f"An update to shelldon {outcome.get('from')} failed its self-test "
            f"({outcome.get('reason')}), so I went back to {outcome.get('version')} by myself. "
            "What I remember was not touched."
        )
    return None


def queue_update_notice(
    history: HistoryStore, root: DataRoot, now: datetime, releases: Path | None = None
) -> str | None:
    """Queue the last update's outcome for the paired chat once; returns the text queued."""
    try:
        outcome = json.loads(((releases or releases_root()) / UPDATE_OUTCOME).read_text())
    except (OSError, ValueError):
        return None  # no update since the card was flashed (or not a card)
    if not isinstance(outcome, dict) or not outcome.get("id"):
        return None
    told_path = root.state / UPDATE_TOLD
    try:
        if json.loads(told_path.read_text()).get("id") == outcome["id"]:
            return None
    except (OSError, ValueError, AttributeError):
        pass
    text = notice_text(outcome)
    queued = None
    if text is not None and telegram_state.paired_chat(history) is not None:
        try:
            proactive_queue.enqueue(history, "notice", text, now)
            queued = text
        except (sqlite3.Error, OSError) as exc:  # told at the next start instead
            log.warning("update notice: could not queue it for the chat: %s", exc)
            return None
    durability.replace_file(told_path, json.dumps({"id": outcome["id"]}).encode(), 0o600)
    return queued
