"""Does history recall bring the evidence back? Measured on LoCoMo conversations.

Each conversation is replayed into a real HistoryStore (speaker A as the owner, speaker B as the
pet, one turn per pair of lines). For every answerable question (categories 1-4) the report asks
the worker's read-only handle for `search(question, k)` and counts a hit when any evidence line is
among the rows returned. `--write` puts the table into docs/recall.md.

    python scripts/recall_report.py [--data ../shared/data/memory] [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from shelldon.core.history import HistoryStore, open_readonly

KS = (6, 20)
ANSWERABLE = {1, 2, 3, 4}
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass
class Result:
    conversation: str
    questions: int
    hits: dict[int, int]
    by_category: dict[int, tuple[int, dict[int, int]]]


def _lines(conversation: dict[str, object]) -> list[tuple[str, str, str]]:
    """(dia_id, speaker, text) in conversation order."""
    out: list[tuple[str, str, str]] = []
    session = 1
    while f"session_{session}" in conversation:
        for line in conversation[f"session_{session}"]:  # type: ignore[attr-defined]
            out.append((line["dia_id"], line["speaker"], line.get("text", "")))
        session += 1
    return out


def replay(path: Path, db: Path) -> dict[str, int]:
    """Record the conversation as turns; returns dia_id -> message row id."""
    data = json.loads(path.read_text())
    conversation = data.get("conversation", data)
    lines = _lines(conversation)
    store = HistoryStore.open(db)
    ids: dict[str, int] = {}
    now = datetime(2026, 1, 1, tzinfo=UTC)
    pending: list[tuple[str, str]] = []
    turn = 0
    for dia_id, _speaker, text in lines:
        pending.append((dia_id, text or "(no text)"))
        if len(pending) == 2:
            turn += 1
            store.record_turn(f"t{turn}", pending[0][1], pending[1][1], now)
            last = store.recent(2)
            ids[pending[0][0]] = last[0]["id"]
            ids[pending[1][0]] = last[1]["id"]
            pending.clear()
    if pending:
        turn += 1
        store.record_turn(f"t{turn}", pending[0][1], "(silence)", now)
        ids[pending[0][0]] = store.recent(2)[0]["id"]
    store.close()
    return ids


def measure(path: Path, workdir: Path) -> Result:
    data = json.loads(path.read_text())
    db = workdir / f"{path.stem}.db"
    ids = replay(path, db)
    reader = open_readonly(db)
    hits = dict.fromkeys(KS, 0)
    by_cat: dict[int, tuple[int, dict[int, int]]] = {}
    questions = 0
    for qa in data["qa"]:
        category = int(qa.get("category", 0))
        if category not in ANSWERABLE:
            continue
        evidence = {ids[e] for e in qa.get("evidence", []) if e in ids}
        if not evidence:
            continue
        questions += 1
        found = [row["id"] for row in reader.search(str(qa["question"]), max(KS))]
        count, cat_hits = by_cat.setdefault(category, (0, dict.fromkeys(KS, 0)))
        by_cat[category] = (count + 1, cat_hits)
        for k in KS:
            if evidence & set(found[:k]):
                hits[k] += 1
                cat_hits[k] += 1
    reader.close()
    return Result(path.stem, questions, hits, by_cat)


def render(results: list[Result]) -> str:
    lines = [
        "| conversation | questions | " + " | ".join(f"evidence in top {k}" for k in KS) + " |",
        "|---|---|" + "---|" * len(KS),
    ]
    for r in results:
        cells = " | ".join(f"{r.hits[k] / r.questions:.2f}" for k in KS)
        lines.append(f"| {r.conversation} | {r.questions} | {cells} |")
    total = sum(r.questions for r in results)
    cells = " | ".join(f"{sum(r.hits[k] for r in results) / total:.2f}" for k in KS)
    lines.append(f"| all | {total} | {cells} |")
    lines += ["", "| category | questions | " + " | ".join(f"top {k}" for k in KS) + " |"]
    lines.append("|---|---|" + "---|" * len(KS))
    for category in sorted(ANSWERABLE):
        n = sum(r.by_category.get(category, (0, {}))[0] for r in results)
        if not n:
            continue
        empty = (0, dict.fromkeys(KS, 0))
        cells = " | ".join(
            f"{sum(r.by_category.get(category, empty)[1][k] for r in results) / n:.2f}" for k in KS
        )
        lines.append(f"| {category} ({CATEGORY_NAMES[category]}) | {n} | {cells} |")
    return "\n".join(lines) + "\n"


def default_data() -> Path:
    here = Path(__file__).resolve().parents[1]
    for parent in here.parents:
        if (parent / "shared" / "data" / "memory").is_dir():
            return parent / "shared" / "data" / "memory"
    return here.parent / "shared" / "data" / "memory"


def run(data: Path) -> list[Result]:
    files = sorted(data.glob("locomo_*.json"))
    if not files:
        raise SystemExit(f"no locomo_*.json under {data}")
    with tempfile.TemporaryDirectory() as tmp:
        return [measure(path, Path(tmp)) for path in files]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--write", action="store_true", help="update the table in docs/recall.md")
    args = parser.parse_args(argv)
    table = render(run(args.data))
    print(table)
    if args.write:
        doc = Path(__file__).resolve().parents[1] / "docs" / "recall.md"
        text = doc.read_text()
        start, end = "<!-- recall-report:start -->", "<!-- recall-report:end -->"
        head, _, rest = text.partition(start)
        _, _, tail = rest.partition(end)
        doc.write_text(f"{head}{start}\n{table}{end}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
