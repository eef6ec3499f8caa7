"""Does the evidence reach the assembled prompt? Curated memory and history recall together.

For each LoCoMo conversation (../shared/data/memory, read in place, never copied) a real data root
is built the way the pet builds it: every session is recorded as turns (speaker A as the owner,
speaker B as the pet, stamped with the session's date, as `recall_report.replay` does), and after
each session the conversation's own extracted facts (LoCoMo's per-session observations, each
linked to the lines it came from) are written through the real write path
(`CuratedMemory.apply_memory_op`, provenance inferred, into `facts/` as a model would, the memory
clock at the session's time). Then every answerable question (categories 1-4) is asked as the
owner's message through the worker's own `read_context` + `assemble_prompt`, and the assembled
prompt is searched for the evidence:

- **curated, in full**: an entry shown in full holds a fact drawn from an evidence line;
- **listed**: an entry listed by title only holds one (counted apart: a title is not the fact);
- **archive**: a retired entry shown from the archive holds one;
- **history**: an evidence line is among the recalled rows (or the recent window);
- **memory**: curated in full or from the archive (memory's own share, history aside);
- **reaches**: in full, from the archive or from history.

Three set-ups side by side: before step 11 (a full collection refuses: `make_room=False`), the
caps lifted (no cap at all: the ceiling), and making room (this step); then the recall budget
(rows recalled beside the 12-row window) for making room. Beside them, the plain FTS5 baselines'
evidence-in-top-6 from recall_report.

    python scripts/prompt_reach.py [--data ../shared/data/memory] [--write]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall_report

from shelldon.contracts.ops import Remember
from shelldon.core.gate import DEFAULT_LIMITS, Limits
from shelldon.core.history.store import HistoryStore
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.storage import layout
from shelldon.paths import DataRoot
from shelldon.worker.prompt import (
    ARCHIVE_LINE,
    RECALL_K,
    PromptLimits,
    assemble_prompt,
    read_context,
)

PATHS = ("reaches", "memory", "curated in full", "listed", "archive", "history")
ANSWERABLE = recall_report.ANSWERABLE
CATEGORY_NAMES = recall_report.CATEGORY_NAMES
BUDGETS = (
    4,
    6,
    8,
    10,
    12,
)  # recalled rows to try (RECALL_K itself is measured above) (the default is measured above)
CHOSEN_ON = "locomo_26"  # the recall budget is chosen on this one; locomo_30 is held out
LIFTED = Limits(collection_cap=100_000, index_max_lines=1_000_000, index_max_bytes=1 << 30)


@dataclass(frozen=True)
class Setup:
    name: str
    make_room: bool
    limits: Limits = DEFAULT_LIMITS
    recall_k: int = RECALL_K


SETUPS = (
    Setup("before step 11 (a full kind refuses, 6 recalled rows)", make_room=False, recall_k=6),
    Setup(f"caps lifted (no cap: the ceiling, {RECALL_K} rows)", make_room=False, limits=LIFTED),
    Setup(f"making room (this step, {RECALL_K} recalled rows)", make_room=True),
)


@dataclass
class Built:
    """One conversation as the pet would hold it: a data root, the evidence, the questions."""

    name: str
    root: DataRoot
    rows: dict[str, str]  # dia_id -> the line's text as stored
    ids: dict[str, int]  # dia_id -> its history row id
    facts: dict[str, set[str]]  # fact text -> the dia_ids it was drawn from
    questions: list[tuple[int, str, set[str]]]  # (category, question, evidence dia_ids)
    now: datetime
    written: dict[str, int] = field(default_factory=dict)  # reason code -> facts


@dataclass
class Reach:
    """Questions whose evidence each path put in the prompt, per category."""

    asked: dict[int, int] = field(default_factory=dict)
    hits: dict[tuple[str, int], int] = field(default_factory=dict)
    prompt_chars: int = 0

    def add(self, category: int, found: set[str]) -> None:
        self.asked[category] = self.asked.get(category, 0) + 1
        for path in found:
            self.hits[path, category] = self.hits.get((path, category), 0) + 1

    def rate(self, path: str, category: int | None = None) -> float:
        cats = ANSWERABLE if category is None else (category,)
        asked = sum(self.asked.get(c, 0) for c in cats)
        return sum(self.hits.get((path, c), 0) for c in cats) / asked if asked else 0.0

    @property
    def total(self) -> int:
        return sum(self.asked.values())


def observations(data: dict[str, Any], session: int) -> Iterator[tuple[str, set[str]]]:
    """(fact, its dia_ids) for one session, in the data's order."""
    for items in (data.get(f"session_{session}_observation") or {}).values():
        for item in items:
            text, ids = item[0], item[1]
            ids = {ids} if isinstance(ids, str) else set(ids)
            yield str(text), {str(i) for i in ids}


def _title(fact: str) -> str:
    return " ".join(re.findall(r"[\w'-]+", fact)[:6]) or "fact"


def build(path: Path, workdir: Path, setup: Setup) -> Built:
    raw = json.loads(path.read_text())
    data = raw.get("conversation", raw)
    slug = re.sub(r"\W+", "-", setup.name).strip("-")[:40]
    root = DataRoot.resolve(workdir / f"{path.stem}-{slug}")
    layout.prepare(root)
    store = HistoryStore.open(root.history_db)
    clock = _SessionClock()
    memory = CuratedMemory(root.memory, clock=clock, limits=setup.limits, make_room=setup.make_room)
    rows: dict[str, str] = {}
    ids: dict[str, int] = {}
    facts: dict[str, set[str]] = {}
    written: dict[str, int] = {}
    when = datetime(2020, 1, 1, tzinfo=UTC)
    for session, when, recorded in recall_report.record_sessions(store, data):
        for dia_id, text, row_id in recorded:
            rows[dia_id] = text
            ids[dia_id] = row_id
        clock.at = when + timedelta(hours=1)
        for fact, drawn in observations({**raw, **data}, session):
            facts.setdefault(fact, set()).update(drawn)
            done = memory.apply_memory_op(
                Remember("facts", _title(fact), fact), provenance="inferred", turn_id=f"s{session}"
            )
            written[done.reason_code] = written.get(done.reason_code, 0) + 1
    store.close()
    questions = []
    for qa in raw["qa"]:
        category = int(qa.get("category", 0))
        evidence = {str(e) for e in qa.get("evidence", []) if str(e) in rows}
        if category in ANSWERABLE and evidence:
            questions.append((category, str(qa["question"]), evidence))
    now = when + timedelta(days=1)
    return Built(path.stem, root, rows, ids, facts, questions, now, written)


class _SessionClock:
    """The memory writer's clock: the current session's time, one second more per reading."""

    def __init__(self) -> None:
        self.at = datetime(2020, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.at += timedelta(seconds=1)
        return self.at


def _one_line(text: str) -> str:
    return " ".join(text.split())


def found_in_prompt(
    built: Built, question: str, evidence: set[str], limits: PromptLimits
) -> tuple[set[str], int]:
    """Which paths brought an evidence line (or a fact drawn from one) into the prompt."""
    ctx = read_context(built.root, question, limits=limits, now=built.now)
    request = assemble_prompt(ctx, question)
    text = {s.kind: s.text for s in request.sections}
    memory = text.get("memory", "")
    full, _, rest = memory.partition("\nAlso in memory, by title:")
    if ARCHIVE_LINE in full:
        full, _, archive = full.partition(ARCHIVE_LINE)
    else:
        rest, _, archive = rest.partition(ARCHIVE_LINE)
    evidence_facts = [f for f, ids in built.facts.items() if ids & evidence]
    found: set[str] = set()
    if any(f in full for f in evidence_facts):
        found.add("curated in full")
    if any(f in archive for f in evidence_facts):
        found.add("archive")
    titled = {item.title for item in (ctx.memory.titled if ctx.memory else ())}
    listed_titles = [t for t in titled if f"- {_one_line(t)} [" in rest]
    if listed_titles and _listed_holds(built, listed_titles, evidence_facts):
        found.add("listed")
    rows = text.get("recall", "") + "\n" + text.get("recent", "")
    if any(_one_line(built.rows[e])[:120] in rows for e in evidence):
        found.add("history")
    if found & {"curated in full", "archive"}:
        found.add("memory")
    if found & {"curated in full", "archive", "history"}:
        found.add("reaches")
    return found, len(request.rendered())


def _listed_holds(built: Built, titles: list[str], evidence_facts: list[str]) -> bool:
    from shelldon.core.memory.reader import MemoryReader

    wanted = set(titles)
    for entry in MemoryReader(built.root.memory).entries():
        if entry.meta.title in wanted and any(f in entry.body for f in evidence_facts):
            return True
    return False


def measure(built: Built, limits: PromptLimits) -> Reach:
    reach = Reach()
    for category, question, evidence in built.questions:
        found, chars = found_in_prompt(built, question, evidence, limits)
        reach.add(category, found)
        reach.prompt_chars += chars
    return reach


# --- output ---------------------------------------------------------------------------------


def render(title: str, results: dict[str, Reach]) -> str:
    any_reach = next(iter(results.values()))
    cats = [c for c in ANSWERABLE if any_reach.asked.get(c)]
    head = [f"all ({any_reach.total})"] + [
        f"{c} {CATEGORY_NAMES[c]} ({any_reach.asked[c]})" for c in cats
    ]
    lines = [
        f"**{title}**: share of questions whose evidence is in the assembled prompt "
        "(reaches / memory / curated in full / listed / archive / history)",
        "",
        "| set-up | " + " | ".join(head) + " | prompt chars (mean) |",
        "|---|" + "---|" * (len(head) + 1),
    ]
    for name, reach in results.items():
        cells = [" / ".join(f"{reach.rate(p):.2f}" for p in PATHS)] + [
            " / ".join(f"{reach.rate(p, c):.2f}" for p in PATHS) for c in cats
        ]
        mean = reach.prompt_chars / reach.total if reach.total else 0
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {mean:,.0f} |")
    return "\n".join(lines) + "\n"


def baselines_line(built: Built) -> str:
    """The plain FTS5 baselines and recall, evidence in their top 6 rows (history alone)."""
    questions = [(c, q, {built.ids[e] for e in ev}) for c, q, ev in built.questions]
    conv = recall_report.Conversation(
        built.name, built.root.history_db, built.ids, questions, built.now
    )
    recall_report.add_baseline_index(built.root.history_db)  # the plain baselines read it
    scores = recall_report.score_all(conv)
    cells = ", ".join(f"{name} {s.rate(6):.2f}" for name, s in scores.items())
    return f"History alone, evidence in the top 6 rows: {cells}\n"


def written_line(name: str, built: Built) -> str:
    from shelldon.core.memory.reader import MemoryReader

    parts = ", ".join(f"{code} {n}" for code, n in sorted(built.written.items()))
    reader = MemoryReader(built.root.memory)
    kinds: dict[str, int] = {}
    for entry in reader.entries():
        kinds[entry.collection] = kinds.get(entry.collection, 0) + 1
    held = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    archived = len(reader.archived_entries())
    return (
        f"{name}: {sum(built.written.values())} facts written: {parts}; "
        f"active entries: {held}; in the archive: {archived}"
    )


def run(data: Path, budgets: tuple[int, ...] = BUDGETS) -> str:
    files = sorted(data.glob("locomo_*.json"))
    if not files:
        raise SystemExit(f"no locomo_*.json under {data}")
    parts: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            held = "held out" if path.stem != CHOSEN_ON else "the recall budget chosen on it"
            results: dict[str, Reach] = {}
            notes: list[str] = []
            room_built: Built | None = None
            for setup in SETUPS:
                built = build(path, Path(tmp), setup)
                limits = replace(PromptLimits(), recall_k=setup.recall_k)
                results[setup.name] = measure(built, limits)
                notes.append(written_line(setup.name, built))
                if setup.make_room:
                    room_built = built
            assert room_built is not None
            for k in budgets:
                if k != RECALL_K:
                    limits = replace(PromptLimits(), recall_k=k)
                    results[f"making room, {k} recalled rows"] = measure(room_built, limits)
            parts.append(render(f"{path.stem} ({held})", results))
            parts.append(
                "Facts through the write path, by outcome:\n\n"
                + "\n".join(f"- {n}" for n in notes)
                + "\n"
            )
            parts.append(baselines_line(room_built))
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=recall_report.default_data())
    parser.add_argument("--write", action="store_true", help="update the tables in docs/recall.md")
    args, _ = parser.parse_known_args(argv)  # `just eval --tune …` passes recall_report's too
    text = run(args.data)
    print(text)
    if args.write:
        recall_report.write_section("prompt-reach", text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
