"""Procedures proven twice become skills.

A reflection's fact may name a procedure key (`ProposedFact.procedure`): the same key each time
the same procedure is used. Each such fact is one line of a ledger (JSON Lines, append-only):
the key, the reflection's unit, the date, whether the turn ended verified, the fact's entry.
When a key has a verified outcome in two or more distinct turns, it is promoted, once:

- for a project, to `<project>/.agents/skills/<name>/SKILL.md`, with its origin (the turns, their
  dates, the facts it came from) written in the file: it is committed with the project and
  reviewed like any other file;
- for the pet, to a gated entry of `capabilities/` (through the one gate, tagged "skill").

`decline` retires a skill (the file or the entry goes; the ledger keeps why) and its key is never
proposed again. The ledger is the pet's `state/procedures.jsonl`, or a project's
`.shelldon/procedures.jsonl`.

The ledger is bounded as the audit is (`core.memory.audit.rotate`): past LEDGER_BYTES it is
rotated once (`procedures.1.jsonl`, the older one dropped), and what must outlive the uses (which
skills were promoted, which declined) is carried into the fresh file first. Both files are read:
a procedure is proven by its uses in the last one to two ledgers' worth of lines.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from shelldon._native import atomic_write
from shelldon.contracts.ops import Remember
from shelldon.core.memory.audit import rotate, rotated_path
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.memory.plan import EntryExtras, MemoryOpError

log = logging.getLogger(__name__)

SKILLS_DIR = Path(".agents") / "skills"
SKILL_FILE = "SKILL.md"
SKILL_TAG = "skill"
PROVEN_AFTER = 2  # verified turns
MAX_KEY_CHARS = 60
# The ledger's bound: read whole on every use, so kept small (a use is a fact, at most a few kB;
# 300 reflections of five facts were 317 kB). One rotation is kept.
LEDGER_BYTES = 256_000
LEDGER_ROTATIONS = 1


def skill_name(key: str) -> str:
    """A procedure key as a skill's name: lower-case words joined by hyphens ("" if none)."""
    words = re.findall(r"[a-z0-9]+", key.lower())
    return "-".join(words)[:MAX_KEY_CHARS].strip("-")


@dataclass(frozen=True)
class Use:
    """One turn that used a procedure."""

    unit: str
    at: str
    verified: bool
    entry: str  # "<collection>/<stem>" of the fact it came from ("" if the gate refused it)
    content: str


@dataclass
class Skill:
    name: str
    uses: list[Use] = field(default_factory=list)
    promoted: str = ""  # where it was written ("" until it is)
    declined: bool = False

    @property
    def proven(self) -> bool:
        return len({u.unit for u in self.uses if u.verified}) >= PROVEN_AFTER

    @property
    def status(self) -> str:
        if self.declined:
            return "declined"
        return "promoted" if self.promoted else f"seen {len(self.uses)}"


class SkillError(Exception):
    """A skills command that cannot be done as asked; the message is one line for the owner."""


class SkillBook:
    """The ledger, and the promotion it decides. `project`: promote to that project's
    `.agents/skills/`; None: promote into `memory`'s `capabilities/` (the pet)."""

    def __init__(self, ledger: Path, memory: CuratedMemory, project: Path | None = None) -> None:
        self.ledger = ledger
        self.memory = memory
        self.project = project

    def _lines(self) -> Iterator[dict[str, object]]:
        """The rotated ledgers' lines, oldest first, then the ledger's."""
        for n in range(LEDGER_ROTATIONS, 0, -1):
            yield from self._read(rotated_path(self.ledger, n))
        yield from self._read(self.ledger)

    def _read(self, path: Path) -> Iterator[dict[str, object]]:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        for line in text.splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                log.warning("%s: a line that does not parse is skipped", self.ledger)
                continue
            if isinstance(value, dict):
                yield value

    def _append(self, record: dict[str, object]) -> None:
        self.ledger.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            size = self.ledger.stat().st_size
        except FileNotFoundError:
            size = 0
        if size and size + len(line.encode()) > LEDGER_BYTES:
            line = self._rotate() + line
        with self.ledger.open("a", encoding="utf-8") as f:
            f.write(line)

    def _rotate(self) -> str:
        """Rotate the ledger (`audit.rotate`); the lines the fresh one must start with: each
        promotion and decline, which the dropped rotation may hold."""
        kept: list[dict[str, object]] = []
        for skill in self.skills().values():
            if skill.promoted:
                kept.append({"kind": "promoted", "name": skill.name, "where": skill.promoted})
            if skill.declined:
                kept.append({"kind": "declined", "name": skill.name})
        rotate(self.ledger, LEDGER_ROTATIONS)
        log.info("%s rotated at %d bytes", self.ledger.name, LEDGER_BYTES)
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept)

    def skills(self) -> dict[str, Skill]:
        """Every procedure seen, by name, in the order first seen."""
        out: dict[str, Skill] = {}
        for line in self._lines():
            name = str(line.get("name", ""))
            if not name:
                continue
            skill = out.setdefault(name, Skill(name))
            kind = line.get("kind")
            if kind == "use":
                skill.uses.append(
                    Use(
                        unit=str(line.get("unit", "")),
                        at=str(line.get("at", "")),
                        verified=line.get("verified") is True,
                        entry=str(line.get("entry", "")),
                        content=str(line.get("content", "")),
                    )
                )
            elif kind == "promoted":
                skill.promoted = str(line.get("where", ""))
            elif kind == "declined":
                skill.declined = True
        return out

    def note(self, key: str, use: Use) -> Skill | None:
        """Record one use of `key`; promote it when this use proves it. Returns the skill when it
        was promoted now."""
        name = skill_name(key)
        if not name:
            return None
        self._append(
            {
                "kind": "use",
                "name": name,
                "unit": use.unit,
                "at": use.at,
                "verified": use.verified,
                "entry": use.entry,
                "content": use.content,
            }
        )
        skill = self.skills()[name]
        if skill.declined or skill.promoted or not skill.proven:
            return None
        where = self._promote(skill)
        if not where:
            return None
        skill.promoted = where
        self._append({"kind": "promoted", "name": name, "where": where})
        log.info("skill %s promoted to %s", name, where)
        return skill

    def _promote(self, skill: Skill) -> str:
        verified = [u for u in skill.uses if u.verified]
        procedure = verified[-1].content
        if self.project is not None:
            path = self.project / SKILLS_DIR / skill.name / SKILL_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(str(path), render_skill(skill.name, procedure, verified).encode())
            return str(path.relative_to(self.project))
        dates = ", ".join(sorted({u.at[:10] for u in verified}))
        content = f"A skill proven in {len(verified)} verified turns ({dates}): {procedure.strip()}"
        op = Remember(collection="capabilities", name=skill.name, content=content)
        try:
            applied = self.memory.apply_memory_op(
                op,
                provenance="observed",  # proven by turns that ended verified, not a guess
                unit=f"skill-{skill.name}",
                extras=EntryExtras(tags=(SKILL_TAG,)),
            )
        except MemoryOpError as exc:
            log.info("skill %s not promoted: %s", skill.name, exc)
            return ""
        if applied.action not in ("create", "update") or not applied.stem:
            log.info("skill %s not promoted: %s", skill.name, applied.reason)
            return ""
        return f"capabilities/{applied.stem}"

    def decline(self, name: str) -> str:
        """Retire a skill: its file or entry goes, and its key is never proposed again."""
        skill = self.skills().get(skill_name(name))
        if skill is None:
            raise SkillError(f"no skill named {name!r} (shelldon memory skills lists them)")
        if skill.declined:
            return f"{skill.name} was already declined"
        removed = ""
        if skill.promoted and self.project is not None:
            folder = (self.project / skill.promoted).parent
            if folder.is_dir() and folder.parent == self.project / SKILLS_DIR:
                import shutil  # here: core would hold shutil, bz2 and lzma for this one call

                shutil.rmtree(folder)
                removed = f"; {skill.promoted} removed"
        elif skill.promoted:
            try:
                rec = self.memory.forget(
                    skill.promoted, unit=f"skill-{skill.name}", by="the owner (skills decline)"
                )
                removed = f"; {rec.target} retired"
            except LookupError:
                pass
        self._append({"kind": "declined", "name": skill.name})
        return f"{skill.name} declined; it will not be proposed again{removed}"


def render_skill(name: str, procedure: str, uses: list[Use]) -> str:
    """SKILL.md: front matter (name, description), the procedure, and where it came from."""
    description = " ".join(procedure.split())[:200].replace('"', "'")
    lines = [
        "---",
        f"name: {name}",
        f'description: "{description}"',
        "---",
        "",
        f"# {name}",
        "",
        procedure.strip(),
        "",
        "## Origin",
        "",
        f"Promoted by shelldon after {len(uses)} turns that ended verified:",
        "",
    ]
    for use in uses:
        fact = f" (fact {use.entry})" if use.entry else ""
        lines.append(f"- {use.at[:10]} turn `{use.unit}`{fact}")
    lines += ["", "Review it like any committed file; `shelldon memory skills decline` retires it."]
    return "\n".join(lines) + "\n"
