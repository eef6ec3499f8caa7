"""History recall at Pi history sizes: generated chatter, and what each search costs there.

The generator writes messages whose words follow a Zipf law (rank r drawn with weight 1/r), led by
the words real chat is full of ("I", "you", "the", "What", "Hey", capitalised as typed), so common
words are as common as they are in a real history, and plants one rare word ("quokka") in a few old
rows. `python scripts/recall_scale.py [ROWS ...]` prints the median and worst time of each query
for recall now, the search this step replaced and a plain ranked query, and how many of the
rows returned hold the rare word. tests/bench/test_bench_recall.py and
tests/core/history/test_recall.py share the generator.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shelldon.core.history import recall
from shelldon.core.history.store import HistoryStore, open_readonly

RARE_WORD = "quokka"
# The head of the distribution: chat's commonest words, in rough order, some as typed at the
# start of a sentence. The tail is made-up words, so each stands for one content word.
_HEAD_WORDS = (
    "I you the to and a it is that my What of in Hey me for was so on have do just this be "
    "with we but not are like your can about how did at all get know Yeah if what go think "
    "really out up one time today there will would Thanks when been some good day"
)
HEAD = _HEAD_WORDS.split()
_SYLLABLES = "ka lo mi nu pe ra si to vu ze ba do fi gu he ja"
TAIL = 30_000
QUERIES = {
    "rare word among common ones": f"Hey, what did I tell you about the {RARE_WORD}?",
    "only common words": "What did you do today?",
    "mid-frequency words": "tell me about the {w200} and the {w900} {w5000}",
}


def vocabulary() -> list[str]:
    syllables = _SYLLABLES.split()
    tail = []
    for i in range(TAIL):
        word, n = "", i + 17
        while n:
            n, r = divmod(n, len(syllables))
            word += syllables[r]
        tail.append(word)
    return HEAD + tail


def messages(rows: int, seed: int = 7) -> Iterator[str]:
    """`rows` chat lines of 3-24 words, word ranks drawn with weight 1/rank."""
    rng = random.Random(seed)
    words = vocabulary()
    cumulative: list[float] = []
    total = 0.0
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank
        cumulative.append(total)
    for _ in range(rows):
        yield " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(3, 24)))


def fill(db: Path, rows: int, *, rare_rows: int = 30, seed: int = 7) -> HistoryStore:
    """A store of `rows` generated messages (owner and pet alternating, a minute apart), the rare
    word planted in `rare_rows` of the oldest tenth. Written in one transaction through the
    store's schema, indexed and term counts folded as core would have done it."""
    store = HistoryStore.open(db)
    rng = random.Random(seed + 1)
    planted = set(rng.sample(range(max(1, rows // 10)), min(rare_rows, max(1, rows // 10))))
    start = datetime(2024, 1, 1, tzinfo=UTC)
    conn: sqlite3.Connection = store._conn
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany(
        "INSERT INTO messages (turn_id, role, content, ts) VALUES (?, ?, ?, ?)",
        (
            (
                f"t{i // 2}",
                "owner" if i % 2 == 0 else "pet",
                f"{text} {RARE_WORD}" if i in planted else text,
                (start + timedelta(minutes=i)).isoformat(),
            )
            for i, text in enumerate(messages(rows, seed))
        ),
    )
    # The stem index as core grows it: one statement, so one FTS5 segment (and its merge work),
    # per batch of rows. One bulk statement would leave a few large segments mid-merge, and the
    # first turns after would pay for finishing that merge (scripts/wal_pages.py --history).
    top = int(conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0])
    for first in range(0, top, recall.STEM_BATCH_ROWS):
        conn.execute(
            "INSERT INTO messages_stem (rowid, content) "
            "SELECT id, content FROM messages WHERE id > ? AND id <= ?",
            (first, first + recall.STEM_BATCH_ROWS),
        )
    recall.start_batched_index(conn)
    recall.fold_new_rows(conn, at_least=1)
    conn.execute("COMMIT")
    return store


def mid_query() -> str:
    words = vocabulary()
    return QUERIES["mid-frequency words"].format(
        w200=words[200], w900=words[900], w5000=words[5000]
    )


def measure(rows: int, repeats: int = 7) -> list[str]:
    from recall_report import (  # a sibling script: run as a script
        BASELINES,
        add_baseline_index,
        before_step_11,
    )

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "history.db"
        began = time.perf_counter()
        fill(db, rows).close()
        add_baseline_index(db)
        lines.append(f"{rows:,} rows generated in {time.perf_counter() - began:.1f} s")
        reader = open_readonly(db)
        plain = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
        rare = {
            int(r[0])
            for r in plain.execute(
                "SELECT id FROM messages WHERE content LIKE ?", (f"%{RARE_WORD}%",)
            )
        }
        queries = dict(QUERIES, **{"mid-frequency words": mid_query()})
        for label, query in queries.items():
            methods: dict[str, Callable[[str], list[int]]] = {
                "recall now": lambda q: [r["id"] for r in reader.search(q, 10)],
                "before step 11": lambda q: before_step_11(plain)(q, 10),
                "plain porter OR, bm25": lambda q: BASELINES["fts5 porter OR, bm25"](plain)(q, 10),
            }
            for method, run in methods.items():
                times, found = [], []
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    found = run(query)
                    times.append((time.perf_counter() - t0) * 1000)
                note = ""
                if RARE_WORD in query:
                    note = f", {len(rare & set(found))}/10 rows hold '{RARE_WORD}'"
                lines.append(
                    f"  {label:30} {method:22} median {statistics.median(times):7.1f} ms, "
                    f"worst {max(times):7.1f} ms, {len(found)} rows{note}"
                )
        reader.close()
        plain.close()
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", type=int, default=[100_000])
    args = parser.parse_args(argv)
    for rows in args.rows:
        print("\n".join(measure(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
