"""History recall: candidates chosen by rarity, then ranked (method and figures: docs/recall.md).

Three sqlite structures, all written by core:
- `messages_stem`: an FTS5 index of `messages.content` with the porter tokenizer, so
  "escaped" finds "escape". Case-folded (unicode61): "What" and "what" are one term. Filled in
  batches (migration 8 dropped the per-row trigger): core indexes the rows past the watermark
  `indexed_through` in one INSERT ... SELECT once there are STEM_BATCH_ROWS of them, after the
  reply, and all of them when the store opens and closes (index_new_rows). A search reads the
  few rows past the watermark directly, tokenised as the index would (`_unindexed_tail`).
- `recall_terms`: how many rows hold each stemmed term, folded in batches of FOLD_ROWS rows
  (one upsert per distinct term per batch, not per turn). Rows newer than the last fold are
  counted at read time on the stem index and the unindexed tail (`rowid > folded`).
- `recall_state`: how far the fold and the stem index got, and the row and word totals bm25 needs.

A search drops stop words, reads the document frequency of each remaining query term
(O(query words)), takes every row of the rarest terms while they fit in a candidate budget (a term
too common to fit does not gather candidates, so no read grows with how common a word is; only a
query of nothing but common words takes the newest rows of its least common one), adds the rows
of a date the query names ("yesterday", "last week"), then ranks the candidates and their
neighbours with bm25F computed here from those frequencies: a row and the lines around it are one
passage (the answer to a question is often the line after it). Rows inside the named date, or
month ("in June"), are boosted. Every sqlite step runs under the caller's deadline; the Python
work is bounded by the candidate budget. Over 400 lines: the write side (schema, batched counts)
and the read side share the tokenizer, the tables and the stop words, and are tested together.
"""

from __future__ import annotations

import contextlib
import logging
import math
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from shelldon import _native
from shelldon.core.history import recall_dates
from shelldon.core.words import HISTORY_STOPWORDS as STOP_WORDS

log = logging.getLogger(__name__)

TOKENIZE: Final = "porter unicode61 remove_diacritics 2"
FOLD_ROWS: Final = 64  # rows (32 turns) per document-frequency batch
# Rows per stem-index batch: the worker prompt's recent window (worker.prompt.RECENT_WINDOW), so
# the rows a search must read past the index are the ones the prompt shows anyway. One FTS5
# segment per batch instead of per turn: the index was ~6 of a turn's 11 WAL pages.
STEM_BATCH_ROWS: Final = 12
INDEXED_KEY: Final = "indexed_through"  # recall_state: the highest row id in messages_stem
MAX_UNINDEXED: Final = 20 * STEM_BATCH_ROWS  # rows past the index a search reads at most
# A turn's own transaction indexes the tail once it is this long: only a writer without core's
# post-reply batch (a script, a test) gets there, and its tail stays under MAX_UNINDEXED.
CATCH_UP_ROWS: Final = MAX_UNINDEXED // 2
MAX_TERMS: Final = 16
_PROGRESS_OPS: Final = 1_000  # VM steps between deadline checks
_COLUMNS: Final = "id, turn_id, role, content, ts"
# Words per row as the ranking measures length (whitespace-separated, as str.split counts them).
_WORDS_SQL: Final = (
    "length(trim(content)) - length(replace(trim(content), ' ', '')) + (trim(content) != '')"
)

FTS5_DEFAULT_PGSZ: Final = 4050  # FTS5's leaf size unless configured

# Migration 5 (core.history.migrations) runs ensure_recall_schema once; migration 8 drops its
# trigger (index_new_rows batches instead).
RECALL_SCHEMA: Final = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS messages_stem USING fts5(content, content='messages', "
    f"content_rowid='id', tokenize='{TOKENIZE}')",
    "CREATE TRIGGER IF NOT EXISTS messages_stem_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_stem(rowid, content) VALUES (new.id, new.content); END",
    "CREATE TABLE IF NOT EXISTS recall_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) "
    "WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS recall_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) "
    "WITHOUT ROWID",
)


@dataclass(frozen=True)
class Tuning:
    """The method's knobs (docs/recall.md says how each was chosen)."""

    candidates: int = 200  # rows gathered before ranking
    common_fraction: float = 0.10  # a term in more rows than this does not gather candidates
    k1: float = 0.9
    b: float = 0.3
    # A row and the lines around it are one passage: the previous line's words count this much
    # (an answer follows its question), the next line's this much.
    previous_weight: float = 0.7
    next_weight: float = 0.5
    neighbours_of: int = 40  # the best rows whose neighbours join the pool
    date_boost: float = 1.0  # score multiplier + 1 for a row inside the date the query names


DEFAULT: Final = Tuning()


# --- schema and the write side (core only) --------------------------------------------------


def ensure_recall_schema(conn: sqlite3.Connection) -> None:
    """Create the recall structures; on a store that had messages before them, index and count
    those (a one-off, like a migration). Runs inside the caller's transaction."""
    existed = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_stem'"
    ).fetchone()
    for statement in RECALL_SCHEMA:
        conn.execute(statement)
    if existed:
        return
    page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    if page < FTS5_DEFAULT_PGSZ:
        # FTS5's leaves are sized for 4 KB pages; on smaller ones each would overflow onto a
        # chain of pages: one leaf per page instead (docs/performance.md).
        conn.execute(
            "INSERT INTO messages_stem(messages_stem, rank) VALUES ('pgsz', ?)", (page - 64,)
        )
    conn.execute("INSERT INTO messages_stem(messages_stem) VALUES ('rebuild')")
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_stem_vocab "
        "USING fts5vocab(main, messages_stem, row)"
    )
    conn.execute("DELETE FROM recall_terms")
    conn.execute("INSERT INTO recall_terms (term, docs) SELECT term, doc FROM recall_stem_vocab")
    rows, top, words = conn.execute(
        f"SELECT count(*), coalesce(max(id), 0), coalesce(sum({_WORDS_SQL}), 0) FROM messages"
    ).fetchone()
    _set_state(conn, folded_through=top, docs=rows, words=words)


def fold_new_rows(conn: sqlite3.Connection, *, at_least: int = FOLD_ROWS) -> int:
    """Count the terms of rows added since the last fold into `recall_terms`, when there are at
    least `at_least` of them. Runs inside the caller's write transaction (record_turn's, or
    maintenance's with at_least=1). Returns the number of rows folded."""
    state = _state(conn)
    through = state.get("folded_through", 0)
    top = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    if top - through < max(1, at_least):
        return 0
    # A private contentless index tokenizes the batch exactly as messages_stem does.
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_batch USING fts5(content, content='', "
        f"tokenize='{TOKENIZE}')"
    )
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_batch_vocab "
        "USING fts5vocab(temp, recall_batch, row)"
    )
    conn.execute(
        "INSERT INTO temp.recall_batch (rowid, content) "
        "SELECT id, content FROM messages WHERE id > ? AND id <= ?",
        (through, top),
    )
    conn.execute(
        "INSERT INTO recall_terms (term, docs) SELECT term, doc FROM temp.recall_batch_vocab "
        "WHERE true ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs"
    )
    conn.execute("INSERT INTO temp.recall_batch (recall_batch) VALUES ('delete-all')")
    rows, words = conn.execute(
        f"SELECT count(*), coalesce(sum({_WORDS_SQL}), 0) FROM messages WHERE id > ? AND id <= ?",
        (through, top),
    ).fetchone()
    _set_state(
        conn,
        folded_through=top,
        docs=state.get("docs", 0) + rows,
        words=state.get("words", 0) + words,
    )
    return int(rows)


def start_batched_index(conn: sqlite3.Connection) -> None:
    """Migration 8, after it drops the per-row trigger: every row so far is in the stem index
    (the trigger put it there), so the watermark starts at the newest row."""
    top = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    _set_state(conn, **{INDEXED_KEY: int(top)})


def unindexed_rows(conn: sqlite3.Connection) -> int:
    """How many row ids lie past the stem index's watermark (0 on a store still indexed per row,
    before migration 8, which has no watermark)."""
    row = conn.execute("SELECT value FROM recall_state WHERE key = ?", (INDEXED_KEY,)).fetchone()
    if row is None:
        return 0
    top = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    return max(0, int(top) - int(row[0]))


def index_new_rows(conn: sqlite3.Connection, *, at_least: int = STEM_BATCH_ROWS) -> int:
    """Add the rows past the watermark to `messages_stem` in one INSERT ... SELECT (one new FTS5
    segment for the batch) and move the watermark, when there are at least `at_least` of them.
    Runs inside the caller's write transaction, so the index and its watermark commit together:
    a kill before the commit leaves both as they were, and the rows are taken by the next batch.
    Returns the number of rows indexed."""
    if unindexed_rows(conn) < max(1, at_least):
        return 0
    through = int(_state(conn)[INDEXED_KEY])
    top = int(conn.execute("SELECT max(id) FROM messages").fetchone()[0])
    added = conn.execute(
        "INSERT INTO messages_stem (rowid, content) "
        "SELECT id, content FROM messages WHERE id > ? AND id <= ?",
        (through, top),
    ).rowcount
    _set_state(conn, **{INDEXED_KEY: top})
    return int(added)


def rebuild_stem_index(conn: sqlite3.Connection) -> None:
    """The stem index made again from every row (a repaired store's salvaged messages), its
    watermark at the newest row. Inside the caller's write transaction."""
    conn.execute("INSERT INTO messages_stem(messages_stem) VALUES ('rebuild')")
    start_batched_index(conn)


def _state(conn: sqlite3.Connection) -> dict[str, int]:
    return {str(k): int(v) for k, v in conn.execute("SELECT key, value FROM recall_state")}


def _set_state(conn: sqlite3.Connection, **values: int) -> None:
    conn.executemany(
        "INSERT INTO recall_state (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        list(values.items()),
    )


# --- the read side (any handle, read-only included) -------------------------------------------


class _Tokenizer:
    """An in-memory FTS5 table with the stem index's tokenizer: query words and candidate rows
    get exactly the terms messages_stem gave them. One per thread (a read-only history handle
    cannot create even a temp table)."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.conn.execute(
            f"CREATE VIRTUAL TABLE t USING fts5(content, content='', tokenize='{TOKENIZE}')"
        )
        self.conn.execute("CREATE VIRTUAL TABLE t_terms USING fts5vocab(t, instance)")

    def terms(
        self, texts: Sequence[tuple[int, str]], only: Iterable[str] | None = None
    ) -> list[tuple[int, str]]:
        """(doc, term) for every token of each text, optionally only the given terms. The rows
        live for one transaction, rolled back: nothing is ever flushed to a segment."""
        self.conn.execute("BEGIN")
        try:
            self.conn.executemany("INSERT INTO t (rowid, content) VALUES (?, ?)", texts)
            if only is None:
                return self.conn.execute("SELECT doc, term FROM t_terms").fetchall()
            wanted = sorted(set(only))
            return self.conn.execute(
                f"SELECT doc, term FROM t_terms WHERE term IN ({', '.join('?' * len(wanted))})",
                wanted,
            ).fetchall()
        finally:
            self.conn.execute("ROLLBACK")

    def counts(
        self, texts: Sequence[tuple[int, str]], only: Iterable[str]
    ) -> list[tuple[int, str, int]]:
        """(doc, term, occurrences) of the given terms in each text (as `terms`, counted)."""
        wanted = sorted(set(only))
        self.conn.execute("BEGIN")
        try:
            self.conn.executemany("INSERT INTO t (rowid, content) VALUES (?, ?)", texts)
            return self.conn.execute(
                "SELECT doc, term, count(*) FROM t_terms "
                f"WHERE term IN ({', '.join('?' * len(wanted))}) GROUP BY doc, term",
                wanted,
            ).fetchall()
        finally:
            self.conn.execute("ROLLBACK")


_local = threading.local()


def _tokenizer() -> _Tokenizer:
    tok: _Tokenizer | None = getattr(_local, "tokenizer", None)
    if tok is None:
        tok = _local.tokenizer = _Tokenizer()
    return tok


@dataclass(frozen=True)
class _Term:
    word: str  # what MATCH is given (FTS5 stems it the same way)
    stem: str
    docs: int
    unindexed: tuple[int, ...] = ()  # rows past the stem index holding it, newest first


def search(
    conn: sqlite3.Connection,
    query: str,
    n: int,
    *,
    budget_s: float,
    now: datetime | None = None,
    tuning: Tuning | None = None,
) -> list[tuple[Any, ...]]:
    """The `n` rows (id, turn_id, role, content, ts) most likely to hold what `query` asks about,
    best first. `[]` when no word survives sanitising, on any sqlite error, or when the time
    budget runs out."""
    match = _native.fts_query(query, MAX_TERMS) if isinstance(query, str) else None
    if n <= 0 or match is None:
        return []
    deadline = time.monotonic() + budget_s

    def past_deadline() -> int:
        return int(time.monotonic() > deadline)

    tokenizer = _tokenizer()
    try:
        conn.set_progress_handler(past_deadline, _PROGRESS_OPS)
        tokenizer.conn.set_progress_handler(past_deadline, _PROGRESS_OPS)
        when = now or datetime.now(UTC)
        return _search(conn, tokenizer, query, match, n, when, tuning or DEFAULT)
    except sqlite3.Error as exc:
        log.warning("history search failed, no recall this turn: %s", exc)
        # An interrupted tokenizer may be left inside its transaction: the next search makes
        # a fresh one rather than inherit it.
        _local.tokenizer = None
        with contextlib.suppress(sqlite3.Error):
            tokenizer.conn.close()
        return []
    finally:
        for c in (conn, tokenizer.conn):
            with contextlib.suppress(sqlite3.Error):  # closed above: nothing to clear
                c.set_progress_handler(None, 0)


def _search(
    conn: sqlite3.Connection,
    tokenizer: _Tokenizer,
    query: str,
    match: str,
    n: int,
    now: datetime,
    tuning: Tuning,
) -> list[tuple[Any, ...]]:
    state = _state(conn)
    through = state.get("folded_through", 0)
    top = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    total_rows = state.get("docs", 0) + max(0, top - through)
    if total_rows == 0:
        return []
    indexed = state.get(INDEXED_KEY, top)  # no watermark: indexed per row (before migration 8)
    terms = _query_terms(conn, tokenizer, match, through, indexed, tuning)
    if not terms:
        return []
    candidates = _candidates(conn, terms, total_rows, tuning)
    window = recall_dates.window(query, now)
    if window is not None and window.start is not None and window.end is not None:
        # "yesterday", "last week": the rows of that time are candidates whatever their words.
        candidates |= _rows_within(conn, window.start, window.end, top, tuning.candidates // 2)
    if not candidates:
        return []
    avg_len = state["words"] / state["docs"] if state.get("docs") and state.get("words") else 12.0
    weights = {t.stem: _idf(t.docs, total_rows) for t in terms}
    rows = _fetch(conn, candidates)
    return _rank_passages(conn, tokenizer, rows, weights, avg_len, top, window, n, tuning)


def _rank_passages(
    conn: sqlite3.Connection,
    tokenizer: _Tokenizer,
    rows: dict[int, tuple[Any, ...]],
    weights: dict[str, float],
    avg_len: float,
    top: int,
    window: recall_dates.DateWindow | None,
    n: int,
    tuning: Tuning,
) -> list[tuple[Any, ...]]:
    """The candidate `rows` and the neighbours of the best, ranked as passages, best first.
    (The pure-Python reference this replaced: tests/reference/passages.py.)"""
    # bm25F in Rust (rust/src/passages.rs): a row and its neighbours are one passage, a
    # neighbour's words weighing previous_weight or next_weight. A neighbour lends a word's
    # presence, not its density (tf capped at 1), and the larger share when both hold it: a row
    # that only borrows a word does not outrank the row that holds it. A word in both saturates
    # once (k1), not twice.
    scorer = _native.PassageScorer(
        terms=list(weights),
        weights=list(weights.values()),
        k1=tuning.k1,
        b=tuning.b,
        avg_len=avg_len,
        previous_weight=tuning.previous_weight,
        next_weight=tuning.next_weight,
        date_boost=tuning.date_boost,
    )
    _add_rows(scorer, tokenizer, rows, weights)
    # The rows next to the best matches join the pool: the answer is often the line after the
    # question, or the pet's reply to it.
    best = scorer.best(tuning.neighbours_of)
    extra = {j for i in best for j in (i - 1, i + 1) if j not in rows and 0 < j <= top}
    if extra and (tuning.previous_weight or tuning.next_weight):
        more = _fetch(conn, extra)
        _add_rows(scorer, tokenizer, more, weights)
        rows |= more
    # A row of the named date counts as if it held the query's weakest word, then is boosted.
    dated = [i for i, row in rows.items() if window.contains(row[4])] if window is not None else []
    return [rows[i] for i in scorer.rank(n, dated)]


def _query_terms(
    conn: sqlite3.Connection,
    tokenizer: _Tokenizer,
    match: str,
    through: int,
    indexed: int,
    tuning: Tuning,
) -> list[_Term]:
    """Each distinct stem of the query with one word that yields it and its row count."""
    words = [w.strip('"') for w in match.split(" OR ")]
    content = [w for w in words if w.casefold() not in STOP_WORDS]
    words = content or words  # "how are you": better its own words than nothing
    stems: dict[int, list[str]] = {}
    for doc, term in tokenizer.terms(list(enumerate(words, 1))):
        stems.setdefault(int(doc), []).append(str(term))
    by_stem: dict[str, str] = {}
    for i, word in enumerate(words, 1):
        got = stems.get(i, [])
        if len(got) == 1 and got[0] not in by_stem:  # a word unicode61 splits further is left out
            by_stem[got[0]] = word
    if not by_stem:
        return []
    placeholders = ", ".join("?" * len(by_stem))
    folded = dict(
        conn.execute(
            f"SELECT term, docs FROM recall_terms WHERE term IN ({placeholders})", list(by_stem)
        ).fetchall()
    )
    unindexed = _unindexed_tail(conn, tokenizer, indexed, by_stem)
    terms = []
    for stem, word in by_stem.items():
        # The unfolded tail is short (at most a batch when core folds on write); capped anyway.
        tail = conn.execute(
            "SELECT count(*) FROM (SELECT rowid FROM messages_stem WHERE messages_stem MATCH ? "
            "AND rowid > ? LIMIT ?)",
            (f'"{word}"', through, tuning.candidates + 1),
        ).fetchone()[0]
        held = unindexed.get(stem, ())
        tail += sum(1 for i in held if i > through)  # past the fold and the index
        terms.append(_Term(word, stem, int(folded.get(stem, 0)) + int(tail), held))
    return terms


def _candidates(
    conn: sqlite3.Connection, terms: list[_Term], total_rows: int, tuning: Tuning
) -> set[int]:
    """Every row of the rarest terms while they fit in the candidate budget. A term too common
    to fit gathers nothing, unless nothing rarer matched: then its newest rows are the
    candidates (a query of only common words still recalls something)."""
    budget = tuning.candidates
    common = max(1.0, tuning.common_fraction * total_rows)
    chosen: set[int] = set()
    for term in sorted(terms, key=lambda t: (t.docs, t.stem)):
        room = budget - len(chosen)
        if term.docs == 0 or room <= 0:
            continue
        if (term.docs > room or term.docs > common) and chosen:
            break  # rarer terms gathered candidates; this one would only add its newest rows
        chosen.update(term.unindexed[:room])  # newer than any indexed row: first
        if room > len(term.unindexed):
            got = conn.execute(
                "SELECT rowid FROM messages_stem WHERE messages_stem MATCH ? "
                "ORDER BY rowid DESC LIMIT ?",
                (f'"{term.word}"', room - len(term.unindexed)),
            ).fetchall()
            chosen.update(int(r[0]) for r in got)
    return chosen


def _unindexed_tail(
    conn: sqlite3.Connection, tokenizer: _Tokenizer, indexed: int, stems: Iterable[str]
) -> dict[str, tuple[int, ...]]:
    """For each stem, the rows past the stem index's watermark that hold it, newest first. Core
    indexes rows in batches (index_new_rows), so up to a batch of the newest rows is not in
    messages_stem yet: they are tokenised here exactly as the index would have (the same
    tokenizer), so every reader finds every row. A few rows in normal running (a batch at most,
    as many as a killed core left: the next open indexes them). Bounded all the same: only when
    batches keep failing (logged by core) are there more than MAX_UNINDEXED, and then the newest
    are read."""
    rows = conn.execute(
        "SELECT id, content FROM messages WHERE id > ? ORDER BY id DESC LIMIT ?",
        (indexed, MAX_UNINDEXED),
    ).fetchall()
    if not rows:
        return {}
    held: dict[str, set[int]] = {}
    for doc, term in tokenizer.terms([(int(i), str(text)) for i, text in rows], stems):
        held.setdefault(str(term), set()).add(int(doc))
    return {stem: tuple(sorted(ids, reverse=True)) for stem, ids in held.items()}


def _rows_within(
    conn: sqlite3.Connection, start: datetime, end: datetime, top: int, limit: int
) -> set[int]:
    """The newest `limit` ids stamped in [start, end): rows are appended in time order, so two
    binary searches over ids find the range (O(log rows) lookups, no index on ts)."""
    first, after = _first_at(conn, start, top), _first_at(conn, end, top)
    return set(range(max(first, after - limit), after))


def _first_at(conn: sqlite3.Connection, moment: datetime, top: int) -> int:
    """The smallest id whose row is stamped at or after `moment` (top + 1 when none is). A date
    a question names is most often recent: steps back from the newest row double until one
    lands before `moment`, then the range between is halved (O(log distance) lookups)."""

    def at_or_after(i: int) -> bool:
        row = conn.execute("SELECT ts FROM messages WHERE id >= ? ORDER BY id LIMIT 1", (i,))
        found = row.fetchone()
        return found is None or recall_dates.not_before(found[0], moment)

    lo, hi, step = 1, top + 1, 1
    while hi - step >= lo:
        if not at_or_after(hi - step):
            lo = hi - step + 1
            break
        hi -= step
        step *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if at_or_after(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _idf(docs: int, total: int) -> float:
    """FTS5's bm25 idf: a word in half the rows or more weighs (almost) nothing."""
    return max(1e-6, math.log((total - docs + 0.5) / (docs + 0.5)))


def _fetch(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple[Any, ...]]:
    wanted = sorted(ids)
    out: dict[int, tuple[Any, ...]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        for row in conn.execute(
            f"SELECT {_COLUMNS} FROM messages WHERE id IN ({', '.join('?' * len(chunk))})", chunk
        ):
            out[int(row[0])] = tuple(row)
    return out


def _add_rows(
    scorer: _native.PassageScorer,
    tokenizer: _Tokenizer,
    rows: dict[int, tuple[Any, ...]],
    weights: dict[str, float],
) -> None:
    """Each row's length in words (whitespace-separated) and its query terms' counts, as the
    stem index's tokenizer reads the row, into the scorer."""
    counts = _term_counts(tokenizer, rows, weights)
    scorer.add([(i, len(r[3].split())) for i, r in rows.items()], counts)


# The porter stem of a word is the word's beginning plus at most this many letters of its own
# ("sensibility" -> "sensibl", "happy" -> "happi"; tests/core/history/test_recall_scoring.py checks
# it on LoCoMo's words): a word that does not begin with a stem less its last STEM_GROWS letters
# cannot have that stem.
STEM_GROWS: Final = 2


def _term_counts(
    tokenizer: _Tokenizer, rows: dict[int, tuple[Any, ...]], weights: dict[str, float]
) -> list[tuple[int, str, int]]:
    """(row, term, occurrences) of the query's terms, exactly as sqlite's tokenizer counts them,
    without stemming every word of every row: in an ASCII row only the words that can have a
    query term's stem (they begin with its first letters) are stemmed, each distinct word once,
    and counted in Rust; any other row is tokenized whole."""
    prefixes = sorted({stem[: max(0, len(stem) - STEM_GROWS)] for stem in weights})
    ascii_rows: list[tuple[int, str]] = []
    whole: list[tuple[int, str]] = []
    for i, row in rows.items():
        (ascii_rows if row[3].isascii() else whole).append((i, row[3]))
    counts = tokenizer.counts(whole, weights) if whole else []
    words = _native.candidate_words([text for _, text in ascii_rows], prefixes)
    if words:
        stem_of = {
            words[doc - 1]: term
            for doc, term in tokenizer.terms(list(enumerate(words, 1)), weights)
        }
        counts += _native.count_terms(ascii_rows, prefixes, stem_of)
    return counts
