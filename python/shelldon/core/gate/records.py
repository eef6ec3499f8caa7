"""Text kept as a record rather than knowledge: episodes, learnings, history rows.

A record keeps what happened, so a credential in it is blanked (`[secret:<rule>]`) instead of the
whole record being refused. A learning is also a candidate for memory (the dream may promote it),
so instruction-shaped text is refused there, as the gate refuses it for entries. A history row is
what the owner or the pet actually said: it is only blanked, never refused.

An episode's body is also kept from forging the log's structure (`record_body`).

Callers: core.turn.apply (record_turn, capture_learning) and core.memory (episodes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.core import gate


def blank_record(text: str) -> str:
    """`text` with every credential replaced by `[secret:<rule id>]`. For history rows."""
    return gate.blank_secrets(text)


@dataclass(frozen=True)
class RecordVerdict:
    """`text` is what to store (secrets blanked), or None with `refusal` saying why not."""

    text: str | None
    refusal: gate.Refusal | None = None


def screen_record(text: str) -> RecordVerdict:
    """For learnings and episodes: secrets blanked; instruction-shaped text refused."""
    blanked = gate.blank_secrets(text)
    refusal = gate.screen_text(blanked)
    if refusal is not None:
        return RecordVerdict(None, refusal)
    return RecordVerdict(blanked)


def screen_name(text: str) -> gate.Refusal | None:
    """For a name a refusal would quote (a `forget` op's entry): refused when it holds a
    credential or is instruction-shaped, as content would be."""
    return gate.screen_text(text)


# A line Markdown, or a reader splitting episodes.md at "## ", would take for a heading: an ATX
# heading ("## 2026-01-01T00:00:00Z (turn x)" is an episode header) or a setext underline.
_HEADING = re.compile(r"[ \t]*(?:#|=+[ \t]*$|-+[ \t]*$)")


def record_body(text: str) -> str:
    """`text` as the body of one record in an append-only log (episodes.md): every kind of line
    break made a plain newline, blank lines at either end dropped, and each line that would read
    as a heading escaped with a backslash ("\\## ..."), so one record can never forge another."""
    lines = text.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    out = []
    for line in lines:
        heading = _HEADING.match(line)
        if heading is not None:
            indent = len(line) - len(line.lstrip(" \t"))
            line = f"{line[:indent]}\\{line[indent:]}"
        out.append(line)
    return "\n".join(out)
