"""The offline brain's reflection: rules over a turn's digest, deterministic, no network.

It reads the digest back from the reflection section (contracts.digest.render_digest) and keeps
what the commands show, nothing it would have to guess:

- the last command that worked (exit 0) becomes a fact naming it, the request it served and, when
  a command had failed before it, that failure (what was fixed how). It cites the command
  (`observed_from`), so core records it as observed; its procedure key is the command's first two
  words ("make gen"), so the same procedure used again in a verified turn becomes a skill; it
  depends on the files the turn changed;
- a command that failed last (nothing worked after it) becomes a fact about that failure.

Nothing else: no commands, no facts (the pet's long talks teach through the turn's own ops).
The pet's own actions in a chat turn (core lists them in the digest as "remember facts/x.md",
"remind reminders/1", "forget …", "reminder fired: …") are not commands that teach anything: the
turn's ops and the reminder book already keep them, so a fact about them would only be a sentence
about a path "working". So a chat turn, whose only actions are the pet's, gives it nothing to
write: no fact quoting the owner's sentence (one a `/forget` or `/undo` of the owner's entry
would leave behind), nothing that competes with what the owner said. A digest of real work (the
agent face's commands) still names the request the command served: that is the agent's task,
and what finds the fact again.
"""

from __future__ import annotations

import json
import re

from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.digest import CommandRun, Digest, digest_of_section

MAX_QUOTED = 120


def _short(text: str, limit: int = MAX_QUOTED) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def procedure_key(command: str) -> str:
    """A command's procedure: its first two words ("make gen -j4" -> "make gen")."""
    words = re.findall(r"[\w.:/-]+", command)
    return " ".join(words[:2])


# The pet's own actions, as core writes them into a digest ("remember facts/work.md").
_PET_ACTION = re.compile(
    r"^(?:remember|remind|forget|capture_learning|resolve_learning)\b|^reminder fired:"
)


def _fact(digest: Digest, worked: CommandRun, failed: CommandRun | None) -> dict[str, object]:
    request = _short(digest.request) or "this task"
    content = f'For "{request}", `{_short(worked.command)}` worked.'
    if failed is not None:
        content += f" Before it, `{_short(failed.command)}` had failed (exit {failed.exit_code})."
    return {
        "op": "remember",
        "collection": "facts",
        "name": f"{procedure_key(worked.command)} works",
        "content": content,
        "depends_on": list(digest.files_changed[:8]),
        "observed_from": worked.command.strip(),
        "procedure": procedure_key(worked.command),
    }


def _failure(digest: Digest, failed: CommandRun) -> dict[str, object]:
    request = _short(digest.request) or "this task"
    tail = _short(failed.output_tail, 80)
    content = f'For "{request}", `{_short(failed.command)}` failed (exit {failed.exit_code})'
    content += f": {tail}" if tail else "."
    return {
        "op": "remember",
        "collection": "facts",
        "name": f"{procedure_key(failed.command)} fails",
        "content": content if content.endswith(".") else content + ".",
        "observed_from": failed.command.strip(),
    }


def facts(digest: Digest) -> list[dict[str, object]]:
    known = [
        c
        for c in digest.commands
        if c.exit_code is not None and c.command.strip() and not _PET_ACTION.match(c.command)
    ]
    if not known:
        return []
    last = known[-1]
    if last.exit_code != 0:
        return [_failure(digest, last)]
    worked = max(i for i, c in enumerate(known) if c.exit_code == 0)
    failed = next((c for c in reversed(known[:worked]) if c.exit_code != 0), None)
    return [_fact(digest, known[worked], failed)]


def reflect(request: CompletionRequest) -> str:
    """The reply text: {"reply": ..., "ops": [...]}."""
    digest = None
    for section in request.sections:
        if section.kind == "reflect":
            digest = digest_of_section(section.text)
    ops = facts(digest) if digest is not None else []
    reply = f"{len(ops)} fact(s) from the digest" if ops else "nothing durable in this digest"
    return json.dumps({"reply": reply, "ops": ops}, ensure_ascii=False)
