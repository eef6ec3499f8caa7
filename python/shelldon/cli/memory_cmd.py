"""`shelldon memory list | show | log | learnings | remember | forget | undo` (also `--dream N`);
`why | stats | history` are in `cli.memory_why`, `skills` in `cli.memory_skills`.

The memory commands work on the data root directly, whether core is running or not: every write
goes through `CuratedMemory` (the gate, the audit log, MEMORY.md) under the same cross-process
write lock core takes, so a CLI edit and a turn never interleave. Core reads the tree afresh for
every decision, so nothing it holds goes stale. (See docs/memory.md, "The command line".)

Each command that writes is its own audit unit, `cli-<second>-<random>`, so `memory undo --unit`
takes back exactly one command. Whatever the tree holds is printed through
`contracts.text.clean_text`: a stored escape sequence never reaches the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import TYPE_CHECKING, Any

from shelldon.cli import memory_skills, memory_why
from shelldon.cli.common import data_root, owner_text, whole_number
from shelldon.contracts.ops import COLLECTION_NAMES
from shelldon.contracts.text import clean_text

if TYPE_CHECKING:
    from shelldon.core.memory.audit import AuditRecord
    from shelldon.core.memory.lifecycle import CuratedMemory
    from shelldon.core.memory.reader import MemoryReader


def cli_unit() -> str:
    """A fresh audit unit for one command: `cli-20261129T210000Z-1a2b3c`."""
    from shelldon import digests
    from shelldon.clock import compact, utc_now

    return f"cli-{compact(utc_now())}-{digests.token_hex(3)}"


def _out(text: str) -> None:
    """Print what the tree holds, never raw: terminal controls stripped (newline and tab kept)."""
    print(clean_text(text))


def _memory(args: argparse.Namespace) -> CuratedMemory:
    from shelldon.core.memory.lifecycle import CuratedMemory

    return CuratedMemory(data_root(args).memory)


def _reader(args: argparse.Namespace) -> MemoryReader:
    """Reading commands open the tree read-only: they create and rewrite nothing."""
    from shelldon.core.memory.reader import MemoryReader

    return MemoryReader(data_root(args).memory)


def _list(args: argparse.Namespace) -> int:
    from shelldon.core.memory.reader import entry_name

    memory = _reader(args)
    entries = memory.all_entries()
    shown = [e for e in entries if args.all or (e.meta.status == "active" and not e.archived)]
    for e in shown:
        status = ""
        if e.meta.status == "superseded":
            status = f" (superseded by {e.meta.superseded_by})"
        elif e.meta.status == "retired":
            status = " (retired to the archive)"
        title = " ".join((e.meta.title or e.body.strip().split("\n")[0]).split())[:80]
        _out(
            f"{entry_name(e)}\t{e.meta.provenance}\t{e.meta.confidence:.2f}\t"
            f"{e.meta.modified[:10] or '-'}\t{title}{status}"
        )
    hidden = len(entries) - len(shown)
    summary = f"{len(shown)} entr{'y' if len(shown) == 1 else 'ies'}"
    if hidden:
        summary += f" ({hidden} superseded or retired not shown; --all shows them)"
    print(summary, file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    memory = _reader(args)
    try:
        entry = memory.find_entry(args.name)
    except LookupError as exc:
        print(f"shelldon memory show: {exc}", file=sys.stderr)
        return 1
    path = memory.root / entry.collection / f"{entry.stem}.md"
    sys.stdout.write(clean_text(path.read_text(encoding="utf-8", errors="replace")))
    return 0


def _format(rec: AuditRecord) -> str:
    target = rec.target or "-"
    extra = f" [{rec.preview}]" if rec.preview else ""
    return (
        f"{rec.id}  {rec.ts}  {rec.unit:<14} {rec.op:<15} {rec.action:<8} "
        f"{rec.reason_code:<16} {target}  {rec.reason}{extra}"
    )


def _log(args: argparse.Namespace) -> int:
    from shelldon.core.memory.audit import AuditLog

    audit = AuditLog(data_root(args).memory)  # reading the log creates nothing
    records = (
        [r for r in audit.records() if args.unit is None or r.unit == args.unit][-args.limit :]
        if args.limit > 0
        else []
    )
    for rec in records:
        if args.json:
            _out(json.dumps(rec.to_json(), ensure_ascii=False, sort_keys=True))
        else:
            _out(_format(rec))
    return 0


def _learnings(args: argparse.Namespace) -> int:
    """Pending learnings, and what the next dream will look at: the learnings it offers (the most
    recurrent first, up to its limit, without those the owner corrected or a rule contradicts)
    and the recent conversation it summarises. Reads history.db read-only, writes nothing."""
    import sqlite3

    from shelldon.core.dream.model import DreamLimits
    from shelldon.core.history.store import open_readonly, read_pending_learnings
    from shelldon.core.learning.corrections import CorrectionLedger, rule_contradicts
    from shelldon.core.learning.pending import PendingLearning

    root = data_root(args)
    limits = DreamLimits()
    try:
        pending = [PendingLearning.from_row(r) for r in read_pending_learnings(root.history_db)]
        with open_readonly(root.history_db) as reader:
            recent = len(reader.recent(limits.recent_messages))
    except sqlite3.OperationalError:
        from shelldon.core.storage.check import check_history_paths

        check_history_paths(root.history_db)  # a folder or a link there is no "no conversation"
        print("no pending learnings (no conversation yet)")
        return 0
    ledger = CorrectionLedger(root.state)  # reads state/corrections.json; writes nothing
    rules = [
        e.body
        for e in _reader(args).entries()
        if e.meta.provenance == "owner" and e.meta.status != "superseded"
    ]
    offered = 0
    for item in pending:
        if ledger.is_corrected(item) or any(rule_contradicts(r, item.observation) for r in rules):
            mark = "held back (the owner corrected it)"
        elif offered < limits.max_learnings:
            offered += 1
            mark = "next dream"
        else:
            mark = "waits (over the dream's limit)"
        key = f" [{item.pattern_key}]" if item.pattern_key else ""
        _out(f"#{item.id}\tseen {item.recurrence_count}x\t{mark}\t{item.observation}{key}")
    if not pending:
        print("no pending learnings")
    print(
        f"{len(pending)} pending; the next dream looks at {offered} of them "
        f"(up to {limits.max_learnings}) and the last {recent} messages"
        + ("" if offered else " (with no learning to offer it skips)"),
        file=sys.stderr,
    )
    return 0


def _remember(args: argparse.Namespace) -> int:
    from shelldon.contracts.ops import Remember
    from shelldon.core.memory.plan import EntryExtras, MemoryOpError

    memory = _memory(args)
    op = Remember(collection=args.collection, name=args.name, content=args.text)
    extras = EntryExtras(tags=tuple(args.tag or ()), depends_on=tuple(args.depends_on or ()))
    try:
        result = memory.apply_memory_op(op, provenance="owner", unit=cli_unit(), extras=extras)
    except MemoryOpError as exc:
        print(f"shelldon memory remember: refused: {exc}", file=sys.stderr)
        return 1
    _out(f"{result.action} ({result.reason_code}): {result.reason}  [change {result.change_id}]")
    return 0 if result.action in ("create", "update") else 1


def _forget(args: argparse.Namespace) -> int:
    from shelldon.core.memory.derived import derived_targets

    memory = _memory(args)
    unit = cli_unit()
    try:
        rec = memory.forget(args.name, unit=unit)
    except LookupError as exc:
        print(f"shelldon memory forget: {exc}", file=sys.stderr)
        return 1
    # What the pet's reflection derived from it goes too, in the same unit (core.memory.derived).
    pets = {f"{e.collection}/{e.stem}.md" for e in memory.entries() if e.meta.provenance != "owner"}
    derived = [t for t in derived_targets(memory.audit.records(), rec.target or "") if t in pets]
    for target in derived:
        with contextlib.suppress(LookupError):
            memory.forget(target.removesuffix(".md"), unit=unit, by="the owner (derived)")
    if derived:
        _out(
            f"forgot {rec.target} and what was derived from it: {', '.join(derived)}  "
            f"[`shelldon memory undo --unit {unit}` brings them back]"
        )
        return 0
    _out(f"forgot {rec.target}  [change {rec.id}; `shelldon memory undo {rec.id}` brings it back]")
    return 0


def _reopen_dream_learnings(args: argparse.Namespace, records: list[AuditRecord], n: int) -> int:
    """Put a dream's learning resolutions back to pending (core.dream owns how)."""
    from shelldon.core.dream.undo import undo_dream_learnings
    from shelldon.core.history import store as history

    store: Any = history.HistoryStore.open(data_root(args).history_db)
    try:
        return undo_dream_learnings([r.to_json() for r in records], n, store)
    finally:
        store.close()


def undo_summary(rec: AuditRecord) -> str:
    """What an undo did to each file: "removed people/ana.md", "restored facts/tea.md"."""
    removed = [c.target for c in rec.changes if c.after_sha256 is None]
    restored = [c.target for c in rec.changes if c.after_sha256 is not None]
    parts = [f"removed {', '.join(removed)}"] if removed else []
    parts += [f"restored {', '.join(restored)}"] if restored else []
    return "; ".join(parts) or "no files"


def _undo(args: argparse.Namespace) -> int:
    from shelldon.core.memory.audit import UndoError

    memory = _memory(args)
    unit = cli_unit()
    given = [x for x in (args.change_id, args.dream, args.unit) if x is not None]
    if len(given) != 1:
        print("shelldon memory undo: give one of CHANGE_ID, --dream N, --unit U", file=sys.stderr)
        return 2
    try:
        if args.unit is not None:
            whole = memory.undo_unit(args.unit, force=args.force, unit=unit)
            _out(f"undid {args.unit}: {undo_summary(whole)}  [change {whole.id}]")
            return 0
        if args.dream is not None:
            dream_unit = f"dream-{args.dream}"
            records = memory.audit.unit_records(dream_unit)
            if not records:
                print(f"shelldon memory undo: no change recorded for {dream_unit}", file=sys.stderr)
                return 1
            files_changed = any(r.file_changes for r in records)
            dream = (
                memory.undo_unit(dream_unit, force=args.force, unit=unit) if files_changed else None
            )
            reopened = _reopen_dream_learnings(args, records, args.dream)
            done = undo_summary(dream) if dream else "no files"
            _out(f"undid {dream_unit}: {done}; {reopened} learning(s) back to pending")
            return 0
        rec = memory.undo_change(args.change_id, force=args.force, unit=unit)
    except UndoError as exc:
        print(f"shelldon memory undo: {exc}", file=sys.stderr)
        return 1
    _out(f"{undo_summary(rec)}  [change {rec.id}]")
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    # The shared options default to SUPPRESS (cli.common), so `memory --home X list` keeps X.
    memory = sub.add_parser(
        "memory", parents=[common], help="curated memory: list, show, log, undo"
    )
    msub = memory.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    list_ = msub.add_parser("list", parents=[common], help="every entry, one per line")
    list_.add_argument(
        "--all", action="store_true", help="include superseded and retired (archived) entries"
    )
    list_.set_defaults(func=_list)

    show = msub.add_parser("show", parents=[common], help="one entry, front matter and body")
    show.add_argument("name", help="collection/stem, or a stem unique across collections")
    show.set_defaults(func=_show)

    log_ = msub.add_parser("log", parents=[common], help="the audit log (history.jsonl)")
    log_.add_argument("-n", "--limit", type=whole_number, default=50, help="last N decisions (50)")
    log_.add_argument("--unit", help='only this unit ("cli-…", "turn-…", "dream-3", …)')
    log_.add_argument("--json", action="store_true", help="the raw JSON lines")
    log_.set_defaults(func=_log)

    learnings = msub.add_parser(
        "learnings",
        parents=[common],
        help="pending learnings and what the next dream will look at (read-only)",
    )
    learnings.set_defaults(func=_learnings)

    remember = msub.add_parser(
        "remember", parents=[common], help="write an owner entry (through the gate)"
    )
    remember.add_argument("collection", choices=COLLECTION_NAMES)
    remember.add_argument("name", type=owner_text)
    remember.add_argument("text", type=owner_text)
    remember.add_argument("--tag", action="append", help="a tag (repeatable)")
    remember.add_argument(
        "--depends-on",
        action="append",
        metavar="PATH",
        help="a file the entry depends on; when it changes the entry 'may be stale' (repeatable; "
        "relative to the data root)",
    )
    remember.set_defaults(func=_remember)

    forget = msub.add_parser("forget", parents=[common], help="delete an entry (audited, undoable)")
    forget.add_argument("name", help="collection/stem, or a stem unique across collections")
    forget.set_defaults(func=_forget)

    undo = msub.add_parser(
        "undo", parents=[common], help="restore the state before a change, or before a dream"
    )
    undo.add_argument("change_id", nargs="?", help="an id from `shelldon memory log`")
    undo.add_argument("--dream", type=whole_number, metavar="N", help="undo dream N as a whole")
    undo.add_argument(
        "--unit",
        help='undo a whole unit ("turn-…", "owner-rule-…", "cli-…": one command): its files only',
    )
    undo.add_argument(
        "--force", action="store_true", help="even if a later change touched the same files"
    )
    undo.set_defaults(func=_undo)

    memory_why.register(msub, common)
    memory_skills.register(msub, common)
