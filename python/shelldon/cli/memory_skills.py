"""`shelldon memory skills [--project DIR]` and `shelldon memory skills decline NAME`.

Procedures proven in two verified turns (core.learning.skills): the pet's, promoted to
`capabilities/`, or with `--project DIR` a project's, promoted to
`DIR/.agents/skills/<name>/SKILL.md`. `decline` retires one: its file or entry goes, and it is never
proposed again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from shelldon.cli.common import CliError, data_root
from shelldon.contracts.text import clean_text

if TYPE_CHECKING:
    from shelldon.core.learning.skills import SkillBook


def _book(args: argparse.Namespace) -> SkillBook:
    from shelldon.core.learning.skills import SkillBook
    from shelldon.core.memory.lifecycle import CuratedMemory
    from shelldon.core.retrieval.scopes import project_memory_root
    from shelldon.paths import PROCEDURES_LEDGER

    project = getattr(args, "project", None)
    if project is None:
        root = data_root(args)
        return SkillBook(root.state / PROCEDURES_LEDGER, CuratedMemory(root.memory))
    path = Path(project).expanduser()
    if not path.is_dir():
        raise CliError(f"--project {project}: not a directory", 2)
    path = path.resolve()
    memory_root = project_memory_root(path)
    return SkillBook(
        memory_root.parent / PROCEDURES_LEDGER, CuratedMemory(memory_root), project=path
    )


def _skills(args: argparse.Namespace) -> int:
    from shelldon.core.learning.skills import SkillError

    book = _book(args)
    if args.action == "decline":
        if not args.name:
            raise CliError("skills decline needs the skill's name (shelldon memory skills)", 2)
        try:
            print(clean_text(book.decline(args.name)))
        except SkillError as exc:
            raise CliError(str(exc)) from None
        return 0
    if args.name:
        raise CliError(f"unknown skills command {args.name!r} (only: decline NAME)", 2)
    found = book.skills()
    if not found:
        print("no procedure seen yet")
        return 0
    for skill in found.values():
        verified = sorted({u.unit for u in skill.uses if u.verified})
        dates = sorted({u.at[:10] for u in skill.uses if u.verified})
        where = f"  {skill.promoted}" if skill.promoted else ""
        line = (
            f"{skill.name}  {skill.status}  {len(verified)} verified turn(s)"
            f"{' ' + ', '.join(dates) if dates else ''}{where}"
        )
        print(clean_text(line))
    return 0


def register(
    msub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    skills = msub.add_parser(
        "skills", parents=[common], help="procedures proven twice; `decline NAME` retires one"
    )
    skills.add_argument("action", nargs="?", choices=["decline"], help="decline: retire NAME")
    skills.add_argument("name", nargs="?", help="the skill to decline")
    skills.add_argument(
        "--project", metavar="DIR", help="the project's skills (DIR/.agents/skills)"
    )
    skills.set_defaults(func=_skills)
