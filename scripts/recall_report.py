"""Does history recall bring the evidence back? Every method side by side, on LoCoMo conversations.

Each conversation is replayed into a real HistoryStore (speaker A as the owner, speaker B as the
pet, one turn per pair of lines, stamped with its session's date). For every answerable question
(categories 1-4) each method returns its best rows, and a hit is counted when any evidence line is
among the first k. The methods: plain FTS5 baselines (all words OR-ed and ranked by bm25; minus
stop words; on a porter-stemmed index), the search before step 11 (the newest 200 matches, then
bm25), and `HistoryReader.search` as it is now. `--tune NAME` searches the recall knobs on one
conversation and reports them on the other (held out). `--write` puts the tables in docs/recall.md.

    python scripts/recall_report.py [--data ../shared/data/memory] [--tune locomo_26] [--write]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from shelldon import _native
from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore, open_readonly

KS = (5, 6, 10, 20)  # 6: the prompt's recall budget today
SHOWN_KS = (5, 10, 20)
ANSWERABLE = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
PRODUCT = "recall (this step)"
TUNED_ON = "locomo_26"  # recall.DEFAULT is `--tune locomo_26`'s choice: locomo_30 is held out
Search = Callable[[str, int], list[int]]


@dataclass
class Conversation:
    name: str
    db: Path
    ids: dict[str, int]  # dia_id -> message row id
    questions: list[tuple[int, str, set[int]]]  # (category, question, evidence row ids)
    now: datetime  # a day after the last session: when the questions are asked


@dataclass
class Score:
    """Hits at each k, pooled and per category."""

    questions: dict[int, int] = field(default_factory=dict)
    hits: dict[tuple[int, int], int] = field(default_factory=dict)  # (category, k) -> hits
    reciprocal_ranks: float = 0.0  # of the first evidence row, within the first max(KS)

    def add(self, category: int, found: list[int], evidence: set[int]) -> None:
        self.questions[category] = self.questions.get(category, 0) + 1
        for k in KS:
            if evidence & set(found[:k]):
                self.hits[category, k] = self.hits.get((category, k), 0) + 1
        rank = next((r for r, i in enumerate(found[: max(KS)], 1) if i in evidence), None)
        self.reciprocal_ranks += 1 / rank if rank else 0.0

    @property
    def mrr(self) -> float:
        return self.reciprocal_ranks / self.total if self.total else 0.0

    def rate(self, k: int, category: int | None = None) -> float:
        cats = ANSWERABLE if category is None else (category,)
        asked = sum(self.questions.get(c, 0) for c in cats)
        return sum(self.hits.get((c, k), 0) for c in cats) / asked if asked else 0.0

    @property
    def total(self) -> int:
        return sum(self.questions.values())


def _session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> an aware datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


# The unstemmed FTS5 index the plain baselines and the search before step 11 read. The store keeps
# none since migration 7 (recall reads only messages_stem): the eval builds it beside the store.
BASELINE_INDEX = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts "
    "USING fts5(content, content='messages', content_rowid='id')",
    "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS messages_vocab USING fts5vocab(messages_fts, row)",
)


def add_baseline_index(db: Path) -> None:
    conn = sqlite3.connect(db)
    try:
        with conn:
            for statement in BASELINE_INDEX:
                conn.execute(statement)
    finally:
        conn.close()


def record_sessions(
    store: HistoryStore, data: dict[str, Any]
) -> Iterator[tuple[int, datetime, list[tuple[str, str, int]]]]:
    """Record a LoCoMo conversation as the pet records turns: its lines two by two (the owner's,
    then the pet's), a minute apart from each session's time. Yields, after each session, its
    number, its time and each line recorded (dia_id, text, history row id)."""
    session, turn = 1, 0
    while f"session_{session}" in data:
        when = _session_time(data[f"session_{session}_date_time"])
        lines = [
            (line["dia_id"], line.get("text") or "(no text)") for line in data[f"session_{session}"]
        ]
        recorded: list[tuple[str, str, int]] = []
        for first in range(0, len(lines), 2):
            pair = lines[first : first + 2]
            turn += 1
            pet = pair[1][1] if len(pair) > 1 else "(silence)"
            store.record_turn(f"t{turn}", pair[0][1], pet, when + timedelta(minutes=first))
            for (dia_id, text), row in zip(pair, store.recent(2)[-2:], strict=False):
                recorded.append((dia_id, text, int(row["id"])))
        yield session, when, recorded
        session += 1


def replay(path: Path, workdir: Path) -> Conversation:
    """Record the conversation as turns, each stamped with its session's time."""
    raw = json.loads(path.read_text())
    data = raw.get("conversation", raw)
    db = workdir / f"{path.stem}.db"
    store = HistoryStore.open(db)
    ids: dict[str, int] = {}
    when = datetime(2020, 1, 1, tzinfo=UTC)
    for _session, session_time, recorded in record_sessions(store, data):
        ids.update((dia_id, row_id) for dia_id, _text, row_id in recorded)
        when = session_time
    store.close()
    add_baseline_index(db)
    questions = []
    for qa in raw["qa"]:
        category = int(qa.get("category", 0))
        evidence = {ids[e] for e in qa.get("evidence", []) if e in ids}
        if category in ANSWERABLE and evidence:
            questions.append((category, str(qa["question"]), evidence))
    return Conversation(path.stem, db, ids, questions, when + timedelta(days=1))


# --- the methods ----------------------------------------------------------------------------


def _plain(conn: sqlite3.Connection, table: str, stop_words: bool) -> Search:
    """All words OR-ed, every match ranked by bm25 (newer first on ties)."""

    def search(question: str, k: int) -> list[int]:
        words = re.findall(r"\w+", question)
        if stop_words:
            words = [w for w in words if w.casefold() not in recall.STOP_WORDS]
        match = _native.fts_query(" ".join(words))
        if match is None:
            return []
        rows = conn.execute(
            f"SELECT rowid FROM {table} WHERE {table} MATCH ? "
            f"ORDER BY bm25({table}), rowid DESC LIMIT ?",
            (match, k),
        ).fetchall()
        return [int(r[0]) for r in rows]

    return search


def before_step_11(conn: sqlite3.Connection) -> Search:
    """The search this step replaced: words in over 10 % of rows (fts5vocab) dropped, the newest
    200 matches, then bm25 over those."""

    def search(question: str, k: int) -> list[int]:
        match = _native.fts_query(question)
        if match is None:
            return []
        terms = match.split(" OR ")
        rows = conn.execute("SELECT max(id) FROM messages").fetchone()[0] or 0
        if len(terms) > 1 and rows >= 50:
            words = [t.strip('"') for t in terms]
            found = conn.execute(
                "SELECT term, doc FROM messages_vocab "
                f"WHERE term IN ({', '.join('?' * len(words))})",
                words,
            ).fetchall()
            freq = {str(t): int(d) for t, d in found}
            kept = [t for t, w in zip(terms, words, strict=True) if freq.get(w, 0) <= 0.1 * rows]
            if not kept:
                rarest = sorted(zip(terms, words, strict=True), key=lambda tw: freq[tw[1]])
                kept = [t for t, _ in rarest[:2]]
            match = " OR ".join(kept)
        candidates = conn.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? "
            "ORDER BY rowid DESC LIMIT 200",
            (match,),
        ).fetchall()
        if not candidates:
            return []
        ranked = conn.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? "
            "ORDER BY bm25(messages_fts), rowid DESC LIMIT ?",
            (match, candidates[-1][0], k),
        ).fetchall()
        return [int(r[0]) for r in ranked]

    return search


def _recall(conn: sqlite3.Connection, now: datetime, tuning: recall.Tuning) -> Search:
    def search(question: str, k: int) -> list[int]:
        rows = recall.search(conn, question, k, budget_s=5.0, now=now, tuning=tuning)
        return [int(r[0]) for r in rows]

    return search


BASELINES: dict[str, Callable[[sqlite3.Connection], Search]] = {
    "fts5 OR, bm25": lambda c: _plain(c, "messages_fts", stop_words=False),
    "fts5 OR, bm25, stop words": lambda c: _plain(c, "messages_fts", stop_words=True),
    "fts5 porter OR, bm25": lambda c: _plain(c, "messages_stem", stop_words=False),
    "fts5 porter OR, bm25, stop words": lambda c: _plain(c, "messages_stem", stop_words=True),
}


def _connect(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)


def score(conversation: Conversation, search: Search) -> Score:
    result = Score()
    for category, question, evidence in conversation.questions:
        result.add(category, search(question, max(KS)), evidence)
    return result


def score_product(conversation: Conversation) -> Score:
    """Through the worker's read-only handle, exactly as the prompt asks."""
    reader = open_readonly(conversation.db)
    try:
        return score(
            conversation,
            lambda q, k: [r["id"] for r in reader.search(q, k, now=conversation.now)],
        )
    finally:
        reader.close()


def score_all(conversation: Conversation) -> dict[str, Score]:
    conn = _connect(conversation.db)
    try:
        out = {name: score(conversation, make(conn)) for name, make in BASELINES.items()}
        out["before step 11 (newest 200, then bm25)"] = score(conversation, before_step_11(conn))
    finally:
        conn.close()
    out[PRODUCT] = score_product(conversation)
    return out


def best_baseline(scores: dict[str, Score], k: int = 10) -> str:
    return max(BASELINES, key=lambda name: scores[name].rate(k))


# --- tuning: search the knobs on one conversation, report the other ---------------------------

GRID: dict[str, tuple[Any, ...]] = {
    "previous_weight": (0.3, 0.5, 0.7, 0.9),
    "next_weight": (0.0, 0.25, 0.5),
    "b": (0.3, 0.5, 0.75),
    "k1": (0.9, 1.2),
    "date_boost": (0.0, 0.5, 1.0),
}


def tune(conversation: Conversation) -> tuple[recall.Tuning, Score]:
    """The grid point with the best recall@10 (pooled) on this conversation among those with no
    category below the best baseline there (every point when none qualifies); ties, common on
    a hundred questions, go to the better mean reciprocal rank of the first evidence row."""
    conn = _connect(conversation.db)
    try:
        baselines = [score(conversation, make(conn)) for make in BASELINES.values()]
        floor = {c: max(b.rate(10, c) for b in baselines) for c in ANSWERABLE}
        tried: list[tuple[bool, float, float, recall.Tuning, Score]] = []
        for values in itertools.product(*GRID.values()):
            tuning = replace(recall.DEFAULT, **dict(zip(GRID, values, strict=True)))
            s = score(conversation, _recall(conn, conversation.now, tuning))
            fair = all(s.rate(10, c) >= floor[c] for c in ANSWERABLE)
            tried.append((fair, s.rate(10), s.mrr, tuning, s))
    finally:
        conn.close()
    best = max(tried, key=lambda t: t[:3])
    return best[3], best[4]


def score_tuned(conversation: Conversation, tuning: recall.Tuning) -> Score:
    conn = _connect(conversation.db)
    try:
        return score(conversation, _recall(conn, conversation.now, tuning))
    finally:
        conn.close()


# --- output ---------------------------------------------------------------------------------


def render(name: str, scores: dict[str, Score], product: str = PRODUCT) -> str:
    any_score = next(iter(scores.values()))
    asked = {c: any_score.questions.get(c, 0) for c in ANSWERABLE}
    head = [f"all ({any_score.total})"] + [f"{c} {CATEGORY_NAMES[c]} ({asked[c]})" for c in asked]
    lines = [
        f"**{name}**: evidence in the top 5 / 10 / 20 rows",
        "",
        "| method | " + " | ".join(head) + " |",
        "|---|" + "---|" * len(head),
    ]
    for method, s in scores.items():
        cells = [" / ".join(f"{s.rate(k):.2f}" for k in SHOWN_KS)] + [
            " / ".join(f"{s.rate(k, c):.2f}" for k in SHOWN_KS) if asked[c] else "–"
            for c in ANSWERABLE
        ]
        label = f"**{product}**" if method == PRODUCT else method
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Verdict:
    best_baseline: str
    margin: float  # recall@10 pooled, over the best baseline
    worst_category: float  # recall@10 in the category closest to (or furthest under) its best

    def __str__(self) -> str:
        return (
            f"recall@10 over the best baseline ({self.best_baseline}): {self.margin:+.3f}; "
            f"in the worst category, over the best baseline there: {self.worst_category:+.3f}"
        )


def verdict(scores: dict[str, Score]) -> Verdict:
    """The product against the best plain baseline pooled, and every category (that has
    questions) against the best baseline in that category."""
    base = best_baseline(scores)
    product = scores[PRODUCT]
    asked = [c for c in ANSWERABLE if product.questions.get(c)]
    worst = min(product.rate(10, c) - max(scores[b].rate(10, c) for b in BASELINES) for c in asked)
    return Verdict(base, product.rate(10) - scores[base].rate(10), worst)


def default_data() -> Path:
    here = Path(__file__).resolve().parents[1]
    for parent in here.parents:
        if (parent / "shared" / "data" / "memory").is_dir():
            return parent / "shared" / "data" / "memory"
    return here.parent / "shared" / "data" / "memory"


def load(data: Path, workdir: Path) -> list[Conversation]:
    files = sorted(data.glob("locomo_*.json"))
    if not files:
        raise SystemExit(f"no locomo_*.json under {data}")
    return [replay(path, workdir) for path in files]


@dataclass
class Result:
    """The product search's hits on one conversation (tests/core/history/test_recall_locomo.py
    reads it)."""

    conversation: str
    questions: int
    hits: dict[int, int]


def run(data: Path) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        out = []
        for conv in load(data, Path(tmp)):
            s = score_product(conv)
            out.append(Result(conv.name, s.total, {k: round(s.rate(k) * s.total) for k in KS}))
        return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--tune", action="append", default=[], help="conversation to tune on")
    parser.add_argument("--write", action="store_true", help="update the tables in docs/recall.md")
    args = parser.parse_args(argv)
    parts: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        conversations = load(args.data, Path(tmp))
        for conv in conversations:
            scores = score_all(conv)
            held = "held out" if conv.name != TUNED_ON else "the conversation they were tuned on"
            title = f"{conv.name} ({held}), recall with its defaults"
            parts += [render(title, scores), f"{verdict(scores)}\n"]
        for name in args.tune:
            tuned_on = next(c for c in conversations if c.name == name)
            tuning, got = tune(tuned_on)
            knobs = ", ".join(f"{k}={getattr(tuning, k)}" for k in GRID)
            parts.append(f"Tuned on {name} (recall@10 there {got.rate(10):.3f}): {knobs}\n")
            for other in conversations:
                if other is tuned_on:
                    continue
                scores = score_all(other)
                scores[PRODUCT] = score_tuned(other, tuning)
                title = f"{other.name} (held out), recall tuned on {name}"
                product = f"recall, tuned on {name}"
                parts += [render(title, scores, product), f"{verdict(scores)}\n"]
    text = "\n".join(parts)
    print(text)
    if args.write:
        write_section("recall-report", text)
    return 0


def write_section(marker: str, text: str) -> None:
    """Replace what stands between `<!-- MARKER:start -->` and `<!-- MARKER:end -->` in
    docs/recall.md with `text` (this report's tables, and prompt_reach.py's)."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "recall.md"
    content = doc.read_text()
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    head, _, rest = content.partition(start)
    _, _, tail = rest.partition(end)
    doc.write_text(f"{head}{start}\n{text}{end}{tail}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
