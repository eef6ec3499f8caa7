"""The dream directive's grammar: what core writes and the offline dream reads back.

Core (`core.dream.directive`) writes the directive a dreaming worker gets; the broker's offline
brain (`broker.offline_dream`) parses it without a model. Both sides import the headers and the
learning line from here, so the two can never drift apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LEARNINGS_HEADER = "## Pending learnings (most recurrent first)"
FULL_HEADER = "## Full collections (merge, do not add)"
RECENT_HEADER = "## Recent conversation"

# One offered learning: "- [id=N] <text> (seen K×)" or "- [id=N] <text> (seen K×; key: <key>)".
LEARNING_LINE = re.compile(
    r"^- \[id=(?P<id>\d+)\] (?P<text>.*) \(seen (?P<count>\d+)×(?:; key: (?P<key>[^)]*))?\)$"
)


@dataclass(frozen=True)
class OfferedLearning:
    """One learning line, read back."""

    id: int
    text: str
    seen: int
    key: str | None


def defang(text: str) -> str:
    """Keep free text from faking the line's grammar (the id tag and the "(seen K×)" tail)."""
    return text.replace("[id=", "[id ").replace("(seen ", "(seen: ")


def learning_line(learning_id: int, text: str, seen: int, key: str | None = None) -> str:
    """The line LEARNING_LINE reads back. `text` and `key` are one line each, already defanged."""
    tail = f"; key: {key}" if key is not None else ""
    return f"- [id={learning_id}] {text} (seen {seen}×{tail})"


def parse_learning_line(line: str) -> OfferedLearning | None:
    match = LEARNING_LINE.match(line.strip())
    if match is None:
        return None
    key = (match.group("key") or "").strip() or None
    return OfferedLearning(
        int(match.group("id")), match.group("text"), int(match.group("count")), key
    )
