"""The agent face's memory: a project's tree (written) beside the global one (read only).

`AgentMemory` is what the MCP tools call (`shelldon.agent.server` only adapts it to the wire), so
it is plain Python, tested without an MCP client too. Every answer is text for the agent.

- `write`: a `remember` through the one gate into the project's tree, recorded as an inference
  (whatever the model writes is an inference, and an inference never replaces an owner's rule).
- `delete`: not gated (the agent can remove any project entry, the owner's too), but audited and
  undoable: `shelldon memory --home <project>/.shelldon undo <change>` brings it back. An owner
  entry it deleted (a rule or a fact) still refuses an inference that contradicts it
  (`_deleted_owner_rules`).
- `note_request`: rules ("always …", "never …", "prefer …") captured without a model call
  (`core.learning.rules`). A rule is the owner's only when the host saw the owner say it: the prompt
  hook (`shelldon agent note`, `heard=True`) passes the owner's words and they are kept, word for
  word, in `owner-said.jsonl` (the last OWNER_SAID_KEPT messages); a rule the agent relays
  (`memory_note_request`) is the owner's only when one of them holds it as a whole sentence
  that reads as the same rule, and no later message changed it (`agent.quotes`: a fragment, a
  question, a hypothetical, reported words or a retracted rule are not a quote). Anything else
  is an inference, which the gate never lets replace an owner rule. Each call is one audit
  unit, so undoing one call undoes only its rules.
  A relayed note is bounded (OWNER_SAID_CHARS, MAX_RELAYED_RULES); the hook's text is the
  owner's own and is not.
- `recall`: both scopes ranked together (`core.retrieval.scopes`): four in full within 3,000
  characters, twelve by title, the rest counted.
- `reflect`: a turn's digest through the gate (`shelldon.agent.reflect`): the facts it carries,
  or (none carried) facts the configured provider chain draws from it, in this process. The
  chain's API keys come from the environment (`env_secret`), never from the vault.
- `skills` / `decline_skill`: procedures proven in two verified turns, promoted to
  `<project>/.agents/skills/<name>/SKILL.md` (`core.learning.skills`).

The global scope (the data root's `memory/`) is opened read-only: no tool writes it. No path
under a `vault/` is ever read: on a workstation the face runs as the owner's uid, so this path
check is the only guard (`check_outside_vault`).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from shelldon import digests
from shelldon._native import atomic_write
from shelldon.agent.quotes import said_verbatim
from shelldon.agent.reflect import ChainProposer, Proposer, reflect
from shelldon.broker.server import build_chain
from shelldon.clock import compact, utc_now
from shelldon.config import ConfigError, load_config
from shelldon.contracts.digest import Digest
from shelldon.contracts.ops import COLLECTION_NAMES, Remember
from shelldon.contracts.text import clean_text
from shelldon.core.gate import ExistingEntry
from shelldon.core.learning.rules import COLLECTION as RULE_COLLECTION
from shelldon.core.learning.rules import capture_rule
from shelldon.core.learning.skills import SkillBook, SkillError
from shelldon.core.memory.audit import UndoError
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import Applied, EntryExtras, MemoryOpError
from shelldon.core.memory.reader import MemoryReader
from shelldon.core.owner_rules import extract_rules
from shelldon.core.retrieval.scopes import (
    GLOBAL,
    PROJECT,
    Scope,
    find_scoped,
    project_memory_root,
    select_scoped,
    split_scope,
)
from shelldon.paths import OWNER_SAID, PROCEDURES_LEDGER, DataRoot

log = logging.getLogger(__name__)

VAULT = "vault"
# The owner's recent words as the prompt hook saw them: what a relayed rule is checked against.
OWNER_SAID_KEPT = 20
OWNER_SAID_CHARS = 8000
# What one memory_note_request may carry: a user states a few rules at a time, and each is a
# gated write (300 in one call took 11 s and answered 97 kB; thousands outlast a host's 60 s).
MAX_RELAYED_RULES = 10


class AgentMemoryError(Exception):
    """A tool call that cannot be done as asked; the message is the one line the agent sees."""


def check_outside_vault(path: Path, memory_roots: Sequence[Path]) -> None:
    """Refuse `path` when it is (or resolves into) a memory tree's vault/."""
    resolved = path.resolve()
    for root in memory_roots:
        vault = (root / VAULT).resolve()
        if resolved == vault or resolved.is_relative_to(vault):
            raise AgentMemoryError("the vault is never read here")


def env_secret(key: str) -> str | None:
    """A provider's key from the environment: the vault entry's name, upper-cased, other
    characters as "_" ("openrouter" -> $OPENROUTER, "my-key" -> $MY_KEY)."""
    return os.environ.get(re.sub(r"[^A-Z0-9]", "_", key.upper())) or None


def agent_unit(kind: str = "agent") -> str:
    """A fresh audit unit for one tool call: `agent-20261130T160000Z-1a2b3c`."""
    return f"{kind}-{compact(utc_now())}-{digests.token_hex(3)}"


class AgentMemory:
    """A project's memory beside the global one, as a coding agent's tools see them."""

    def __init__(
        self, project: Path, data_root: DataRoot, *, propose: Proposer | None = None
    ) -> None:
        self.project = project.resolve()
        check_outside_vault(self.project, [data_root.memory])
        self.data_root = data_root
        self.global_root = data_root.memory
        self.project_memory = CuratedMemory(project_memory_root(self.project))
        self.skill_book = SkillBook(
            self.project_memory.root.parent / PROCEDURES_LEDGER,
            self.project_memory,
            project=self.project,
        )
        self._propose = propose
        self.project_memory.removed_owner_rules = self._deleted_owner_rules
        self.scopes = (
            Scope(PROJECT, self.project_memory, self.project),
            Scope(GLOBAL, MemoryReader(self.global_root), data_root.home),
        )

    @property
    def memory_roots(self) -> tuple[Path, ...]:
        return (self.project_memory.root, self.global_root)

    def list(self) -> str:
        """Every active entry of both scopes, one line each (scope:collection/stem, provenance,
        confidence, modified, title)."""
        lines: list[str] = []
        for scope in self.scopes:
            for e in scope.memory.entries():
                if e.meta.status == "superseded":
                    continue
                title = " ".join((e.meta.title or e.body.strip().split("\n")[0]).split())[:80]
                lines.append(
                    f"{scope.name}:{e.collection}/{e.stem}\t{e.meta.provenance}\t"
                    f"{e.meta.confidence:.2f}\t{e.meta.modified[:10] or '-'}\t{title}"
                )
        if not lines:
            return "memory holds no entries yet"
        return clean_text("\n".join(lines))

    def read(self, name: str) -> str:
        """One entry, front matter and body ("project:facts/x", "global:facts/x", or bare)."""
        try:
            scope, entry = find_scoped(self.scopes, name)
        except LookupError as exc:
            raise AgentMemoryError(str(exc)) from None
        path = scope.memory.entry_path(entry)
        check_outside_vault(path, self.memory_roots)
        return clean_text(f"{scope.name}:{entry.collection}/{entry.stem}\n" + _render(path))

    def write(
        self, collection: str, name: str, content: str, depends_on: Sequence[str] = ()
    ) -> str:
        """A `remember` into the project's memory, through the gate, as an inference."""
        scope, collection = split_scope(collection)  # "project:facts" is "facts"
        if scope == GLOBAL:
            raise AgentMemoryError("global memory is read-only here; write to the project")
        if collection not in COLLECTION_NAMES:
            raise AgentMemoryError(f"collection must be one of {', '.join(COLLECTION_NAMES)}")
        op = Remember(collection=collection, name=name, content=content)
        extras = EntryExtras(depends_on=tuple(depends_on))
        try:
            applied = self.project_memory.apply_memory_op(
                op, provenance="inferred", unit=agent_unit(), extras=extras
            )
        except MemoryOpError as exc:
            raise AgentMemoryError(f"refused: {exc}") from None
        # The entry the decision names, which may sit in another collection (an owner rule).
        named = applied.target.parent.name if applied.stem else collection
        where = f"{PROJECT}:{named}/{applied.stem}" if applied.stem else collection
        said = (
            f"{applied.action} ({applied.reason_code}): {applied.reason} [{where}; "
            f"change {applied.change_id}]"
        )
        if applied.action == "reject":  # the tool's result says isError (MCP)
            raise AgentMemoryError(said)
        return said

    def delete(self, name: str) -> str:
        """Delete a project entry: not gated, audited, undoable."""
        scope, rest = split_scope(name)
        if scope == GLOBAL:
            raise AgentMemoryError("global memory is read-only here")
        try:
            rec = self.project_memory.forget(rest, unit=agent_unit(), by="the agent")
        except LookupError as exc:
            raise AgentMemoryError(str(exc)) from None
        return (
            f"deleted {PROJECT}:{rec.target} [change {rec.id}; undo: shelldon memory --home "
            f"{self.project_memory.root.parent} undo {rec.id}]"
        )

    def recall(self, task: str, paths: Sequence[str] = (), now: datetime | None = None) -> str:
        """The ranked block for `task`: what the agent should know before it starts."""
        selection = select_scoped(self.scopes, task, now or utc_now(), paths=paths)
        text = selection.render()
        return clean_text(text) if text else "memory holds no entries yet"

    def note_request(self, text: str, *, heard: bool = False) -> str:
        """Capture the rules `text` states. `heard`: the host saw the owner say `text` (the
        prompt hook); otherwise each rule is the owner's only if the owner's recent words hold
        it verbatim, and an inference if not. One audit unit per call."""
        if heard:
            self._keep_owner_words(text)
        elif len(text) > OWNER_SAID_CHARS:
            raise AgentMemoryError(
                f"a relayed note is at most {OWNER_SAID_CHARS} characters ({len(text)} given): "
                "pass the user's rules as they said them"
            )
        rules = extract_rules(text)
        if not rules:
            return "no rule found (a rule starts with always, never, prefer or call me)"
        if not heard and len(rules) > MAX_RELAYED_RULES:
            raise AgentMemoryError(
                f"a relayed note carries at most {MAX_RELAYED_RULES} rules ({len(rules)} "
                "found): pass the user's rules as they said them, a few at a time"
            )
        said = self._owner_words()
        turn = agent_unit("call")
        lines: list[str] = []
        refusals: list[str] = []
        for rule in rules:
            owner = heard or said_verbatim(rule, said)
            applied: Applied | MemoryOpError | None
            if owner:
                applied = capture_rule(self.project_memory, rule, turn_id=turn)
            else:
                applied = self._inferred_rule(rule.name, rule.text, turn)
            if isinstance(applied, MemoryOpError):
                refusals.append(f"reject (invalid): {applied}: {rule.text}")
                continue
            if applied is None:
                refusals.append(f"reject (invalid): {rule.text}")
                continue
            kept_as = "the user's rule" if owner else "an inference (not heard from the user)"
            line = f"{applied.action} ({applied.reason_code}): {applied.reason}" + (
                f" [{PROJECT}:{RULE_COLLECTION}/{applied.stem}; {kept_as}]" if applied.stem else ""
            )
            (refusals if applied.action == "reject" else lines).append(line)
        if refusals and not lines:
            raise AgentMemoryError(clean_text("\n".join(refusals)))
        return clean_text("\n".join(lines + refusals))

    def _inferred_rule(self, name: str, text: str, turn: str) -> Applied | MemoryOpError:
        """The rule written as an inference, or why it was refused before the gate (a name that
        reads as another, say: audited by apply_memory_op)."""
        op = Remember(collection=RULE_COLLECTION, name=name, content=text)
        try:
            return self.project_memory.apply_memory_op(
                op, provenance="inferred", turn_id=turn, unit=f"agent-rule-{turn}"
            )
        except MemoryOpError as exc:
            return exc

    def _deleted_owner_rules(self) -> tuple[ExistingEntry, ...]:
        """Owner entries (rules, and the owner's facts, people and preferences alike) this
        face's memory_delete removed (and nobody restored or the owner forgot since), read back
        from the audit's undo store: an inference that contradicts one is still refused, so
        deleting what the owner said and writing its opposite in two calls replaces nothing. An
        entry whose text the undo store no longer keeps is not protected."""
        removed: dict[str, str] = {}  # target -> the deleted text's sha256
        for rec in self.project_memory.audit.records():
            if rec.op != "forget" or rec.action != "delete" or rec.target is None:
                continue
            if rec.unit.startswith("agent-") and rec.before_sha256 is not None:
                removed[rec.target] = rec.before_sha256
            else:
                removed.pop(rec.target, None)  # the owner forgot it: nothing left to protect
        kept: list[ExistingEntry] = []
        for target, sha in removed.items():
            parts = Path(target).with_suffix("").parts[-2:]
            if len(parts) != 2 or parts[0] not in COLLECTION_NAMES:
                continue
            try:
                entry = parse_entry(self.project_memory.audit.read_blob(sha).decode("utf-8"))
            except (OSError, UndoError, UnicodeDecodeError):
                continue
            if entry.meta.provenance == "owner":
                kept.append(
                    ExistingEntry(
                        stem=parts[1],
                        collection=parts[0],
                        title=entry.meta.title,
                        body=entry.body,
                        provenance="owner",
                    )
                )
        return tuple(kept)

    @property
    def _owner_said_path(self) -> Path:
        return self.project_memory.root.parent / OWNER_SAID

    def _keep_owner_words(self, text: str) -> None:
        """Append the owner's words (as the hook saw them) and keep the last OWNER_SAID_KEPT."""
        kept = (*self._owner_words()[-(OWNER_SAID_KEPT - 1) :], text[:OWNER_SAID_CHARS])
        lines = "".join(json.dumps({"said": words}) + "\n" for words in kept)
        atomic_write(self._owner_said_path, lines.encode("utf-8"), 0o600)

    def _owner_words(self) -> tuple[str, ...]:
        try:
            raw = self._owner_said_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ()
        words = []
        for line in raw.splitlines():
            try:
                said = json.loads(line).get("said")
            except (ValueError, AttributeError):
                continue
            if isinstance(said, str):
                words.append(said)
        return tuple(words[-OWNER_SAID_KEPT:])

    def proposer(self) -> Proposer:
        """The configured provider chain (built on first use; the offline brain by default)."""
        if self._propose is None:
            try:
                config = load_config(self.data_root)
            except ConfigError as exc:
                raise AgentMemoryError(f"shelldon.toml: {exc}") from None
            chain = build_chain(config, root=self.data_root, read_secret=env_secret)
            self._propose = ChainProposer(chain)
        return self._propose

    def reflect(self, digest: Digest, *, propose: Proposer | None = None) -> str:
        """A turn's digest through the gate (`shelldon.agent.reflect`)."""
        reflection = reflect(
            self.project_memory,
            digest,
            unit=agent_unit("reflect"),
            propose=propose or self.proposer(),
            skills=self.skill_book,
        )
        said = clean_text(reflection.render())
        if reflection.kept == 0 and any(v.action == "reject" for v in reflection.verdicts):
            raise AgentMemoryError(said)  # every fact refused: the call is a refusal (isError)
        return said

    def skills(self) -> str:
        """Every procedure seen, one line each: name, status, turns, where it was promoted."""
        found = self.skill_book.skills()
        if not found:
            return "no procedure seen yet"
        return "\n".join(
            f"{s.name}\t{s.status}\t{sum(u.verified for u in s.uses)} verified turn(s)"
            + (f"\t{s.promoted}" if s.promoted else "")
            for s in found.values()
        )

    def decline_skill(self, name: str) -> str:
        try:
            return self.skill_book.decline(name)
        except SkillError as exc:
            raise AgentMemoryError(str(exc)) from None


def _render(path: Path) -> str:
    if path.is_symlink():  # a link planted in the tree must not pull another file in
        raise AgentMemoryError(f"{path.name} is a symlink; not read")
    return path.read_text(encoding="utf-8", errors="replace")
