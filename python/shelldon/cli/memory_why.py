"""`shelldon memory why | stats | history`: what memory gives a request, how full it is, and an
entry's earlier versions. All three only read (the tree, history.jsonl, the undo blobs).

- `why "<request>"` ranks the entries as a prompt would (`core.retrieval.rank`; with `--project DIR`
  that project's memory beside the global one, `core.retrieval.scopes`) and shows, per entry, where
  it landed (in full, by title, counted) and the score's parts: the relevance (the words and file
  paths the request shares with it) and what weighs it (provenance, confidence, age, staleness).
- `stats`: per scope, entries by collection (against the gate's cap) and by provenance, the
  index's lines, and the audit log's decisions by action and refusals by reason.
- `history ENTRY`: every decision that touched the entry, oldest first, each with the version
  it replaced when the undo store still keeps it.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from shelldon.cli.common import CliError, data_root
from shelldon.contracts.text import clean_text

if TYPE_CHECKING:
    from shelldon.core.memory.entry import Entry
    from shelldon.core.retrieval.rank import MemorySelection, Shown
    from shelldon.core.retrieval.scopes import Scope


def _out(text: str) -> None:
    print(clean_text(text))


def _scopes(args: argparse.Namespace) -> list[Scope]:
    """The global scope, and the project's first when --project names one (both read-only)."""
    from shelldon.core.memory.reader import MemoryReader
    from shelldon.core.retrieval.scopes import GLOBAL, PROJECT, Scope, project_memory_root

    root = data_root(args)
    scopes = [Scope(GLOBAL, MemoryReader(root.memory), root.home)]
    project = getattr(args, "project", None)
    if project is not None:
        path = Path(project).expanduser()
        if not path.is_dir():
            raise CliError(f"--project {project}: not a directory", 2)
        path = path.resolve()
        scopes.insert(0, Scope(PROJECT, MemoryReader(project_memory_root(path)), path))
    return scopes


def _place(selection: MemorySelection, shown: Shown) -> str:
    if shown in selection.full:
        return "in full"
    if shown in selection.titled:
        return "by title"
    return "counted"


def _why(args: argparse.Namespace) -> int:
    from shelldon.clock import utc_now
    from shelldon.core.retrieval.query import query_tokens
    from shelldon.core.retrieval.rank import normalise_path, paths_in
    from shelldon.core.retrieval.scopes import select_scoped
    from shelldon.core.words import tokens

    scopes = _scopes(args)
    now = utc_now()
    selection = select_scoped(scopes, args.request, now, keep_ranked=True)
    if not selection.ranked:
        print("memory holds no entries")
        return 0
    by_id: dict[str, Entry] = {}
    for scope in scopes:
        for e in scope.memory.entries():
            by_id[f"{scope.name}:{e.collection}/{e.stem}"] = e
    asked = set(query_tokens(args.request))
    asked_paths = set(paths_in(args.request))
    for n, shown in enumerate(selection.ranked, start=1):
        entry = by_id.get(shown.id)
        _out(
            f"{n}. {_place(selection, shown):<8} {shown.id}  score {shown.score:.3f}  "
            f"relevance {shown.relevance:.3f}  {shown.title}"
        )
        if entry is None:
            continue
        text = " ".join([entry.meta.title, *entry.meta.tags, entry.body])
        words = sorted(asked & set(tokens(text)))
        paths = sorted(asked_paths & {normalise_path(p) for p in entry.meta.depends_on})
        _out(
            f"   shares: {', '.join(words) or 'no word'}"
            + (f"; paths {', '.join(paths)}" if paths else "")
        )
        stale = f"; may be stale: {', '.join(shown.stale_files)}" if shown.stale else ""
        _out(
            f"   weighed by: {shown.provenance}, confidence {shown.confidence:.2f}, "
            f"updated {entry.meta.modified[:10] or 'never'}{stale}"
        )
    print(
        f"{len(selection.full)} in full, {len(selection.titled)} by title, "
        f"{selection.rest} counted",
        flush=True,
    )
    return 0


def _stats(args: argparse.Namespace) -> int:
    from shelldon.core.gate import DEFAULT_LIMITS
    from shelldon.core.memory.audit import AuditLog
    from shelldon.paths import MEMORY_INDEX

    for scope in _scopes(args):
        entries = scope.memory.entries()
        active = [e for e in entries if e.meta.status != "superseded"]
        _out(f"{scope.name} memory: {scope.memory.root}")
        per = Counter(e.collection for e in active)
        cols = ", ".join(
            f"{c} {per[c]}/{DEFAULT_LIMITS.collection_cap}"
            for c in ("facts", "people", "preferences", "capabilities")
        )
        _out(f"  entries: {len(active)} active, {len(entries) - len(active)} superseded ({cols})")
        prov = Counter(e.meta.provenance for e in active)
        _out("  provenance: " + (", ".join(f"{k} {v}" for k, v in sorted(prov.items())) or "-"))
        index = scope.memory.root / MEMORY_INDEX
        lines = len(index.read_text(errors="replace").splitlines()) if index.is_file() else 0
        _out(f"  index: {lines}/{DEFAULT_LIMITS.index_max_lines} lines")
        records = list(AuditLog(scope.memory.root).records())
        actions = ", ".join(
            f"{k} {v}" for k, v in sorted(Counter(r.action for r in records).items())
        )
        _out(f"  decisions: {len(records)}" + (f" ({actions})" if records else ""))
        refused = Counter(r.reason_code for r in records if r.action == "reject")
        if refused:
            _out("  refused: " + ", ".join(f"{k} {v}" for k, v in refused.most_common()))
    return 0


def _history(args: argparse.Namespace) -> int:
    from shelldon.core.memory.audit import AuditLog, UndoError
    from shelldon.core.memory.entry import parse_entry
    from shelldon.core.retrieval.scopes import split_scope

    wanted, name = split_scope(args.name)
    scopes = [s for s in _scopes(args) if wanted is None or s.name == wanted]
    name = name.strip().removesuffix(".md")
    target = f"{name}.md" if "/" in name else None
    for scope in scopes:
        audit = AuditLog(scope.memory.root)
        records = [
            r
            for r in audit.records()
            if any(
                (c.target == target) if target else c.target.endswith(f"/{name}.md")
                for c in r.file_changes
            )
            or (r.target is not None and (r.target == target or r.target.endswith(f"/{name}.md")))
        ]
        if not records:
            continue
        for rec in records:
            _out(f"{rec.ts}  {rec.id}  {rec.unit}  {rec.op} {rec.action} ({rec.reason_code})")
            for change in rec.file_changes:
                if change.before_sha256 is None or not change.target.endswith(f"{name}.md"):
                    continue
                try:
                    before = audit.read_blob(change.before_sha256).decode("utf-8", "replace")
                except UndoError as exc:
                    _out(f"   (the version before: {exc})")
                    continue
                body = parse_entry(before, source=change.target).body.strip()
                _out(
                    "   the version before:\n" + "\n".join(f"   | {ln}" for ln in body.splitlines())
                )
        return 0
    raise CliError(f"no recorded change to {args.name!r}")


def register(
    msub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    project_help = "also this project's memory (DIR/.shelldon/memory), ranked with the global"
    why = msub.add_parser(
        "why", parents=[common], help="which entries a request gets, and the score's parts"
    )
    why.add_argument("request", help="the request, as the owner or an agent would put it")
    why.add_argument("--project", metavar="DIR", help=project_help)
    why.set_defaults(func=_why)

    stats = msub.add_parser("stats", parents=[common], help="entries, caps, the index, decisions")
    stats.add_argument("--project", metavar="DIR", help=project_help)
    stats.set_defaults(func=_stats)

    history = msub.add_parser(
        "history", parents=[common], help="an entry's decisions and earlier versions"
    )
    history.add_argument("name", help="collection/stem or a stem (project:… / global:… to pick)")
    history.add_argument("--project", metavar="DIR", help=project_help)
    history.set_defaults(func=_history)
