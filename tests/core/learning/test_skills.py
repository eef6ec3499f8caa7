"""Procedures proven twice become skills (core.learning.skills), with real files: a project's
SKILL.md and its origin, nothing promoted on one verified turn or on unverified ones, decline for
good, the pet's capabilities/ entry, and `shelldon memory skills` as a real process."""

from __future__ import annotations

from pathlib import Path

from shelldon.contracts.digest import CommandRun, Digest, ProposedFact
from shelldon.core.learning.reflection import apply_reflection
from shelldon.core.learning.skills import LEDGER_BYTES, SkillBook, Use, skill_name
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.retrieval.scopes import project_memory_root
from shelldon.paths import PROCEDURES_LEDGER
from support.cli import memory_cli as shelldon

REGEN = "python tools/regen.py --schema schema.json"
PROCEDURE = "After editing schema.json, run python tools/regen.py to rebuild the generated module."


def project_book(project: Path) -> SkillBook:
    memory = CuratedMemory(project_memory_root(project))
    return SkillBook(memory.root.parent / PROCEDURES_LEDGER, memory, project=project)


def reflect(
    book: SkillBook, unit: str, *, verified: bool | None, content: str = PROCEDURE
) -> object:
    digest = Digest(
        request="change the schema",
        commands=(CommandRun(command=REGEN, exit_code=0 if verified else 1),),
        verified=verified,
    )
    fact = ProposedFact(
        name="schema regeneration", content=content, observed_from=REGEN, procedure="regen schema"
    )
    return apply_reflection(book.memory, digest, [fact], unit=unit, skills=book)


def test_skill_names() -> None:
    assert skill_name("Regen Schema!") == "regen-schema"
    assert skill_name("make  gen") == "make-gen"
    assert skill_name("…") == ""


def test_two_verified_turns_write_the_skill_with_its_origin(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    book = project_book(project)
    skill_file = project / ".agents" / "skills" / "regen-schema" / "SKILL.md"
    reflect(book, "reflect-a", verified=False)  # unverified: not a proof
    reflect(book, "reflect-b", verified=True)
    assert not skill_file.exists()  # one verified turn is not two
    reflect(book, "reflect-b", verified=True)  # the same turn again is still one
    assert not skill_file.exists()
    reflection = reflect(book, "reflect-c", verified=True)
    assert reflection.promoted == (  # type: ignore[attr-defined]
        "regen-schema -> .agents/skills/regen-schema/SKILL.md",
    )
    text = skill_file.read_text()
    assert text.startswith("---\nname: regen-schema\ndescription: ")
    assert PROCEDURE in text
    origin = text.split("## Origin", 1)[1]
    assert "`reflect-b`" in origin and "`reflect-c`" in origin and "`reflect-a`" not in origin
    assert "fact facts/schema-regeneration" in origin
    # Promoted once: a third verified turn leaves the file as it is.
    skill_file.write_text(text + "edited by the owner\n")
    reflect(book, "reflect-d", verified=True)
    assert skill_file.read_text().endswith("edited by the owner\n")
    assert book.skills()["regen-schema"].status == "promoted"


def test_decline_removes_the_skill_and_it_is_never_proposed_again(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    book = project_book(project)
    reflect(book, "reflect-a", verified=True)
    reflect(book, "reflect-b", verified=True)
    folder = project / ".agents" / "skills" / "regen-schema"
    assert folder.is_dir()
    said = book.decline("regen-schema")
    assert "declined" in said and ".agents/skills/regen-schema/SKILL.md removed" in said
    assert not folder.exists()
    reflect(book, "reflect-c", verified=True)
    reflect(book, "reflect-d", verified=True)
    assert not folder.exists()
    assert book.skills()["regen-schema"].status == "declined"
    assert book.decline("regen schema") == "regen-schema was already declined"


def test_the_pets_skill_is_a_gated_capability_and_decline_retires_it(tmp_path: Path) -> None:
    memory = CuratedMemory(tmp_path / "memory")
    book = SkillBook(tmp_path / "state" / PROCEDURES_LEDGER, memory)
    reflect(book, "reflect-a", verified=True)
    reflect(book, "reflect-b", verified=True)
    entry = memory.root / "capabilities" / "regen-schema.md"
    assert entry.exists() and '"skill"' in entry.read_text()
    assert book.decline("regen-schema").endswith("retired")
    assert not entry.exists()
    reflect(book, "reflect-c", verified=True)
    assert not entry.exists()


def test_memory_skills_lists_and_declines(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    book = project_book(project)
    reflect(book, "reflect-a", verified=True)
    reflect(book, "reflect-b", verified=True)
    listed = shelldon(home, "skills", "--project", str(project))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("regen-schema  promoted  2 verified turn(s) ")
    assert ".agents/skills/regen-schema/SKILL.md" in listed.stdout
    declined = shelldon(home, "skills", "decline", "regen-schema", "--project", str(project))
    assert declined.returncode == 0 and "declined" in declined.stdout
    assert "regen-schema  declined" in shelldon(home, "skills", "--project", str(project)).stdout
    unknown = shelldon(home, "skills", "decline", "nope", "--project", str(project))
    assert unknown.returncode == 1 and "no skill named 'nope'" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    missing = shelldon(home, "skills", "decline", "--project", str(project))
    assert missing.returncode == 2 and "needs the skill's name" in missing.stderr
    pet = shelldon(home, "skills")
    assert pet.returncode == 0 and pet.stdout.strip() == "no procedure seen yet"


def test_the_ledger_is_bounded_and_keeps_what_was_promoted_and_declined(tmp_path: Path) -> None:
    """A flood of procedures (600 uses of 2 kB, 1.2 MB unbounded) leaves the ledger and one
    rotation, each under LEDGER_BYTES; a promotion and a decline from before it still hold."""
    project = tmp_path / "proj"
    project.mkdir()
    book = project_book(project)
    for key in ("keep me", "drop me"):
        for unit in ("u1", "u2"):
            book.note(key, Use(unit, "2026-12-01T10:00:00Z", True, "facts/x", PROCEDURE))
    book.decline("drop me")
    for i in range(600):
        use = Use(f"flood-{i}", "2026-12-02T10:00:00Z", False, "", f"step {i} " + "x" * 2000)
        book.note(f"flood key {i}", use)
    ledgers = sorted(book.ledger.parent.glob("procedures*.jsonl"))
    assert [p.name for p in ledgers] == ["procedures.1.jsonl", "procedures.jsonl"]
    assert all(p.stat().st_size <= LEDGER_BYTES for p in ledgers), ledgers
    skills = book.skills()
    assert (skills["keep-me"].status, skills["drop-me"].status) == ("promoted", "declined")
    for unit in ("u3", "u4"):  # declined stays declined: never proposed again
        book.note("drop me", Use(unit, "2026-12-03T10:00:00Z", True, "facts/x", PROCEDURE))
    assert not (project / ".agents" / "skills" / "drop-me").exists()
    assert book.skills()["drop-me"].status == "declined"
